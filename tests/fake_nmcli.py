"""A strict stand-in for NetworkManager's ``nmcli``, copied onto PATH as ``nmcli`` by the hotspot tests.

It answers only the forms nmcli(1) documents and refuses the rest as nmcli does (``Error: …`` on
stderr, its exit codes: 2 invalid input, 4 activation failed, 10 not found). Terse output (``-t``)
separates fields with ``:`` and escapes ``:`` and ``\\`` inside values with ``\\``; ``-g`` is terse
with the named fields and no header; several values of one property are joined by `` | ``. Without
``-t``/``-g`` it prints the human table, which a caller must not try to parse.

The network is a JSON file (``FAKE_NMCLI_STATE``): ``devices`` {name: {type, ip4}}, ``active``
[[name, type, device, state], …], ``known_after`` (the number of calls after which the house's Wi-Fi
comes up), ``starts_after`` (the number of calls answered "NetworkManager is not running", exit 8, as
nmcli answers before NetworkManager's daemon has started), ``fail`` (the hotspot's activation fails), ``polkit`` {action: "yes"/"no"/"auth"} (what polkit
answers for the caller, the service's user). Every call's argv is appended to ``FAKE_NMCLI_LOG``.

NetworkManager asks polkit before it adds or activates a connection or shares one over Wi-Fi for a caller
that is not root; this fake is stricter than the real thing: an action polkit is not asked about (no
``polkit`` entry) is refused, and ``auth`` (somebody would have to type a password) is refused too, as
nobody is there to type it for a service.
"""

import json
import os
import sys
import uuid

GLOBAL = {"-t": "terse", "--terse": "terse", "-f": "fields", "--fields": "fields", "-g": "get", "--get-values": "get",
          "-w": "wait", "--wait": "wait", "-e": "escape", "--escape": "escape"}
TAKES_VALUE = {"fields", "get", "wait", "escape"}
CONNECTION_FIELDS = ["NAME", "UUID", "TYPE", "DEVICE", "STATE"]
HOTSPOT_KEYS = {"ifname", "con-name", "ssid", "band", "channel", "password"}
PERMISSIONS = [f"org.freedesktop.NetworkManager.{name}" for name in (
    "checkpoint-rollback", "enable-disable-connectivity-check", "enable-disable-network",
    "enable-disable-statistics", "enable-disable-wifi", "enable-disable-wimax", "enable-disable-wwan",
    "network-control", "reload", "settings.modify.global-dns", "settings.modify.hostname", "settings.modify.own", "settings.modify.system",
    "sleep-wake", "wifi.scan", "wifi.share.open", "wifi.share.protected")]
"""What ``nmcli general permissions`` lists (NetworkManager in Debian trixie, as the boot test saw it)."""
REFUSALS = {  # NetworkManager's words when polkit says no, in the order it asks
    "org.freedesktop.NetworkManager.network-control": "Not authorized to control networking.",
    "org.freedesktop.NetworkManager.settings.modify.system": "Insufficient privileges.",
    "org.freedesktop.NetworkManager.wifi.share.protected": "Not authorized to share connections via wifi.",
}


def fail(message: str, code: int) -> None:
    sys.stderr.write(f"Error: {message}\n")
    sys.exit(code)


def escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace(":", "\\:")


def main() -> None:
    argv = sys.argv[1:]
    with open(os.environ["FAKE_NMCLI_LOG"], "a", encoding="utf-8") as log:
        log.write(json.dumps(argv) + "\n")
    path = os.environ["FAKE_NMCLI_STATE"]
    with open(path, encoding="utf-8") as f:
        net = json.load(f)
    net["calls"] = net.get("calls", 0) + 1
    if net.get("starts_after") is not None and net["calls"] <= net["starts_after"]:
        with open(path, "w", encoding="utf-8") as f:
            json.dump(net, f)
        fail("NetworkManager is not running.", 8)
    if net.get("known_after") is not None and net["calls"] > net["known_after"]:
        net["active"].append(["Zuhause", "802-11-wireless", "wlan0", "activated"])
        net["known_after"] = None

    opts: dict[str, str] = {}
    while argv and argv[0].startswith("-"):
        opt = argv.pop(0)
        if opt not in GLOBAL:
            fail(f"Option '{opt}' is unknown, try 'nmcli help'.", 2)
        name = GLOBAL[opt]
        if name in TAKES_VALUE:
            if not argv:
                fail(f"missing argument for '{opt}' option.", 2)
            opts[name] = argv.pop(0)
        else:
            opts[name] = "yes"
    if "wait" in opts and not opts["wait"].isdigit():
        fail(f"'{opts['wait']}' is not a valid timeout.", 2)
    terse = "terse" in opts or "get" in opts
    wanted = (opts.get("get") or opts.get("fields") or "").split(",") if ("get" in opts or "fields" in opts) else []

    if argv[:3] == ["connection", "show", "--active"] and len(argv) == 3:
        fields = wanted or ["NAME", "UUID", "TYPE", "DEVICE"]
        for field in fields:
            if field not in CONNECTION_FIELDS:
                fail(f"invalid field '{field}'; allowed fields: {','.join(CONNECTION_FIELDS)}", 2)
        rows = [dict(zip(["NAME", "TYPE", "DEVICE", "STATE"], a, strict=True)) | {"UUID": "0" * 8} for a in net["active"]]
        if terse:
            for row in rows:
                print(":".join(escape(row[f]) for f in fields))
        else:
            print("  ".join(f"{f:<20}" for f in fields))
            for row in rows:
                print("  ".join(f"{row[f]:<20}" for f in fields))
    elif argv == ["general", "permissions"]:
        fields = wanted or ["PERMISSION", "VALUE"]
        for field in fields:
            if field not in ("PERMISSION", "VALUE"):
                fail(f"invalid field '{field}'; allowed fields: PERMISSION,VALUE", 2)
        for permission in PERMISSIONS:
            row = {"PERMISSION": permission, "VALUE": net.get("polkit", {}).get(permission, "no")}
            print((":" if terse else "  ").join(row[f] for f in fields))
    elif argv[:2] == ["device", "show"] and len(argv) == 3:
        device = net["devices"].get(argv[2])
        if device is None:
            fail(f"Device '{argv[2]}' not found.", 10)
        if wanted != ["IP4.ADDRESS"] or "get" not in opts:
            fail("this fake answers only 'nmcli -g IP4.ADDRESS device show IFNAME'", 2)
        print(" | ".join(device.get("ip4", [])))
    elif argv[:3] == ["device", "wifi", "hotspot"]:
        rest = argv[3:]
        args: dict[str, str] = {}
        while rest:
            key = rest.pop(0)
            if key not in HOTSPOT_KEYS:
                fail(f"invalid extra argument '{key}'.", 2)
            if not rest:
                fail(f"value for '{key}' is missing.", 2)
            args[key] = rest.pop(0)
        if args.get("band", "bg") not in ("a", "bg"):
            fail(f"band argument value '{args['band']}' is invalid; use 'a' or 'bg'.", 2)
        ifname = args.get("ifname", "wlan0")
        if ifname not in net["devices"]:
            fail(f"Device '{ifname}' not found.", 10)
        if net["devices"][ifname]["type"] != "wifi":
            fail(f"Device '{ifname}' is not a Wi-Fi device.", 10)
        password = args.get("password", "")
        if not (8 <= len(password) <= 63 and password.isascii()):
            fail("Connection activation failed: 802-11-wireless-security.psk: property is invalid", 4)
        for action, refusal in REFUSALS.items():
            if net.get("polkit", {}).get(action) != "yes":
                fail(f"Failed to setup a Wi-Fi hotspot: {refusal}", 4)
        if net.get("fail"):
            fail("Connection activation failed: No suitable device found for this connection.", 4)
        name = args.get("con-name", "Hotspot")
        net["active"] = [a for a in net["active"] if a[2] != ifname] + [[name, "802-11-wireless", ifname, "activated"]]
        net["devices"][ifname]["ip4"] = ["10.42.0.1/24"]
        net["hotspot"] = args
        print(f"Device '{ifname}' successfully activated with '{uuid.uuid4()}'.")
        print('Hint: "nmcli dev wifi show-password" shows the Wi-Fi name and password.')
    else:
        fail(f"argument '{' '.join(argv)}' not understood by this fake; nmcli would say more.", 2)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(net, f)


if __name__ == "__main__":
    main()
