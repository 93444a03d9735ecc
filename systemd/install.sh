#!/usr/bin/env bash
# Install, update or remove Bankleser as a service on Raspberry Pi OS (Bookworm).
#
#   sudo systemd/install.sh                 install or update (idempotent), enable and start
#   sudo systemd/install.sh --uninstall     remove the service and the program, keep the journal and config
#   sudo systemd/install.sh --uninstall --purge   ... and delete the journal, config and user too
#   systemd/install.sh --root DIR           write every file under DIR and only print the system commands
#   systemd/install.sh --dry-run            print what would be done, change nothing
set -euo pipefail

SRC=$(cd "$(dirname "$0")/.." && pwd)
ROOT=""
DRY=0
ACTION=install
PURGE=0
while [ $# -gt 0 ]; do
    case "$1" in
        --root) ROOT=${2%/}; shift 2 ;;
        --dry-run) DRY=1; shift ;;
        --uninstall) ACTION=uninstall; shift ;;
        --purge) PURGE=1; shift ;;
        -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
        *) echo "unknown option: $1" >&2; exit 2 ;;
    esac
done

OPT=$ROOT/opt/bankleser
VENV=/opt/bankleser/venv
UNIT=$ROOT/etc/systemd/system/bankleser.service
CONF_DIR=$ROOT/etc/bankleser
STATE_DIR=$ROOT/var/lib/bankleser

say() { printf '%s\n' "$*"; }
# System commands: run for real only on the real root, never with --root or --dry-run.
sys() {
    say "+ $*"
    if [ "$DRY" = 0 ] && [ -z "$ROOT" ]; then "$@"; fi
}
# File changes: under --root they really happen (that is how the script is tested).
fs() {
    say "+ $*"
    if [ "$DRY" = 0 ]; then "$@"; fi
}

if [ "$DRY" = 0 ] && [ -z "$ROOT" ] && [ "$(id -u)" != 0 ]; then
    echo "Please run as root: sudo $0 $*" >&2
    exit 1
fi

do_install() {
    sys apt-get install -y python3-venv python3-dev sqlite3
    if ! getent passwd bankleser >/dev/null 2>&1 || [ -n "$ROOT" ]; then
        sys adduser --system --group --home /var/lib/bankleser --no-create-home bankleser
    fi
    for group in gpio spi i2c; do
        sys sh -c "getent group $group >/dev/null || groupadd --system $group"
        sys usermod -aG "$group" bankleser
    done
    fs mkdir -p "$OPT" "$CONF_DIR" "$(dirname "$UNIT")"
    # The program: a copy of this checkout and a virtualenv with the Pi's extras.
    fs rm -rf "$OPT/src"
    fs mkdir -p "$OPT/src"
    say "+ copy $SRC to $OPT/src (without .venv, .git, test-artifacts)"
    if [ "$DRY" = 0 ]; then
        tar -C "$SRC" --exclude=./.venv --exclude=./.git --exclude=./test-artifacts --exclude='__pycache__' --exclude='.lgd-nfy*' -cf - . |
            tar -C "$OPT/src" -xf -
    fi
    sys python3 -m venv "$VENV"
    sys "$VENV/bin/pip" install --upgrade "$OPT/src[pi]"
    # The config: written once with comments, never overwritten by an update.
    if [ -e "$CONF_DIR/config.toml" ]; then
        say "= $CONF_DIR/config.toml kept"
    else
        fs install -m 0640 "$SRC/systemd/config.toml" "$CONF_DIR/config.toml"
    fi
    sys chgrp bankleser "$CONF_DIR/config.toml"
    # I²C and SPI.
    if command -v raspi-config >/dev/null 2>&1; then
        sys raspi-config nonint do_i2c 0
        sys raspi-config nonint do_spi 0
    else
        say "! Enable I2C and SPI: add 'dtparam=i2c_arm=on' and 'dtparam=spi=on' to /boot/firmware/config.txt, reboot."
    fi
    if [ "$DRY" = 0 ]; then
        sed "s#@VENV@#$VENV#g" "$SRC/systemd/bankleser.service.in" > "$UNIT.tmp"
        mv "$UNIT.tmp" "$UNIT"
    fi
    say "+ render $UNIT"
    sys systemctl daemon-reload
    sys systemctl enable bankleser.service
    sys systemctl restart bankleser.service
    say "Bankleser installed. Status: systemctl status bankleser; log: journalctl -u bankleser -f"
}

do_uninstall() {
    sys systemctl disable --now bankleser.service
    fs rm -f "$UNIT"
    sys systemctl daemon-reload
    fs rm -rf "$OPT"
    if [ "$PURGE" = 1 ]; then
        fs rm -rf "$STATE_DIR" "$CONF_DIR"
        sys deluser --system bankleser
        say "Bankleser removed with its journal and config."
    else
        say "Bankleser removed; the journal ($STATE_DIR) and config ($CONF_DIR) are kept."
    fi
}

"do_$ACTION"
