"""The pages speak from the catalogue, in the appliance's language unless a phone chose its own.

Jinja's own i18n extension is bound to :mod:`words`: ``{{ _("pages.status.title") }}`` in a template is
:func:`words.text` in the language in force, ``{{ ngettext("pages.x", n) }}`` :func:`words.plural`. No
Flask-Babel: it would load the same ``.mo`` files a second time through Babel (its imports and pytz cost
~10 ms here, ≈ 0.15 s at a Pi core's pace, beside the web's start), and keep a locale of its own beside
``words.language()``; the extension is part of Jinja (~1 ms) and reads what :mod:`words` already holds.

Which language a page is in: a phone whose browser asks for another language we have than the appliance's
(``Accept-Language``, "en-GB" is English) reads every page in it from its first load, kept as that phone's
choice (a cookie, :data:`COOKIE`, never the appliance's), with a link back to the appliance's language. Every
other phone follows the appliance's (the banker's choice on /admin shows on every phone at once, as on the
OLED): its first answer says so in the cookie (:data:`FOLLOW`), so the browser's language is asked once, and a
phone that follows the box keeps following it when the banker switches.
Each request speaks its page's language through :func:`words.speaking` (a context variable), so one phone's
English never reaches another's page or the OLED.

The script's texts come from the page too: :func:`script_words` renders the messages ``app.js`` needs (the
``JS_KEYS``) into a ``<script type="application/json">`` block, in the page's language.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any
from urllib.parse import quote

from flask import Blueprint, Flask, redirect, request
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import dump_cookie, parse_accept_header
from werkzeug.sansio.http import parse_cookie
from werkzeug.wrappers import Response

import words

from .auth import public

COOKIE = "bank_lang"
"""A phone's own language for the pages (absent: the appliance's)."""
COOKIE_DAYS = 365
FOLLOW = "box"
"""The cookie of a phone that follows the appliance's language (its browser's was asked once, at its first page)."""
JS_KEYS = (
    "pages.js.offline", "pages.js.no_game", "pages.js.no_game_hint", "pages.js.no_game_link", "pages.js.title",
    "pages.js.attention",
    "pages.js.house_rules", "pages.js.pot", "pages.js.tie", "pages.js.wins", "pages.js.nobody",
    "pages.js.rank", "pages.js.player", "pages.js.worth", "pages.js.cash", "pages.js.bankrupt_tag",
    "pages.js.bankrupt", "pages.js.score", "pages.js.card_number", "pages.js.worth_of", "pages.js.jail_cards",
    "pages.js.debt", "pages.js.mortgaged", "pages.js.left", "pages.js.duplicate",
    "pages.js.again", "pages.js.again_ask", "pages.js.again_yes", "pages.js.changed", "pages.js.sending",
    "pages.js.booked", "pages.js.refused", "pages.js.card", "pages.js.name",
    "pages.js.rename", "pages.js.rename_label", "pages.js.name_saved", "pages.js.players_legend",
    "pages.js.unit_label", "pages.js.amount_example", "pages.js.next", "pages.js.book", "pages.js.cancel",
    "pages.js.nothing_to_book", "pages.js.logged_out", "pages.js.report_clock", "pages.js.nothing_to_undo",
    "pages.js.undo_of", "pages.js.bad_json", "pages.js.deal_form", "pages.js.replace_game",
    "pages.js.done", "pages.js.card_learned", "pages.js.tone", "pages.js.led_on", "pages.js.led_off",
    "pages.js.tone.refused", "pages.js.tone.done", "pages.js.tone.card", "pages.js.tone.new_game",
    "pages.js.tone.end", "pages.js.tone.key", "pages.js.language_saved", "pages.js.speed_die",
    "list.separator", "list.last", "number.decimal", "number.group", "reports.money.symbol", "reports.money.word",
)
"""The messages the script shows (app.js asks for them by key; a test holds the two lists together)."""
STATUS_KEYS = ("pages.mode.standard", "pages.mode.quick", "pages.mode.timed", "pages.house_rule.free_parking_pot",
               "pages.house_rule.double_go", "pages.house_rule.no_auctions")
"""What only the status page's script says, by the state's codes: given to that page alone (no other page carries
a house rule's code in its words)."""


def cookies_of(header: bytes) -> Mapping[str, str]:
    """The cookies of a raw ``Cookie`` header. Bytes that are no UTF-8 are replaced, never raised: a stale cookie
    another app left on the same address answered 500 on every page, since werkzeug's ``parse_cookie`` of a WSGI
    environ decodes strictly (its request's own ``cookies`` replace them, as here)."""
    return parse_cookie(header.decode("utf-8", "replace"))


def pinned(cookies: Mapping[str, str]) -> str | None:
    """The language a phone chose for itself, if it is one we have."""
    code = cookies.get(COOKIE, "")
    return code if code in words.LANGUAGES else None


def page_language(cookies: Mapping[str, str], accept_language: str = "") -> str:
    """The phone's own choice; for a phone's first page (no cookie yet) the language its browser asks for, one we
    have; else the appliance's."""
    first = asked_for(accept_language) if COOKIE not in cookies else None
    return pinned(cookies) or first or words.appliance_language()


def first_choice(cookies: Mapping[str, str], accept_language: str) -> str | None:
    """What a phone's first answer keeps in its cookie: the browser's language where it is another than the
    appliance's, else :data:`FOLLOW`; None for a phone that has its cookie."""
    if COOKIE in cookies:
        return None
    code = page_language(cookies, accept_language)
    return code if code != words.appliance_language() else FOLLOW


def asked_for(accept_language: str) -> str | None:
    """The language we have that the browser wants most (``Accept-Language``), if any."""
    best = parse_accept_header(accept_language, LanguageAccept).best_match(words.LANGUAGES)  # "en-GB" is "en"
    return best if best in words.LANGUAGES else None


def offer(cookies: Mapping[str, str], accept_language: str) -> str | None:
    """The one language a page offers to switch to: the way back to the appliance's, for a page read in another
    (pinned, or the browser's own)."""
    appliance = words.appliance_language()
    return appliance if page_language(cookies, accept_language) != appliance else None


def in_language(code: str, key: str, /, **values: object) -> str:
    """``key`` said in ``code`` (a language's own name, the offer to read a page in it)."""
    with words.speaking(code):
        return words.text(key, **values)


def languages() -> list[tuple[str, str]]:
    """Each language we have, by its code and its own name ("Deutsch", "English")."""
    return [(code, in_language(code, "pages.language.name")) for code in words.LANGUAGES]


def script_words(keys: Iterable[str] = JS_KEYS) -> dict[str, str]:
    """The script's messages in the language in force, unformatted: the script fills their ``{values}``."""
    table = words.catalogue(words.language())
    return {key: table.gettext(key) for key in keys}


def speaking_app(app: Flask) -> None:
    """Install the catalogue in ``app``'s templates, and make every request speak its page's language."""
    app.jinja_env.add_extension("jinja2.ext.i18n")
    # The extension adds this method; the callables are words' own (their values by name, str.format).
    app.jinja_env.install_gettext_callables(gettext=words.text, ngettext=words.plural,  # type: ignore[attr-defined]
                                            newstyle=False)
    inner: Callable[..., Any] = app.wsgi_app

    def wsgi_app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        header = environ.get("HTTP_COOKIE", "").encode("latin-1", "replace")  # WSGI's str: the header's bytes
        cookies, accept = cookies_of(header), environ.get("HTTP_ACCEPT_LANGUAGE", "")
        kept = first_choice(cookies, accept)
        answer = start_response
        if kept is not None:
            cookie = dump_cookie(COOKIE, kept, max_age=COOKIE_DAYS * 86400, samesite="Lax", httponly=True)

            def answer(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
                return start_response(status, [*headers, ("Set-Cookie", cookie)], exc_info)
        # Entered and left in the same call (and thread): a stream's body is the appliance's words.
        with words.speaking(page_language(cookies, accept)):
            return inner(environ, answer)

    app.wsgi_app = wsgi_app  # type: ignore[method-assign]

    @app.context_processor
    def page_words() -> dict[str, Any]:
        cookies = request.cookies.to_dict()
        other = offer(cookies, request.headers.get("Accept-Language", ""))
        here = request.full_path.rstrip("?") if request.full_path else "/"
        return {
            "lang": words.language(),
            "pinned": pinned(cookies) is not None or words.language() != words.appliance_language(),
            "offer": None if other is None else {
                "code": other, "href": f"/sprache?lang={other}&zurueck={quote(here, safe='')}",
                "label": in_language(other, "pages.language.read_in")},
            "script_words": lambda status=False: script_words(JS_KEYS + (STATUS_KEYS if status else ())),
        }

    app.register_blueprint(blueprint())


def blueprint() -> Blueprint:
    switch = Blueprint("language", __name__)

    @switch.get("/sprache")
    @public
    def choose_own() -> Response:
        """A phone's one tap: read the pages in ``lang`` (the appliance's: follow it again, whatever its browser
        asks for). Only this phone's cookie changes, so it is open to every phone, as reading is."""
        code = request.args.get("lang", "")
        back = request.args.get("zurueck", "/")
        if not back.startswith("/") or back.startswith("//") or "\\" in back:
            back = "/"  # never a way off the appliance
        answer = redirect(back, code=303)
        kept = code if code in words.LANGUAGES and code != words.appliance_language() else FOLLOW
        answer.set_cookie(COOKIE, kept, max_age=COOKIE_DAYS * 86400, samesite="Lax", httponly=True)
        return answer

    return switch
