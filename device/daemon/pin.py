"""The banker PIN, stored only as a salted PBKDF2 hash."""

from __future__ import annotations

ROUNDS = 200_000


def hash_pin(pin: str) -> str:
    import hashlib  # hashlib, hmac and secrets load OpenSSL: when a PIN is first set or checked, not before READY
    import secrets

    salt = secrets.token_hex(16)
    digest = hashlib.pbkdf2_hmac("sha256", pin.encode(), bytes.fromhex(salt), ROUNDS).hex()
    return f"pbkdf2${ROUNDS}${salt}${digest}"


def check_pin(pin: str, stored: str) -> bool:
    import hashlib
    import hmac

    try:
        _, rounds, salt, digest = stored.split("$")
        candidate = hashlib.pbkdf2_hmac("sha256", pin.encode(), bytes.fromhex(salt), int(rounds)).hex()
    except ValueError:
        return False
    return hmac.compare_digest(candidate, digest)


def valid_pin(pin: str) -> bool:
    """4 to 8 digits: typed on the keypad, remembered at the table."""
    return pin.isdigit() and 4 <= len(pin) <= 8


CODE_DIGITS = 6
"""The one-time code's length: a million codes against the login's five tries per five minutes."""


def new_code() -> str:
    """A one-time code for the phone's first login, from the system's randomness (not guessable from the last one).

    ``random.SystemRandom`` is what ``secrets.randbelow`` draws from (``os.urandom``); ``secrets`` itself imports
    ``hmac`` and with it OpenSSL, which the code shown before READY does not need."""
    import random

    return f"{random.SystemRandom().randrange(10**CODE_DIGITS):0{CODE_DIGITS}d}"
