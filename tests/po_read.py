"""The catalogues' messages read as plain strings. Babel types a message's id and text as a string or the
sequence of its plural forms (``str | tuple | list``, the text also ``None``), and typeshed leaves out the plural
rule gettext sets on a compiled catalogue: the tests read both through here, so each reading is typed once."""

from __future__ import annotations

import gettext
from collections.abc import Callable

from babel.messages.catalog import Message


def message_key(message: Message) -> str:
    """The message's key: its msgid (the singular one of a message with plural forms)."""
    return message.id if isinstance(message.id, str) else message.id[0]


def message_forms(message: Message) -> tuple[str, ...]:
    """Each form of the message's text (one for a message without plural forms); "" for one not translated."""
    text = message.string
    if text is None or isinstance(text, str):
        return (text or "",)
    return tuple(text)


def plural_rule(catalogue: gettext.GNUTranslations) -> Callable[[int], int]:
    """The catalogue's plural rule: the index of the form its language says for a count."""
    rule: Callable[[int], int] = catalogue.plural  # type: ignore[attr-defined]  # set from Plural-Forms by GNUTranslations._parse; typeshed omits it
    return rule
