#!/usr/bin/env bash
# Install, update or remove Bankleser as a service on Raspberry Pi OS Bookworm or Trixie, or plain Debian.
# Also in a chroot (an image build, pi-gen): everything but starting the service, which starts at boot.
#
#   sudo systemd/install.sh                 install or update (idempotent), enable and start
#   sudo systemd/install.sh --read-only-root   ... and make the root file system read-only (overlayfs);
#                                           needs /var/lib/bankleser on its own partition (see README)
#   sudo systemd/install.sh --uninstall     remove the service and the program, keep the journal and config
#   sudo systemd/install.sh --uninstall --purge   ... and delete the journal, config and user too
#   systemd/install.sh --root DIR           write every file under DIR and only print the system commands
#   systemd/install.sh --dry-run            print what would be done, change nothing
#
# For the tests: BANKLESER_OS_RELEASE (a file like /etc/os-release), BANKLESER_PYTHON_VERSION ("3.13"),
# BANKLESER_HAS_PYTHON3_LGPIO (1 or 0), BANKLESER_SYSTEMD_BOOTED (1 or 0) and BANKLESER_UDEV_RUNNING (1 or 0)
# stand in for the machine's answers; BANKLESER_RUN_UNDER_ROOT=1 runs the system commands under --root too
# (the tests put fakes on PATH). Debian packages are looked up in the root's own dpkg database.
#
# The runtime's versions are pinned with hashes in systemd/requirements.lock (lgpio in systemd/lgpio.lock;
# refresh both with systemd/lock.sh). Each install builds a new release beside the running one,
# /opt/bankleser/releases/N, and switches /opt/bankleser/current to it only once it is complete and
# imports: a failed update leaves the installed version as it was (venv and src are links into current).
set -euo pipefail

SRC=$(cd "$(dirname "$0")/.." && pwd)
ROOT=""
DRY=0
ACTION=install
PURGE=0
READ_ONLY_ROOT=0
while [ $# -gt 0 ]; do
    case "$1" in
        --root) ROOT=${2%/}; shift 2 ;;
        --dry-run) DRY=1; shift ;;
        --uninstall) ACTION=uninstall; shift ;;
        --purge) PURGE=1; shift ;;
        --read-only-root) READ_ONLY_ROOT=1; shift ;;
        -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
        *) echo "unknown option: $1" >&2; exit 2 ;;
    esac
done

OPT=$ROOT/opt/bankleser
BASE=/opt/bankleser
VENV=$BASE/venv
UNIT=$ROOT/etc/systemd/system/bankleser.service
CONF_DIR=$ROOT/etc/bankleser
STATE_DIR=$ROOT/var/lib/bankleser
UDEV_RULE=$ROOT/etc/udev/rules.d/60-bankleser.rules
POLKIT_RULE=$ROOT/etc/polkit-1/rules.d/60-bankleser.rules
GROUPS_MADE=$CONF_DIR/.groups-made

say() { printf '%s\n' "$*"; }
# System commands: run for real only on the real root, never with --root or --dry-run.
sys() {
    say "+ $*"
    if [ "$DRY" = 0 ] && { [ -z "$ROOT" ] || [ "${BANKLESER_RUN_UNDER_ROOT:-0}" = 1 ]; }; then "$@"; fi
}
# File changes: under --root they really happen (that is how the script is tested).
fs() {
    say "+ $*"
    if [ "$DRY" = 0 ]; then "$@"; fi
}

# systemd runs (as PID 1) only on a booted system: not in a chroot or an image build (sd_booted(3)).
systemd_booted() {
    if [ -n "${BANKLESER_SYSTEMD_BOOTED:-}" ]; then [ "$BANKLESER_SYSTEMD_BOOTED" = 1 ]; return; fi
    [ -d /run/systemd/system ]
}

# udevd answers on its control socket; in a container (systemd-nspawn) or a chroot it does not run.
udev_running() {
    if [ -n "${BANKLESER_UDEV_RUNNING:-}" ]; then [ "$BANKLESER_UDEV_RUNNING" = 1 ]; return; fi
    [ -S /run/udev/control ]
}

if [ "$DRY" = 0 ] && [ -z "$ROOT" ] && [ "$(id -u)" != 0 ]; then
    echo "Please run as root: sudo $0 $*" >&2
    exit 1
fi

# Which system: Raspberry Pi OS Bookworm has Python 3.11, Trixie 3.13. lgpio (gpiozero's pin factory
# on Bookworm and later) has wheels on PyPI up to 3.12 only; Raspberry Pi OS packages it for its own
# Python as python3-lgpio (plain Debian, DietPi, Armbian do not). Wherever that package exists we use
# it, and make the virtualenv with --system-site-packages so it sees it. Elsewhere lgpio comes from
# PyPI (systemd/lgpio.lock): its wheel where there is one, else built from its source release with
# the build tools installed for the build and removed after (never ends at advice).
os_codename() {
    local file=${BANKLESER_OS_RELEASE:-/etc/os-release}
    (
        VERSION_CODENAME=""
        # shellcheck disable=SC1090
        [ -r "$file" ] && . "$file"
        echo "${VERSION_CODENAME:-unknown}"
    )
}
python_version() {
    if [ -n "${BANKLESER_PYTHON_VERSION:-}" ]; then echo "$BANKLESER_PYTHON_VERSION"; return; fi
    python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null || echo none
}
has_python3_lgpio() {
    if [ -n "${BANKLESER_HAS_PYTHON3_LGPIO:-}" ]; then [ "$BANKLESER_HAS_PYTHON3_LGPIO" = 1 ]; return; fi
    [ -z "$(missing_packages python3-lgpio)" ] || apt-cache show python3-lgpio 2>/dev/null | grep -q '^Version:'
}

plan() {
    CODENAME=$(os_codename)
    PYVER=$(python_version)
    case "$PYVER" in
        3.1[1-9]) ;;
        *) echo "Bankleser needs Python 3.11 or newer (Raspberry Pi OS Bookworm or Trixie); this system has $PYVER ($CODENAME)." >&2
           exit 1 ;;
    esac
    # Whether Debian knows python3-lgpio is read from apt's lists: an image without any is updated first.
    if [ -z "${BANKLESER_HAS_PYTHON3_LGPIO:-}" ] && ! compgen -G "$ROOT/var/lib/apt/lists/*_Packages*" >/dev/null; then
        sys apt-get update
        APT_UPDATED=1
    fi
    if has_python3_lgpio; then
        LGPIO=debian
        VENV_ARGS="--system-site-packages"
        say "= system: $CODENAME, Python $PYVER; lgpio: the python3-lgpio package (Raspberry Pi OS), venv with --system-site-packages"
    else
        LGPIO=pypi
        VENV_ARGS=""
        say "= system: $CODENAME, Python $PYVER; lgpio: from PyPI (its wheel, or built from its source release where PyPI has no wheel for this Python), plain venv"
    fi
}

# Debian packages: which of these are not installed (in the root's own dpkg database).
missing_packages() {
    local pkg missing=""
    for pkg in "$@"; do
        if ! dpkg-query --admindir="$ROOT/var/lib/dpkg" -W -f='${Status}' "$pkg" 2>/dev/null | grep -q ' installed$'; then
            missing="$missing $pkg"
        fi
    done
    echo "${missing# }"
}
# Install what is missing; `apt-get update` only then, once a run (5.5 min per image build under emulation).
apt_install() {
    local missing
    missing=$(missing_packages "$@")
    if [ -z "$missing" ]; then
        say "= Debian packages installed already: $*"
        return
    fi
    if [ "$APT_UPDATED" = 0 ]; then sys apt-get update; APT_UPDATED=1; fi
    # shellcheck disable=SC2086
    sys apt-get install -y --no-install-recommends $missing
    APT_INSTALLED=1
}

# The I²C clock: a full 128×64 frame is ~93 ms at the Pi's default 100 kHz, ~24 ms at 400 kHz
# (SSD1306 and SH1106 both allow 400 kHz). Bookworm and later boot from /boot/firmware.
# The first of /boot/firmware/NAME (Bookworm and later) and /boot/NAME that exists, or nothing.
boot_file() {
    for candidate in "$ROOT/boot/firmware/$1" "$ROOT/boot/$1"; do
        if [ -e "$candidate" ]; then echo "$candidate"; return; fi
    done
}

i2c_baudrate() {
    local cfg
    cfg=$(boot_file config.txt)
    if [ -z "$cfg" ]; then
        say "! No config.txt under $ROOT/boot: add 'dtparam=i2c_arm_baudrate=400000' to it by hand, reboot."
        return
    fi
    if grep -qx 'dtparam=i2c_arm_baudrate=400000' "$cfg"; then
        say "= $cfg: I2C at 400 kHz already"
    elif grep -q '^dtparam=i2c_arm_baudrate=' "$cfg"; then
        fs sed -i 's/^dtparam=i2c_arm_baudrate=.*/dtparam=i2c_arm_baudrate=400000/' "$cfg"
        REBOOT=1
    else
        say "+ append dtparam=i2c_arm_baudrate=400000 to $cfg"
        if [ "$DRY" = 0 ]; then printf '%s\n' 'dtparam=i2c_arm_baudrate=400000' >> "$cfg"; fi
        REBOOT=1
    fi
}

# Read-only root: raspi-config's overlayfs keeps / in RAM over a read-only card, so a power cut
# cannot damage the system. The journal must then live on a partition of its own, outside the
# overlay (overlayroot's recurse=0), or every game would vanish at the next boot.
read_only_root() {
    if ! grep -Eq '^[^#]*[[:space:]]/var/lib/bankleser[[:space:]]' "$ROOT/etc/fstab" 2>/dev/null; then
        echo "--read-only-root: /var/lib/bankleser is not a partition of its own in /etc/fstab." >&2
        echo "Without one the journal would live in RAM and be lost at every reboot. See README, 'Power cuts'." >&2
        exit 1
    fi
    sys raspi-config nonint do_overlayfs 0
    local cmdline
    cmdline=$(boot_file cmdline.txt)
    if [ -z "$cmdline" ]; then
        say "! No cmdline.txt under $ROOT/boot: add 'overlayroot=tmpfs:recurse=0' to it by hand."
    elif grep -q 'overlayroot=tmpfs:recurse=0' "$cmdline"; then
        say "= $cmdline: overlayroot leaves the journal partition writable already"
    elif grep -q 'overlayroot=' "$cmdline"; then
        fs sed -i 's/overlayroot=[^ ]*/overlayroot=tmpfs:recurse=0/' "$cmdline"
    else
        fs sed -i '1s/$/ overlayroot=tmpfs:recurse=0/' "$cmdline"
    fi
    REBOOT=1
}

# Device groups: Raspberry Pi OS's udev rules (99-com.rules) give /dev/gpiochip*, spidev* and i2c-*
# to the groups gpio, spi and i2c. Plain Debian has no such rules: the devices stay root-only and the
# service (user bankleser) could open none. There we install a rule of our own.
device_groups() {
    if grep -qs 'gpiochip' "$ROOT/etc/udev/rules.d/99-com.rules" "$ROOT/usr/lib/udev/rules.d/99-com.rules" \
        "$ROOT/lib/udev/rules.d/99-com.rules"; then
        say "= Raspberry Pi OS's udev rules give gpiochip, spidev and i2c their groups"
        return
    fi
    fs mkdir -p "$(dirname "$UDEV_RULE")"
    say "+ write $UDEV_RULE (no Raspberry Pi OS rules here: GPIO, SPI and I2C were root-only)"
    if [ "$DRY" = 0 ]; then
        cat > "$UDEV_RULE" <<'RULES'
# Written by Bankleser's systemd/install.sh: the groups Raspberry Pi OS's 99-com.rules would give.
SUBSYSTEM=="gpio", KERNEL=="gpiochip*", GROUP="gpio", MODE="0660"
SUBSYSTEM=="spidev", KERNEL=="spidev*", GROUP="spi", MODE="0660"
SUBSYSTEM=="i2c-dev", KERNEL=="i2c-[0-9]*", GROUP="i2c", MODE="0660"
RULES
    fi
    if udev_running; then
        sys udevadm control --reload-rules
        sys udevadm trigger --subsystem-match=gpio --subsystem-match=spidev --subsystem-match=i2c-dev
    fi
}

REBOOT=0
APT_UPDATED=0
APT_INSTALLED=0
export DEBIAN_FRONTEND=noninteractive  # apt asks nothing: an image build has nobody to answer

# The new release: src and venv beside the running ones; switched to only when complete.
NEW=""
BUILD_TOOLS=""
BEFORE_BUILD_TOOLS=""
abandon() {
    local rc=$?
    if [ -n "$BUILD_TOOLS" ]; then remove_build_tools || true; fi
    clean_apt || true
    if [ -n "$NEW" ] && [ -e "$ROOT$NEW" ]; then
        rm -rf "$ROOT$NEW"
        echo "! Installing failed (exit $rc): the incomplete release $NEW is removed; the installed version is unchanged." >&2
    fi
    exit "$rc"
}
# Every installed package of the root, one a line: what the build tools brought is what appears between two.
installed_packages() {
    dpkg-query --admindir="$ROOT/var/lib/dpkg" -W -f='${Package} ${Status}\n' 2>/dev/null |
        awk '$NF == "installed" { print $1 }' | sort
}
remove_build_tools() {
    # Exactly what installing them added, by name: `apt-get purge --auto-remove` kept eleven of them
    # (binutils, libjs-*: about 33 MB), which other packages recommend or suggest.
    local added
    added=$(comm -13 <(printf '%s\n' "$BEFORE_BUILD_TOOLS") <(installed_packages) | tr '\n' ' ')
    # shellcheck disable=SC2086
    sys apt-get purge -y ${added:-$BUILD_TOOLS}
    BUILD_TOOLS=""
}
# The downloaded packages (59 MB after a build) are of no use in an image or on a card.
clean_apt() {
    if [ "$APT_INSTALLED" = 1 ]; then sys apt-get clean; fi
}

# lgpio from PyPI: the wheel if PyPI has one for this Python and machine, else its source release
# (PYPI=1: statically linked with the lg library the release carries; SWIG makes the binding).
lgpio_from_pypi() {
    local pip="$NEW/venv/bin/pip" lock="$NEW/src/systemd/lgpio.lock"
    say "+ $pip install --require-hashes --only-binary :all: -r $lock   (its wheel; else built from source, below)"
    if [ "$DRY" = 0 ] && { [ -z "$ROOT" ] || [ "${BANKLESER_RUN_UNDER_ROOT:-0}" = 1 ]; }; then
        # pip says "no wheel" in two ERROR: lines; an image build that scans its log for ERROR would
        # fail a good install. Its words are kept and shown only when the reason is another one.
        local out
        if out=$("$pip" install --require-hashes --only-binary :all: -r "$lock" 2>&1); then
            printf '%s\n' "$out"
            return
        fi
        if ! grep -q 'No matching distribution found' <<<"$out"; then printf '%s\n' "$out" >&2; fi
    fi
    say "= no lgpio wheel for Python $PYVER here: building it from its source release"
    BUILD_TOOLS=$(missing_packages gcc libc6-dev swig python3-dev)
    if [ -n "$BUILD_TOOLS" ]; then
        BEFORE_BUILD_TOOLS=$(installed_packages)
        # shellcheck disable=SC2086
        apt_install $BUILD_TOOLS
    fi
    sys env PYPI=1 "$pip" install --require-hashes --no-binary lgpio -r "$lock"
    if [ -n "$BUILD_TOOLS" ]; then remove_build_tools; fi
}

next_release() {
    local n=0 d
    for d in "$OPT"/releases/*; do
        [ -e "$d" ] || continue
        d=${d##*/}
        case "$d" in *[!0-9]*) continue ;; esac
        [ "$d" -gt "$n" ] && n=$d
    done
    echo $((n + 1))
}

# Switch to the new release: one rename of a symlink (atomic). venv and src point into current.
switch_to() {
    local id=$1
    fs ln -sfn "releases/$id" "$OPT/current.new"
    fs mv -T "$OPT/current.new" "$OPT/current"
    for part in venv src; do
        if [ -L "$OPT/$part" ]; then continue; fi
        if [ -e "$OPT/$part" ]; then
            # An installation from before releases: its folder makes way (once).
            fs mv -T "$OPT/$part" "$OPT/$part.old"
        fi
        fs ln -sfn "current/$part" "$OPT/$part"
        fs rm -rf "$OPT/$part.old"
    done
    # Keep the release switched from (to go back by hand), remove older ones.
    local previous=""
    if [ -L "$OPT/previous" ]; then previous=$(readlink "$OPT/previous"); fi
    if [ -n "${OLD_CURRENT:-}" ] && [ "$OLD_CURRENT" != "releases/$id" ]; then
        fs ln -sfn "$OLD_CURRENT" "$OPT/previous"
        previous=$OLD_CURRENT
    fi
    local d
    for d in "$OPT"/releases/*; do
        [ -e "$d" ] || continue
        case "releases/${d##*/}" in "releases/$id"|"$previous") ;; *) fs rm -rf "$d" ;; esac
    done
}

# The own Wi-Fi: NetworkManager asks polkit before it opens a hotspot for a caller that is not root, and
# Debian's and Raspberry Pi OS's rules allow that only to a local active session, never to a service.
# The rule (systemd/polkit.rules) grants the service's user exactly the hotspot's three actions; polkitd
# evaluates it, and Debian's network-manager only recommends polkitd (plain Debian may lack it).
polkit_packages() {
    if [ -z "$(missing_packages network-manager)" ]; then missing_packages polkitd; fi
}
polkit_rule() {
    fs mkdir -p "$(dirname "$POLKIT_RULE")"
    if cmp -s "$SRC/systemd/polkit.rules" "$POLKIT_RULE"; then
        say "= $POLKIT_RULE lets the service open its own Wi-Fi already"
    else
        fs install -m 0644 "$SRC/systemd/polkit.rules" "$POLKIT_RULE"
    fi
}

do_install() {
    plan
    local polkit
    polkit=$(polkit_packages)
    # shellcheck disable=SC2086
    if [ "$LGPIO" = debian ]; then
        apt_install python3-venv python3-lgpio sqlite3 $polkit
    else
        apt_install python3-venv sqlite3 $polkit
    fi
    if ! getent passwd bankleser >/dev/null 2>&1 || [ -n "$ROOT" ]; then
        sys adduser --system --group --home /var/lib/bankleser --no-create-home bankleser
    fi
    # The device groups Raspberry Pi OS has; plain Debian has none. Those made here are noted, so that
    # --purge removes them again, and never a group the system had before.
    local created=""
    for group in gpio spi i2c; do
        if group_exists "$group"; then
            say "= group $group exists"
        else
            sys groupadd --system "$group"
            created="$created $group"
        fi
        sys usermod -aG "$group" bankleser
    done
    fs mkdir -p "$OPT/releases" "$CONF_DIR" "$(dirname "$UNIT")"
    # The unit's ConfigurationDirectoryMode: systemd warns at every start if the folder differs.
    fs chmod 0750 "$CONF_DIR"
    sys chgrp bankleser "$CONF_DIR"
    if [ -n "$created" ]; then
        say "+ note in $GROUPS_MADE: the groups made here:$created"
        if [ "$DRY" = 0 ]; then printf '%s\n' $created >> "$GROUPS_MADE"; fi
    fi
    # The program: a copy of this checkout and a virtualenv with the runtime's locked versions, as a
    # new release beside the running one.
    OLD_CURRENT=""
    if [ -L "$OPT/current" ]; then OLD_CURRENT=$(readlink "$OPT/current"); fi
    local id
    id=$(next_release)
    NEW=$BASE/releases/$id
    trap abandon EXIT
    say "= building release $id in $NEW"
    fs mkdir -p "$ROOT$NEW/src"
    say "+ copy $SRC to $NEW/src (without .venv, .git, test-artifacts)"
    if [ "$DRY" = 0 ]; then
        tar -C "$SRC" --exclude=./.venv --exclude=./.git --exclude=./test-artifacts --exclude='__pycache__' \
            --exclude='.lgd-nfy*' --exclude=node_modules -cf - . | tar -C "$ROOT$NEW/src" -xf -
    fi
    # shellcheck disable=SC2086
    sys python3 -m venv $VENV_ARGS "$NEW/venv"
    sys "$NEW/venv/bin/pip" install --require-hashes -r "$NEW/src/systemd/requirements.lock"
    if [ "$LGPIO" = pypi ]; then lgpio_from_pypi; fi
    sys "$NEW/venv/bin/pip" install --no-deps "$NEW/src"
    # Complete means it starts: the program imports with all it needs.
    sys "$NEW/venv/bin/python" -c "import device.daemon.cli, gpiozero, lgpio, luma.oled"
    switch_to "$id"
    NEW=""
    trap - EXIT
    clean_apt
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
    i2c_baudrate
    device_groups
    polkit_rule
    if [ "$READ_ONLY_ROOT" = 1 ]; then read_only_root; fi
    if [ "$DRY" = 0 ]; then
        sed "s#@VENV@#$VENV#g" "$SRC/systemd/bankleser.service.in" > "$UNIT.tmp"
        mv "$UNIT.tmp" "$UNIT"
    fi
    say "+ render $UNIT"
    # `systemctl enable` only makes links: it works in a chroot too. Reloading and starting need a
    # running systemd: in a chroot (an image build) the service starts at the first boot instead.
    sys systemctl enable bankleser.service
    if systemd_booted; then
        sys systemctl daemon-reload
        sys systemctl restart bankleser.service
        say "Bankleser installed. Status: systemctl status bankleser; log: journalctl -u bankleser -f"
    else
        say "= systemd is not running (a chroot or an image build): the service starts at the next boot"
        say "Bankleser installed."
    fi
    if [ "$REBOOT" = 1 ]; then say "Reboot once (sudo reboot) for the boot settings to take effect."; fi
}

group_exists() {
    if [ -n "$ROOT" ]; then grep -qs "^$1:" "$ROOT/etc/group"; else getent group "$1" >/dev/null 2>&1; fi
}

user_exists() {
    if [ -n "$ROOT" ]; then grep -qs '^bankleser:' "$ROOT/etc/passwd"; else getent passwd bankleser >/dev/null 2>&1; fi
}

do_uninstall() {
    # Twice is fine: what is gone already is said, not an error, and never printed as a removal.
    if [ -e "$UNIT" ]; then
        if systemd_booted; then
            sys systemctl disable --now bankleser.service
        else
            sys systemctl disable bankleser.service
        fi
        fs rm -f "$UNIT"
        if systemd_booted; then sys systemctl daemon-reload; fi
    else
        say "= bankleser.service is not installed"
    fi
    if [ -e "$UDEV_RULE" ]; then
        fs rm -f "$UDEV_RULE"
        # udev keeps the rules it read, and a reload changes no device: without the trigger
        # /dev/gpiochip0 stays in group gpio until the next boot.
        if udev_running; then
            sys udevadm control --reload-rules
            sys udevadm trigger --subsystem-match=gpio --subsystem-match=spidev --subsystem-match=i2c-dev
        fi
    fi
    if [ -e "$POLKIT_RULE" ]; then fs rm -f "$POLKIT_RULE"; fi
    if [ -e "$OPT" ] || [ -L "$OPT" ]; then fs rm -rf "$OPT"; else say "= $OPT is not there"; fi
    if [ "$PURGE" = 1 ]; then
        local dir group made=""
        if [ -r "$GROUPS_MADE" ]; then made=$(sort -u "$GROUPS_MADE"); fi
        for dir in "$STATE_DIR" "$CONF_DIR"; do
            if [ -e "$dir" ]; then fs rm -rf "$dir"; fi
        done
        if user_exists; then sys deluser --system bankleser; fi
        for group in $made; do
            # Under --root the groups are only printed, never made: the note is what counts there.
            if [ -n "$ROOT" ] || group_exists "$group"; then sys groupdel "$group"; fi
        done
        say "Bankleser removed with its journal and config."
    else
        say "Bankleser removed; the journal ($STATE_DIR) and config ($CONF_DIR) are kept."
    fi
}

"do_$ACTION"
