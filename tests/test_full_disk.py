"""A full SD card, for real: a 1 MB tmpfs mounted in a private mount namespace (no root needed).

a restart on a full card said "Journal nicht lesbar"; booking stayed refused after
space came back until a restart; card registration gave a 500.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = r'''
import json, os, subprocess, sys
from pathlib import Path
mnt = Path(sys.argv[1])
subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mnt)], check=True)
from device.store.journal import Journal, JournalError
from device.store.ledger import Ledger
out = {}
NEW = {"op": "new_game", "edition": "classic", "mode": "standard", "players": ["Anna", "Ben"]}
path = mnt / "state" / "journal.sqlite3"
ledger = Ledger(Journal(path))
assert ledger.submit(NEW).ok

def fill():
    fd = os.open(mnt / "filler", os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    try:
        for size in (65536, 4096, 512, 1):
            try:
                while True:
                    os.write(fd, b"\0" * size)
            except OSError:
                pass
    finally:
        os.close(fd)

def credit(i):
    return {"op": "credit", "player": "Anna", "amount": 1, "id": f"c{i}"}

fill()
results = [ledger.submit(credit(i)) for i in range(50)]
refused = [r for r in results if not r.ok]
out["refused_message"] = refused[0].message if refused else None
out["problem_while_full"] = ledger.problem
try:
    ledger.journal.set_setting("name:0a000009", "Oma")
    out["setting_while_full"] = "ok"
except JournalError as err:
    out["setting_while_full"] = err.message
os.unlink(mnt / "filler")
after = ledger.submit(credit(1000))
out["after_space_returns"] = after.ok
out["problem_after"] = ledger.problem
cash = ledger.game.state.players["Anna"].cash
ledger.journal.close()
out["cash_matches_journal"] = Ledger(Journal(path)).game.state.players["Anna"].cash == cash
# A restart on a full card: the true cause, and a journal that opens once space is back.
fill()
for p in path.parent.iterdir():
    if p.name.endswith("-wal") or p.name.endswith("-shm"):
        p.unlink()  # a clean shutdown merged them; opening must create them again
try:
    led = Ledger(Journal(path))
    out["restart_while_full"] = led.submit(credit(2000)).message
    out["restart_recoverable"] = True
    led.journal.close()
except JournalError as err:
    out["restart_while_full"] = err.message
    out["restart_recoverable"] = err.recoverable
os.unlink(mnt / "filler")
j = Journal(path)
out["restart_after_space"] = len(j)
print(json.dumps(out))
'''


def run_on_a_full_card(tmp_path: Path) -> dict[str, object]:
    if shutil.which("unshare") is None:
        pytest.fail("util-linux's unshare is needed for the full-disk test")
    mnt = tmp_path / "card"
    mnt.mkdir()
    proc = subprocess.run(["unshare", "--user", "--map-root-user", "--mount", sys.executable, "-c", SCRIPT, str(mnt)],
                          capture_output=True, text=True, cwd=Path(__file__).parent.parent, timeout=60)
    assert proc.returncode == 0, proc.stderr
    result: dict[str, object] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def test_a_full_card_is_named_as_such_and_booking_resumes_when_space_returns(tmp_path: Path) -> None:
    out = run_on_a_full_card(tmp_path)
    assert out["refused_message"] == "Speicher voll: nicht gebucht"
    assert out["problem_while_full"] == "Speicher voll"
    assert out["setting_while_full"] in ("ok", "Speicher voll")  # a small row may still fit a free page
    assert out["after_space_returns"] is True and out["problem_after"] is None
    assert out["cash_matches_journal"] is True


def test_a_restart_on_a_full_card_says_full_and_opens_once_space_returns(tmp_path: Path) -> None:
    out = run_on_a_full_card(tmp_path)
    # Either the journal still opens (and the first booking says the card is full) or the start says so.
    assert out["restart_while_full"] in ("Speicher voll", "Speicher voll: nicht gebucht")
    assert out["restart_recoverable"] is True
    assert isinstance(out["restart_after_space"], int) and out["restart_after_space"] > 1
