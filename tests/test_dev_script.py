"""`./dev run --port N` announces the address the server really uses."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent


@pytest.mark.parametrize("args", [["--port", "9123"], ["--port=9123"]])
def test_dev_run_prints_the_port_it_was_given(args: list[str]) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    out = subprocess.run([str(ROOT / "dev"), "run", *args, "--help"], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=120, check=True).stdout
    announced = [line for line in out.splitlines() if line.startswith("Bankleser (Simulation)")]
    assert announced == ["Bankleser (Simulation): virtuelles Gerät auf http://127.0.0.1:9123/device, "
                         "Stand auf http://127.0.0.1:9123/"]



def test_dev_run_speaks_the_language_asked_for() -> None:
    """An English family's first line is English: the start line comes from the catalogue."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    out = subprocess.run([str(ROOT / "dev"), "run", "--language", "en", "--port", "9123", "--help"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=120, check=True).stdout
    announced = [line for line in out.splitlines() if line.startswith("Bankleser (")]
    assert announced == ["Bankleser (simulation): virtual device at http://127.0.0.1:9123/device, "
                         "status at http://127.0.0.1:9123/"]

FAKE_PYTHON = """#!/bin/sh
# A stand-in for python3 and the venv's tools: records its argv, makes a venv as `-m venv DIR` would.
echo "$(basename "$0") $*" >> "$DEV_LOG"
case "$1" in
-c) exec "$REAL_PYTHON" "$@" ;;
-m) if [ "$2" = venv ]; then
        mkdir -p "$3/bin"
        for tool in python bankleser ruff mypy; do cp "$0" "$3/bin/$tool"; done
    fi ;;
esac
"""


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """The dev script and pyproject.toml in a fresh directory, with a fake python3 that records every call."""
    (tmp_path / "repo").mkdir()
    for name in ("dev", "pyproject.toml", "systemd/requirements.lock", "tests/requirements.lock"):
        (tmp_path / "repo" / name).parent.mkdir(exist_ok=True)
        (tmp_path / "repo" / name).write_bytes((ROOT / name).read_bytes())
    (tmp_path / "repo" / "dev").chmod(0o755)
    tools = tmp_path / "repo" / "tests" / "web-tools"  # the page checkers, installed already: npm is not asked
    (tools / "node_modules").mkdir(parents=True)
    for name in ("package.json", "package-lock.json"):
        (tools / name).write_bytes((ROOT / "tests" / "web-tools" / name).read_bytes())
    (tools / "node_modules" / ".installed").touch()
    fake = tmp_path / "python3"
    fake.write_text(FAKE_PYTHON)
    fake.chmod(0o755)
    return tmp_path / "repo"


def dev(checkout: Path, *args: str) -> tuple[str, list[str]]:
    log = checkout.parent / "calls.log"
    log.write_text("")
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(PYTHON=str(checkout.parent / "python3"), DEV_LOG=str(log), REAL_PYTHON=sys.executable)
    done = subprocess.run([str(checkout / "dev"), *args], cwd=checkout, env=env, capture_output=True, text=True,
                          timeout=60, check=True)
    return done.stderr, log.read_text().splitlines()


def installs(calls: list[str]) -> list[str]:
    return [c for c in calls if " -m pip " in c]


def test_the_first_dev_run_says_what_it_does_and_installs_only_what_running_needs(checkout: Path) -> None:
    said, calls = dev(checkout, "run", "--port", "9123")
    assert "Setting up Bankleser in .venv" in said and "creating the virtual environment" in said
    assert "systemd/requirements.lock" in said and said.rstrip().endswith("done")
    assert installs(calls) == [
        f"python -m pip --quiet --disable-pip-version-check install {args}" for args in (
            "--require-hashes --no-deps -r systemd/requirements.lock", "--no-deps -e .")]
    assert calls[-1] == "bankleser run --port 9123"
    said, calls = dev(checkout, "run")  # set up: silent, nothing installed again
    assert said == "" and installs(calls) == [] and calls[-1] == "bankleser run"


def test_dev_test_still_installs_the_test_extras_and_then_run_needs_nothing(checkout: Path) -> None:
    said, calls = dev(checkout, "test", "-x")
    assert installs(calls) == [
        f"python -m pip --quiet --disable-pip-version-check install {args}" for args in (
            "--require-hashes --no-deps -r tests/requirements.lock", "--no-deps --no-build-isolation -e .")]
    assert "tests/requirements.lock" in said
    assert calls[-1] == "python -m pytest -x"
    said, calls = dev(checkout, "run")
    assert installs(calls) == [] and said == ""


def test_dev_test_type_checks_the_tests_with_the_code(checkout: Path) -> None:
    """A test's wrong call into the code (a renamed field, an optional read as present) passed unseen while
    mypy --strict checked only the packages: ./dev test checks tests/ in the same run, with the same stubs."""
    _, calls = dev(checkout, "test", "--co", "-q")
    checks = [c.split()[1:] for c in calls if c.startswith("mypy ")]
    assert checks == [["--strict", "rules", "drivers", "device", "webui", "shapes", "bench", "words", "tests"]]
    assert calls[-1] == "python -m pytest --co -q"


def test_a_changed_pyproject_installs_again(checkout: Path) -> None:
    dev(checkout, "run")
    pyproject = checkout / "pyproject.toml"
    later = (checkout / ".venv" / ".installed-run").stat().st_mtime + 10
    os.utime(pyproject, (later, later))
    said, calls = dev(checkout, "run")
    assert len(installs(calls)) == 2 and "Setting up" in said


def test_a_refreshed_lock_installs_again(checkout: Path) -> None:
    """A reviewed tool update (systemd/lock.sh, committed) reaches a checkout already set up."""
    dev(checkout, "test")
    lock = checkout / "tests" / "requirements.lock"
    later = (checkout / ".venv" / ".installed-test").stat().st_mtime + 10
    os.utime(lock, (later, later))
    said, calls = dev(checkout, "test")
    assert len(installs(calls)) == 2 and "Setting up" in said


def test_every_test_tool_is_pinned_with_hashes_in_the_test_lock() -> None:
    """An unpinned tool moved and a fresh machine's run turned red: every extra and the build backend are
    in tests/requirements.lock at one exact version each, with hashes, within pyproject.toml's ranges."""
    import re
    import tomllib

    from packaging.requirements import Requirement

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    lock = (ROOT / "tests" / "requirements.lock").read_text()
    pins = {re.sub(r"[-_.]+", "-", m[1]).lower(): m[2] for m in re.finditer(r"^([A-Za-z0-9_.-]+)==(\S+) \\$", lock, re.M)}
    wanted = [*project["project"]["dependencies"], *project["project"]["optional-dependencies"]["test"],
              *project["build-system"]["requires"]]
    for spec in wanted:
        req = Requirement(spec)
        name = re.sub(r"[-_.]+", "-", req.name).lower()
        assert name in pins, f"{req.name} is not in tests/requirements.lock: run systemd/lock.sh"
        assert req.specifier.contains(pins[name]), f"{req.name}=={pins[name]} is outside {req.specifier}"
    blocks = re.split(r"\n(?=\S)", lock.split("\n", 2)[2])
    assert all("--hash=sha256:" in block for block in blocks if "==" in block)


FAKE_UV_PYTHON = """#!/bin/sh
# python3 for systemd/lock.sh: `-m venv DIR` makes a pip that installs nothing and a uv whose `pip compile`
# writes the lock it is asked for as it stands, with ruff moved where $MOVE_RUFF names a new version.
[ "$1 $2" = "-m venv" ] || exit 1
mkdir -p "$3/bin"
printf '#!/bin/sh\\n' > "$3/bin/pip"
cat > "$3/bin/uv" <<'UV'
#!/bin/sh
while [ $# -gt 0 ]; do [ "$1" = -o ] && out=$2; shift; done
if [ -n "${MOVE_RUFF:-}" ]; then sed -i "s/^ruff==[^ ]*/ruff==$MOVE_RUFF/" "$out"; fi
UV
chmod +x "$3/bin/pip" "$3/bin/uv"
"""


def test_the_lock_refresh_says_which_version_moved(tmp_path: Path) -> None:
    """A tool update is a reviewed commit: systemd/lock.sh names each version it moved, in the lock it moved in,
    and says so when none did (uv and PyPI are stood in for: the script's own report is what is checked)."""
    repo = tmp_path / "repo"
    for name in ("systemd/lock.sh", "systemd/requirements.lock", "systemd/lgpio.lock", "tests/requirements.lock"):
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_bytes((ROOT / name).read_bytes())
    (repo / "systemd" / "lock.sh").chmod(0o755)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python3").write_text(FAKE_UV_PYTHON)
    (bin_dir / "python3").chmod(0o755)
    old = re.search(r"^ruff==(\S+) ", (ROOT / "tests" / "requirements.lock").read_text(), re.M)
    assert old is not None

    def refresh(**env: str) -> str:
        path = f"{bin_dir}:{os.environ['PATH']}"
        done = subprocess.run([str(repo / "systemd" / "lock.sh")], env={**os.environ, "PATH": path, **env},
                              capture_output=True, text=True, timeout=60, check=True)
        return done.stdout

    assert refresh().splitlines() == ["No version moved."]
    assert refresh(MOVE_RUFF="99.0.0").splitlines() == [
        "tests/requirements.lock:", f"  - ruff=={old[1]}", "  + ruff==99.0.0"]
    assert "ruff==99.0.0 \\" in (repo / "tests" / "requirements.lock").read_text()
