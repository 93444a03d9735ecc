"""A family edition's previous versions: the files /admin replaced or deleted, kept in ``editions/previous/``.

Nothing a family made is lost by a click: a replaced or deleted file is moved here whole (its bytes as they
were, under its own name behind the moment it left), and /admin brings it back. The folder's files are not
``*.toml`` of ``editions/`` itself, so they never play nor claim a key; a family may delete them by hand.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import msgspec

PREVIOUS = "previous"
_STAMP = "%Y%m%d-%H%M%S"


class Version(msgspec.Struct, frozen=True):
    """One kept file: its name in ``previous/`` (what /admin names to bring it back), the file name it had, and
    when it was replaced or deleted (UTC seconds)."""

    name: str
    file: str
    at: float


def keep(path: Path, now: float | None = None) -> Version:
    """Move ``path`` (a file of ``editions/``) into ``previous/``; the name carries the moment, to the
    microsecond, and a counter if two are kept within one."""
    folder = path.parent / PREVIOUS
    folder.mkdir(exist_ok=True)
    at = time.time() if now is None else now
    stamp = time.strftime(_STAMP, time.gmtime(at)) + f"-{int(at * 1e6) % 1_000_000:06d}"
    n = 0
    while (target := folder / f"{stamp}{f'-{n}' if n else ''}_{path.name}").exists():
        n += 1
    os.replace(path, target)
    return Version(target.name, path.name, at)


def versions(folder: Path) -> list[Version]:
    """The kept files of an ``editions/`` folder, newest first."""
    import calendar  # the kept versions are listed on a page, long after READY

    kept = folder / PREVIOUS
    out = []
    for path in kept.glob("*_*.toml") if kept.is_dir() else []:
        stamp, _, file = path.name.partition("_")
        try:
            at = float(calendar.timegm(time.strptime(stamp[:15], _STAMP)))
        except ValueError:
            at = path.stat().st_mtime  # renamed by hand: when it was last written
        out.append(Version(path.name, file, at))
    return sorted(out, key=lambda v: v.name, reverse=True)


def kept_path(folder: Path, name: str) -> Path | None:
    """The kept file called ``name``, when there is one (never a path outside ``previous/``)."""
    path = folder / PREVIOUS / name
    return path if "/" not in name and name not in ("", ".", "..") and path.is_file() else None
