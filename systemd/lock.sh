#!/bin/sh
# Refresh the installer's lock files: the runtime's exact versions, with the hashes of every file PyPI
# has for them (every platform and Python a Pi runs: one universal resolution, not this machine's).
#   systemd/requirements.lock   pyproject.toml's dependencies (lgpio apart: see install.sh)
#   systemd/lgpio.lock          lgpio, installed only where no python3-lgpio package exists
# Run it after changing pyproject.toml's dependencies, or to take newer versions; commit both files.
# uv is fetched into a scratch virtualenv; nothing else changes.
set -eu
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 -m venv "$tmp/venv"
"$tmp/venv/bin/pip" install --quiet uv
compile() {
    "$tmp/venv/bin/uv" pip compile --universal --generate-hashes --python-version 3.11 --no-config \
        --index-url https://pypi.org/simple --custom-compile-command "systemd/lock.sh" "$@"
}
compile pyproject.toml -o systemd/requirements.lock
echo "lgpio>=0.2.2" > "$tmp/lgpio.in"  # pyproject.toml's pi extra
compile "$tmp/lgpio.in" -o systemd/lgpio.lock
sed -i "s#$tmp/lgpio.in#systemd/lock.sh#" systemd/lgpio.lock
