"""Every edition file of a fixed corpus (tests/edition_corpus.py: the shipped boards, whole boards, families'
files and journals' data, mutated by a seeded random walk, and one file a refusal of each kind) is accepted or
refused as the checker did when the corpus was recorded: the same problems and warnings, each with its line, its
key and its phrase's key and values, and for a good file the same edition, data and written file. A family who
read a message once reads it again for the same mistake."""

from __future__ import annotations

import json

from edition_corpus import GOLDEN, corpus, summary


def test_the_checker_says_of_every_file_what_it_said_when_the_corpus_was_recorded() -> None:
    kept = json.loads(GOLDEN.read_text(encoding="utf-8"))
    now = {name: summary(said) for name, said in corpus()}
    assert list(now) == list(kept), "the corpus itself changed: record it again only on purpose"
    changed = {name: (kept[name], now[name]) for name in kept if now[name] != kept[name]}
    assert not changed, f"{len(changed)} of {len(kept)} files are said otherwise (kept, now): " + \
        json.dumps(dict(list(changed.items())[:8]), ensure_ascii=False, indent=1)


def test_the_corpus_holds_good_files_refusals_and_warnings() -> None:
    kept = json.loads(GOLDEN.read_text(encoding="utf-8"))
    accepted = [name for name, (_, ok, *_) in kept.items() if ok]
    keys = {key for _, _, *said in kept.values() for key in said}
    assert len(kept) > 3000 and 300 < len(accepted) < len(kept) - 2000
    assert {"editions.warning.differs", "editions.warning.differs_scaled", "editions.problem.toml",
            "editions.problem.key_form", "editions.problem.board_later", "editions.problem.short_twice"} <= keys
