"""What a booking does, as a short digest: the contract between a confirmation and the booking it confirms.

A surface shows the rules' preview (the text, the note, who pays whom how much) and books the command with
this digest as ``expect``. Should the rules now book something else (a house built meanwhile doubles the
rent, a deed mortgaged meanwhile adds the 10 %), the digest differs and the booking is refused ``changed``:
the banker confirms what they saw or nothing. Computed from the phrases' keys and values (never their
words), so a phone in English and the device in German agree on it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from .phrase import Phrase, to_data
from .state import Transfer


def effect_digest(said: Phrase, note: Phrase | None, transfers: Iterable[Transfer]) -> str:
    """A digest of what a preview showed: its phrase and note, and every transfer (payer, payee, amount, why)."""
    import hashlib  # OpenSSL loads when a preview is first confirmed, not before READY

    data = [to_data(said), None if note is None else to_data(note),
            [[t.payer, t.payee, t.amount, to_data(t.reason)] for t in transfers]]
    return hashlib.sha256(json.dumps(data, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:16]
