"""The language in force, kept in the journal: a fresh state directory takes ``--language``, else ``language``
under ``[ui]`` in config.toml, else German; from then on the journal's setting holds across restarts, until
the banker chooses another (:func:`choose`, the admin page's seam: it takes effect at once, as every text is
rendered when it is shown)."""

from __future__ import annotations

import logging
from typing import Protocol

import words

log = logging.getLogger(__name__)

KEY = "language"
"""The journal's setting (beside the banker PIN's)."""


class Settings(Protocol):
    """What this needs of :class:`device.store.journal.Journal`."""

    def setting(self, key: str, default: str | None = None) -> str | None: ...

    def set_setting(self, key: str, value: str) -> None: ...


def in_force(journal: Settings, asked: str = "", *, flag: str = "") -> str:
    """The journal's language; for a journal without one, ``asked`` (the flag, else the config), else German,
    written down so the next start keeps it. An explicit ``flag`` (``--language``) wins over the journal's: a
    person who asks for a language on the command line means it; the log says which it replaced."""
    stored = journal.setting(KEY)
    if flag in words.LANGUAGES and stored in words.LANGUAGES and flag != stored:
        journal.set_setting(KEY, flag)
        log.info("%s", words.text("service.log.language_flag", language=flag, stored=stored))
        return flag
    if stored in words.LANGUAGES:
        return stored
    chosen = asked if asked in words.LANGUAGES else words.DEFAULT
    journal.set_setting(KEY, chosen)
    return chosen


def choose(journal: Settings, code: str) -> None:
    """Make ``code`` the language from now on and across restarts (ValueError when it has no catalogue)."""
    words.use(code)
    journal.set_setting(KEY, code)
