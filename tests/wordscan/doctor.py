"""The first surface: the doctor, the parts' causes and fixes, the config errors."""

MODULES = ("drivers/hints.py", "drivers/tables.py", "device/daemon/doctor.py", "device/daemon/parts.py",
             "device/daemon/config.py")

ALLOWED = {
    # commands, paths, units and the tools' own words the doctor runs or parses (never shown as prose)
    "systemctl", "show", "--property=ActiveState,SubState,WatchdogUSec,NRestarts", "ActiveState", "SubState",
    "WatchdogUSec", "NRestarts", "infinity", "timedatectl", "--property=NTPSynchronized", "--value", "yes",
    "bankleser.service", "bankleser", "journal.sqlite3", "gpiochip0", "gpiochip*", "i2c-", "spidev", "gpio", "spi",
    "i2c", "sim", "check_", "name", "ok", "detail", "fix", "hint", "utf-8", "replace", "/dev", "/var/lib/bankleser",
    "/run/systemd/timesync/synchronized", "/proc/device-tree/system/linux,revision", "/proc/device-tree/model",
    "/sys/firmware/devicetree/base/model", "/proc/", "filename", "PinUnknownPi", "unable to locate Pi revision",
    "GPIOPinInUse", "not found on address", "not found", "permission", "in use", "VersionReg", "VersionReg 0x00",
    "VersionReg 0xFF", "SPI", "root", "true", "false", "STATE_DIRECTORY", "XDG_DATA_HOME", ".local", "share",
    "BANKLESER_BANKER_PIN", "localhost", "web", "ui", "banker", "hotspot", "hardware", "__name__", "description",
    "ssid", "language", "Bankleser", "lgpio", "Watchdog", "WatchdogSec ", "Journal", "Display", "MFRC522",
    "sudo systemd/install.sh", "sudo systemctl start bankleser; journalctl -u bankleser -b", "sudo usermod -aG ",
    "i2cdetect -y ", "`i2cdetect -y ", "high", "[web]", "[banker]", "[ui]", "[hotspot]", "host = ", " in [web]",
    "[web] host = ", "[banker] pin = ", "[ui] language = ", "[ui] keys_language = ", "I²C", "I²C-", "SPI0", "SPI1", "0x", "/dev/i2c-",
    "T", "active", "wlan0", "--host", "BANKLESER_BANKER_PIN: ",
    "nmcli", "--terse", "--fields", "PERMISSION,VALUE", "general", "permissions", "runuser", "-u",
    "org.freedesktop.NetworkManager.", "--property=NTPSynchronized,CanNTP", "NTPSynchronized", "CanNTP",
    "sudo systemctl start NetworkManager", "127.0.0.1", "GET", "/api/state", "HTTP ", "journalctl -u bankleser -b",
}
"""Constants with letters in these modules that no person reads as a sentence of ours."""
