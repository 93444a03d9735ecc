"""The unit's system-call filter as systemd resolves it, applied with libseccomp to a child process.

systemd builds the filter from ``SystemCallFilter=`` lines: the first one decides whether it is an
allow list (then ``@default`` is added) or a deny list (``~``); later lines add to it or, with ``~``,
take away; an empty assignment starts over. Groups are resolved with ``systemd-analyze
syscall-filter``, the same tables systemd uses. The default action is KILL_PROCESS, as systemd's when
``SystemCallErrorNumber=`` is not set; ``SystemCallArchitectures=native`` is libseccomp's default (only
the native architecture in the filter, any other killed). The few libseccomp calls are made with
ctypes on the system's libseccomp2 (Debian's python3-seccomp binds only the system Python).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import subprocess
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache

ACT_KILL_PROCESS = 0x80000000
ACT_ALLOW = 0x7FFF0000


def act_errno(errno: int) -> int:
    """SCMP_ACT_ERRNO(errno): the call fails with this errno (ProtectClock= and its kind)."""
    return 0x00050000 | (errno & 0xFFFF)


@cache
def groups() -> dict[str, list[str]]:
    """Every group ``systemd-analyze syscall-filter`` lists, with its members (calls and groups)."""
    out = subprocess.run(["systemd-analyze", "syscall-filter", "--no-pager"], capture_output=True, text=True,
                         check=True).stdout
    found: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in out.splitlines():
        if line.startswith("@"):
            current = found.setdefault(line.split()[0], [])
        elif not line.strip():
            current = None
        elif current is not None and not line.strip().startswith("#"):
            current.append(line.strip())
    return found


def resolve(names: Iterable[str]) -> set[str]:
    """System call names, with every group expanded (recursively)."""
    calls: set[str] = set()
    for name in names:
        if name.startswith("@"):
            calls |= resolve(groups()[name])
        else:
            calls.add(name.split(":")[0])  # "name:errno" sets an errno for that call alone
    return calls


@dataclass(frozen=True)
class UnitFilter:
    allow_list: bool
    """True: only ``calls`` are allowed; False: ``calls`` are forbidden and everything else allowed."""
    calls: frozenset[str]


def unit_filter(unit: str) -> UnitFilter:
    """The filter a unit file's ``SystemCallFilter=`` lines make (systemd's config_parse_syscall_filter)."""
    archs = [line.split("=", 1)[1].split() for line in unit.splitlines()
             if line.startswith("SystemCallArchitectures=")]
    if archs and archs[-1] != ["native"]:
        raise NotImplementedError(f"SystemCallArchitectures={' '.join(archs[-1])}: only native is modelled")
    allow_list: bool | None = None
    calls: set[str] = set()
    for line in unit.splitlines():
        if not line.startswith("SystemCallFilter="):
            continue
        value = line.split("=", 1)[1].strip()
        if not value:
            allow_list, calls = None, set()
            continue
        invert = value.startswith("~")
        names = resolve(value.lstrip("~").split())
        if allow_list is None:
            allow_list = not invert
            calls = resolve(["@default"]) if allow_list else set()
        if invert == (not allow_list):  # the same sense as the list: more of it
            calls |= names
        else:
            calls -= names
    if allow_list is None:
        raise ValueError("the unit has no SystemCallFilter=")
    return UnitFilter(allow_list, frozenset(calls))


@cache
def _lib() -> ctypes.CDLL:
    lib = ctypes.CDLL(ctypes.util.find_library("seccomp") or "libseccomp.so.2", use_errno=True)
    lib.seccomp_init.argtypes = [ctypes.c_uint32]
    lib.seccomp_init.restype = ctypes.c_void_p
    lib.seccomp_syscall_resolve_name.argtypes = [ctypes.c_char_p]
    lib.seccomp_syscall_resolve_name.restype = ctypes.c_int
    lib.seccomp_rule_add_array.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_int, ctypes.c_uint,
                                           ctypes.c_void_p]
    lib.seccomp_rule_add_array.restype = ctypes.c_int
    lib.seccomp_load.argtypes = [ctypes.c_void_p]
    lib.seccomp_load.restype = ctypes.c_int
    return lib


def native_numbers(calls: Iterable[str]) -> dict[str, int]:
    """The calls this architecture has, by number (the groups name calls of every architecture)."""
    lib = _lib()
    numbers = {name: lib.seccomp_syscall_resolve_name(name.encode()) for name in calls}
    return {name: nr for name, nr in numbers.items() if nr >= 0}


def _build(default: int, rules: dict[int, int]) -> Callable[[], None]:
    """A filter made now, in the parent, and a function that loads it in the child (after fork, before
    exec: only seccomp_load runs there, which also sets no_new_privs as systemd does)."""
    lib = _lib()
    ctx = lib.seccomp_init(default)
    if not ctx:
        raise OSError("seccomp_init failed")
    for nr, action in rules.items():
        rc = lib.seccomp_rule_add_array(ctx, action, nr, 0, None)
        if rc < 0:
            raise OSError(-rc, f"seccomp_rule_add_array({nr})")

    def load() -> None:
        rc = lib.seccomp_load(ctx)
        if rc < 0:
            raise OSError(-rc, "seccomp_load")

    return load


def preexec_for(unit: str) -> Callable[[], None]:
    """What systemd does to the service's process before exec, as far as ``SystemCallFilter=`` goes."""
    f = unit_filter(unit)
    numbers = native_numbers(f.calls)
    if f.allow_list:
        return _build(ACT_KILL_PROCESS, {nr: ACT_ALLOW for nr in numbers.values()})
    return _build(ACT_ALLOW, {nr: ACT_KILL_PROCESS for nr in numbers.values()})


CLONE_NEWUSER = 0x10000000
NOBODY = 65534


def as_the_units_user(unit: str) -> Callable[[], None]:
    """What systemd does before exec for ``User=`` and ``SystemCallFilter=``: leave root, then the filter.

    The unit runs as ``User=bankleser``, never as root; a root process makes calls the service never
    does (SQLite fchown()s its journal files when euid is 0, and fchown is in @privileged). Run as root
    (CI), the child becomes ``nobody`` in a user namespace of its own, mapped to the caller outside, so it
    still reads the checkout and Python wherever they lie (a setuid to nobody could not read /root/...).
    """
    load = preexec_for(unit)
    libc = ctypes.CDLL(None, use_errno=True)

    def run() -> None:
        if os.geteuid() == 0:
            if libc.unshare(CLONE_NEWUSER) != 0:
                raise OSError(ctypes.get_errno(), "unshare(CLONE_NEWUSER)")
            for name, text in (("setgroups", "deny"), ("uid_map", f"{NOBODY} 0 1"), ("gid_map", f"{NOBODY} 0 1")):
                with open(f"/proc/self/{name}", "w") as f:
                    f.write(text)
        load()

    return run


def preexec_failing(calls: Iterable[str], errno: int) -> Callable[[], None]:
    """Every call allowed but these, which fail with ``errno`` (as ``ProtectClock=yes`` makes @clock fail)."""
    return _build(ACT_ALLOW, {nr: act_errno(errno) for nr in native_numbers(resolve(calls)).values()})
