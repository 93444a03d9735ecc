#!/bin/sh
# Refresh the lock files: exact versions with the hashes of every file PyPI has for them (one universal
# resolution for every platform and Python 3.11+ a Pi or a developer runs, not this machine's).
#   systemd/requirements.lock   pyproject.toml's dependencies: what the service installs (lgpio apart)
#   systemd/lgpio.lock          lgpio, installed only where no python3-lgpio package exists (install.sh)
#   tests/requirements.lock     the same dependencies with the test extras and the build backend: what
#                               `./dev test` installs, so a tool's new release never reaches a fresh machine
#                               before a reviewed commit brings it
# Run it after changing pyproject.toml's dependencies, or to take newer versions (docs/building.md): it
# prints what moved; run `./dev test`, then commit the three files. uv is fetched into a scratch
# virtualenv; nothing else changes.
set -eu
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 -m venv "$tmp/venv"
"$tmp/venv/bin/pip" install --quiet --disable-pip-version-check uv
pins() {
    # name==version lines of a lock (or nothing for a lock not written yet)
    [ -f "$1" ] && grep -E '^[A-Za-z0-9_.-]+==' "$1" | sed 's/ .*//' | sort || true
}
for lock in systemd/requirements.lock systemd/lgpio.lock tests/requirements.lock; do
    pins "$lock" > "$tmp/$(echo "$lock" | tr / _).before"
done
compile() {
    "$tmp/venv/bin/uv" pip compile --quiet --universal --generate-hashes --python-version 3.11 --no-config \
        --index-url https://pypi.org/simple --custom-compile-command "systemd/lock.sh" "$@"
}
compile pyproject.toml -o systemd/requirements.lock
echo "lgpio>=0.2.2" > "$tmp/lgpio.in"  # pyproject.toml's pi extra
compile "$tmp/lgpio.in" -o systemd/lgpio.lock
sed -i "s#$tmp/lgpio.in#systemd/lock.sh#" systemd/lgpio.lock
# The build backend too: `./dev test` installs Bankleser itself without build isolation, from this lock alone.
echo "setuptools>=68" > "$tmp/build.in"  # pyproject.toml's [build-system] requires
compile pyproject.toml "$tmp/build.in" --extra test -o tests/requirements.lock
sed -i "s#$tmp/build.in#pyproject.toml (build-system)#" tests/requirements.lock
changed=0
for lock in systemd/requirements.lock systemd/lgpio.lock tests/requirements.lock; do
    before="$tmp/$(echo "$lock" | tr / _).before"
    pins "$lock" > "$tmp/after"
    if ! cmp -s "$before" "$tmp/after"; then
        changed=1
        echo "$lock:"
        diff "$before" "$tmp/after" | sed -n 's/^< /  - /p; s/^> /  + /p'
    fi
done
[ "$changed" = 1 ] || echo "No version moved."
