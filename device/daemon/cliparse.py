"""What the `bankleser` command and its `edition` verbs share: the languages and the type of a file name.

A module of its own so that neither command line imports the other. It is imported before the first frame of
`bankleser run`, so it loads nothing but the standard library's cheapest parts (typing and pathlib cost there).
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing's (and pathlib's) import costs before the first frame
if TYPE_CHECKING:
    from pathlib import Path

LANGUAGES = ("de", "en")
"""The languages with a catalogue (:data:`words.LANGUAGES`; here to keep ``words`` out of the parser's imports
— a test checks the two agree)."""


def file_path(text: str) -> Path:
    """argparse's ``type`` for a file name: pathlib is loaded when one is given, not with the parser."""
    from pathlib import Path

    return Path(text)
