"""Power cuts on the first start and on cards that garble the sector being written.

The garbled-sector model is stricter than the cards it stands for: at each cut, the whole 512-byte
sector the interrupted write began in is replaced by random bytes (also the bytes of it that held
acknowledged data before), and nothing the write reached after it survives. SQLite's own crash
tests model cheap cards the same way (``crash.test``'s "sector size" and "damage whole sector").
"""

from __future__ import annotations

import logging
import os
import random
import struct
import zlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from profiles import examples

import device.store.journal as journal_module
from cuts import cut_while_creating
from device.store.head import SECTOR, Head, HeadFile
from device.store.journal import Journal, JournalError

NEW = {"op": "new_game", "edition": "classic", "mode": "standard", "players": ["Anna", "Ben"]}
COMMITS = 24


def credit(n: int) -> dict[str, object]:
    return {"op": "credit", "player": "Anna", "amount": 10 + n, "id": f"c{n}"}


def garble(data: bytes, at: int, rng: random.Random) -> bytes:
    """``data`` with the 512-byte sector holding byte ``at`` replaced by noise, cut after that sector."""
    first = at // SECTOR * SECTOR
    return data[:first] + rng.randbytes(SECTOR)


def lost_acknowledged(tmp_path: Path) -> int:
    """Write commits one by one; after each, cut the next one in the model. How many images lost one."""
    path = tmp_path / "live" / "journal.sqlite3"
    journal = Journal(path)
    rng = random.Random(20)
    losses = 0
    for n in range(COMMITS):
        wal, db, head = (Path(f"{path}{s}").read_bytes() if Path(f"{path}{s}").exists() else b""
                         for s in ("-wal", "", ".head"))
        acknowledged = journal.last_seq
        journal.append(NEW if n == 0 else credit(n))
        image = tmp_path / f"cut{n}" / "journal.sqlite3"
        image.parent.mkdir()
        image.write_bytes(db)
        Path(f"{image}.head").write_bytes(head)
        if wal:
            assert Path(f"{path}-wal").read_bytes().startswith(wal)  # the commit only appended
            Path(f"{image}-wal").write_bytes(garble(wal, len(wal), rng))
        try:
            after = Journal(image)
        except JournalError:
            losses += 1
            continue
        kept = [r.seq for r in after.records()]
        after.close()
        losses += kept[:acknowledged] != list(range(1, acknowledged + 1))
    journal.close()
    return losses


def test_a_garbled_sector_on_a_power_cut_loses_no_acknowledged_command(tmp_path: Path) -> None:
    """A WAL frame is 4,120 bytes, so the first sector of a commit held the tail of the last
    acknowledged frame; psow=0 pads every commit to a sector boundary and nothing is lost."""
    assert lost_acknowledged(tmp_path) == 0


def test_without_psow_0_the_model_loses_acknowledged_commands(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The model has teeth: with SQLite's default (powersafe overwrite assumed) it loses commands."""
    plain = journal_module.uri
    monkeypatch.setattr(journal_module, "uri", lambda path, **p: plain(path, **p).replace("psow=0", "psow=1"))
    assert lost_acknowledged(tmp_path) > COMMITS // 2


def test_the_journal_is_opened_with_psow_0(tmp_path: Path) -> None:
    assert "psow=0" in journal_module.uri(tmp_path / "a b?#.sqlite3")
    assert "%3F%23" in journal_module.uri(tmp_path / "a b?#.sqlite3")  # a folder's ? or # is no query


def test_the_head_slots_sit_in_different_sectors(tmp_path: Path) -> None:
    """A garbled sector spoils one slot: the other still names the commit before."""
    rng = random.Random(7)
    head = HeadFile(tmp_path / "j.head")
    for seq in range(1, 9):
        head.write(Head(seq, f"{seq:032x}"))
        before = head.path.read_bytes()
        data = bytearray(before.ljust(2 * SECTOR, b"\0"))
        spot = ((seq + 1) % 2) * SECTOR  # where the next write goes
        data[spot:spot + SECTOR] = rng.randbytes(SECTOR)
        head.path.write_bytes(bytes(data))
        assert HeadFile(head.path).read() == Head(seq, f"{seq:032x}")
        head.path.write_bytes(before)
    head.close()


def old_slot(seq: int) -> bytes:
    body = struct.pack("<4sQ32s", b"BLH1", seq, f"{seq:032x}".encode())
    return (body + struct.pack("<I", zlib.crc32(body))).ljust(64, b"\0")


def test_head_files_with_both_slots_in_one_sector_are_still_read(tmp_path: Path) -> None:
    path = tmp_path / "j.head"
    path.write_bytes(old_slot(6) + old_slot(7))  # the layout before: slots at bytes 0 and 64
    assert HeadFile(path).read() == Head(7, f"{7:032x}")
    head = HeadFile(path)
    head.write(Head(8, f"{8:032x}"))
    head.close()
    assert HeadFile(path).read() == Head(8, f"{8:032x}")
    head = HeadFile(path)
    head.write(Head(9, f"{9:032x}"))
    head.close()
    assert HeadFile(path).read() == Head(9, f"{9:032x}")


def test_a_cut_while_the_first_journal_is_created_is_recovered_once(tmp_path: Path,
                                                                    caplog: pytest.LogCaptureFixture) -> None:
    """"Journal beschädigt: … attempt to write a readonly database", forever. Nothing was ever
    acknowledged, so nothing is lost: the old files go aside, said once in the log, and booking starts."""
    path = cut_while_creating(tmp_path / "journal.sqlite3")
    original = {s: Path(f"{path}{s}").read_bytes() for s in ("", "-journal")}
    with caplog.at_level(logging.WARNING):
        journal = Journal(path)
    journal.append(NEW)
    journal.close()
    said = [r.getMessage() for r in caplog.records if "beiseite" in r.getMessage()]
    assert len(said) == 1 and "ohne bestätigte Buchung" in said[0]
    aside = next(tmp_path.glob("journal.sqlite3.beiseite-*"))
    assert {s: (aside / f"journal.sqlite3{s}").read_bytes() for s in ("", "-journal")} == original
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        assert [r.cmd for r in Journal(path).records()] == [NEW]
    assert not caplog.records


def test_a_cut_on_the_first_start_keeps_what_was_written_before_it(tmp_path: Path) -> None:
    path = cut_while_creating(tmp_path / "journal.sqlite3", settings={"banker_pin": "abc"})
    journal = Journal(path)
    assert journal.setting("banker_pin") == "abc" and journal.last_seq == 0


def test_a_leftover_rollback_journal_beside_acknowledged_commands_is_never_touched(tmp_path: Path) -> None:
    path = cut_while_creating(tmp_path / "journal.sqlite3")
    head = HeadFile(Path(f"{path}.head"))
    head.write(Head(3, "f" * 32))
    head.close()
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    with pytest.raises(JournalError):
        Journal(path)
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()} == before
    assert not list(tmp_path.glob("*beiseite*"))


def test_a_spoilt_head_is_not_taken_for_a_journal_that_acknowledged_nothing(tmp_path: Path) -> None:
    path = cut_while_creating(tmp_path / "journal.sqlite3")
    Path(f"{path}.head").write_bytes(os.urandom(1024))
    with pytest.raises(JournalError):
        Journal(path)


@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sizes=st.lists(st.integers(10, 9000), min_size=2, max_size=12), cut=st.floats(0.0, 1.0), seed=st.integers())
@example(sizes=[10, 10], cut=0.0, seed=0)  # what it shrank to without psow=0: the first sector of a small commit
def test_a_cut_anywhere_in_a_commit_with_its_sector_garbled_keeps_every_acknowledged_command(
        tmp_path_factory: pytest.TempPathFactory, sizes: list[int], cut: float, seed: int) -> None:
    """The property behind the test above, over commits of every size (one row can span WAL frames) and a
    cut anywhere in the last one: the bytes before the cut reached the card, the sector holding the cut is
    noise, nothing after it. Every command acknowledged before that commit is still there."""
    tmp = tmp_path_factory.mktemp("cut")
    path = tmp / "live" / "journal.sqlite3"
    journal = Journal(path)
    journal.append(NEW)
    for n, size in enumerate(sizes[:-1]):
        journal.append({"op": "credit", "player": "Anna", "amount": 10, "id": f"c{n}-" + "x" * size})
    acknowledged = journal.last_seq
    wal, db, head = (Path(f"{path}{s}").read_bytes() for s in ("-wal", "", ".head"))
    journal.append({"op": "credit", "player": "Anna", "amount": 10, "id": "last-" + "y" * sizes[-1]})
    after = Path(f"{path}-wal").read_bytes()
    journal.close()
    assert after.startswith(wal)
    at = len(wal) + int(cut * (len(after) - len(wal)))
    image = tmp / "image" / "journal.sqlite3"
    image.parent.mkdir()
    image.write_bytes(db)
    Path(f"{image}.head").write_bytes(head)
    Path(f"{image}-wal").write_bytes(garble(after, at, random.Random(seed)))
    kept = [r.seq for r in Journal(image).records()]
    assert kept[:acknowledged] == list(range(1, acknowledged + 1))


def test_the_appliance_comes_up_after_a_cut_on_its_first_start(tmp_path: Path) -> None:
    """It said "Journal beschädigt: … attempt to write a readonly database", forever."""
    from bench.liveserver import LiveServer

    state = tmp_path / "state"
    state.mkdir()
    cut_while_creating(state / "journal.sqlite3")
    server = LiveServer(state).start()
    try:
        assert server.get("/api/state")["problem"] is None
        server.login()
        status, _ = server.post("/api/commands", NEW)
        assert status == 200
    finally:
        server.stop()
