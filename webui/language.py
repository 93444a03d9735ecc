"""The pages speak from the catalogue, in the appliance's language unless a phone chose its own (issue 27).

Jinja's own i18n extension is bound to :mod:`words`: ``{{ _("pages.status.title") }}`` in a template is
:func:`words.text` in the language in force, ``{{ ngettext("pages.x", n) }}`` :func:`words.plural`. No
Flask-Babel: it would load the same ``.mo`` files a second time through Babel (its imports and pytz cost
~10 ms here, ≈ 0.15 s at a Pi core's pace, beside the web's start), and keep a locale of its own beside
``words.language()``; the extension is part of Jinja (~1 ms) and reads what :mod:`words` already holds.

Which language a page is in: every page follows the appliance's (the banker's choice on /admin shows on
every phone at once, as on the OLED). A phone may pin another one with one tap: its browser's
``Accept-Language`` names a language we have, the page offers it (in that language), and the choice is a
cookie of that phone (:data:`COOKIE`), never the appliance's. Each request speaks its page's language
through :func:`words.speaking` (a context variable), so one phone's English never reaches another's page
or the OLED.

The script's texts come from the page too: :func:`script_words` renders the messages ``app.js`` needs (the
``JS_KEYS``) into a ``<script type="application/json">`` block, in the page's language.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any
from urllib.parse import quote

from flask import Blueprint, Flask, redirect, request
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header, parse_cookie
from werkzeug.wrappers import Response

import words

from .auth import public

COOKIE = "bank_lang"
"""A phone's own language for the pages (absent: the appliance's)."""
COOKIE_DAYS = 365
JS_KEYS = (
    "pages.js.offline", "pages.js.no_game", "pages.js.no_game_hint", "pages.js.title", "pages.js.attention",
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
    "list.separator", "list.last", "number.decimal",
)
"""The messages the script shows (app.js asks for them by key; a test holds the two lists together)."""
STATUS_KEYS = ("pages.mode.standard", "pages.mode.quick", "pages.mode.timed", "pages.house_rule.free_parking_pot",
               "pages.house_rule.double_go", "pages.house_rule.no_auctions")
"""What only the status page's script says, by the state's codes: given to that page alone (no other page carries
a house rule's code in its words)."""


def pinned(cookies: Mapping[str, str]) -> str | None:
    """The language a phone chose for itself, if it is one we have."""
    code = cookies.get(COOKIE, "")
    return code if code in words.LANGUAGES else None


def page_language(cookies: Mapping[str, str]) -> str:
    """The phone's own choice, else the appliance's."""
    return pinned(cookies) or words.appliance_language()


def asked_for(accept_language: str) -> str | None:
    """The language we have that the browser wants most (``Accept-Language``), if any."""
    best = parse_accept_header(accept_language, LanguageAccept).best_match(words.LANGUAGES)  # "en-GB" is "en"
    return best if best in words.LANGUAGES else None


def offer(cookies: Mapping[str, str], accept_language: str) -> str | None:
    """The one language a page offers to switch to: back to the appliance's for a phone that pinned another,
    else the one its browser asks for when the page is in another."""
    own, appliance = pinned(cookies), words.appliance_language()
    if own is not None and own != appliance:
        return appliance
    wanted = asked_for(accept_language)
    return wanted if wanted is not None and wanted != (own or appliance) else None


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
        # Entered and left in the same call (and thread): a stream's body is the appliance's words.
        with words.speaking(page_language(parse_cookie(environ))):
            return inner(environ, start_response)

    app.wsgi_app = wsgi_app  # type: ignore[method-assign]

    @app.context_processor
    def page_words() -> dict[str, Any]:
        cookies = request.cookies.to_dict()
        other = offer(cookies, request.headers.get("Accept-Language", ""))
        here = request.full_path.rstrip("?") if request.full_path else "/"
        return {
            "lang": words.language(),
            "pinned": pinned(cookies) is not None,
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
        """A phone's one tap: read the pages in ``lang`` (the appliance's: follow it again). Only this phone's
        cookie changes, so it is open to every phone, as reading is."""
        code = request.args.get("lang", "")
        back = request.args.get("zurueck", "/")
        if not back.startswith("/") or back.startswith("//") or "\\" in back:
            back = "/"  # never a way off the appliance
        answer = redirect(back, code=303)
        if code == words.appliance_language() or code not in words.LANGUAGES:
            answer.delete_cookie(COOKIE)
        else:
            answer.set_cookie(COOKIE, code, max_age=COOKIE_DAYS * 86400, samesite="Lax", httponly=True)
        return answer

    return switch
