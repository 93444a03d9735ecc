"""Finding German left in what an English reader is shown: the pages' German words, what a page and a template
show a person, and the words only the German catalogues use. Shared by the tests of the pages, the phone's forms,
the reports and the editions in English."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

from babel.messages.pofile import read_po
from po_read import message_forms

from words.compile import po_files, po_path

TEMPLATES = Path(__file__).resolve().parent.parent / "webui" / "templates"

GERMAN = re.compile(
    r"\b(und|oder|der|das|den|dem|des|ein|eine|einen|nicht|kein|keine|noch|mit|von|für|auf|zu|ist|wird|"
    r"werden|Spiel|Spiele|Spieler|Stand|Buchen|Gebucht|Abgelehnt|Bankhalter|Gerät|Anmelden|Abmelden|Karte|Karten|"
    r"Feld|Art|Minuten|Hausregeln|Ausgabe|Ausgaben|Spielart|Vermögen|Bargeld|Selbsttest|Befehl|Senden|Sprache|"
    r"Übernehmen|Verdrahtung|Drücken|Haben|Soll|Menü|halten|Knopf|links|rechts|Bankkarten|Besitzrecht\w*|"
    r"Letzte|Buchungen|Handy|öffnen|Einen|Moment|gelesen|Seite|lädt|Zufallszahl|verteilen|Anlernen|Storno|Nein|"
    r"Ja|beenden|starten|Neues|Erneut|prüfen|Fachleute|Tempo-Würfel|Punktestand|Ton|aus|Zeit|Uhr|"
    r"Standardspiel|Schnellspiel|Frei-Parken-Topf|Gehalt|Versteigerungen|Bahnhöfe|Werke|Braun|Hellblau|Rot|"
    r"Gelb|Grün|Dunkelblau|LOS|Interner|Fehler|Anfrage|groß|Unbekannte|Zu|viele|falsche|wieder|versuchen|Nur|"
    r"erst|fehlt|falsch|Einträge|bis)\b")
"""German words a page of ours might still carry (the edition's, the squares' and the players' names are left
out of what is searched)."""


class Text(HTMLParser):
    """What a person reads on a page: its text and its attributes that are read out or shown (alt, title,
    aria-label, placeholder), leaving out the script's JSON block, styles and the edition's own names."""

    SHOWN = ("alt", "title", "aria-label", "placeholder", "label")

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.words: dict[str, str] | None = None
        self._skip: str | None = None
        self._in_words = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag in ("style", "script", "textarea"):
            self._skip = tag
            self._in_words = found.get("id") == "words"
        for name in self.SHOWN:
            if found.get(name):
                self.parts.append(str(found[name]))

    def handle_endtag(self, tag: str) -> None:
        if tag == self._skip:
            self._skip = None
            self._in_words = False

    def handle_data(self, data: str) -> None:
        if self._in_words:
            self.words = json.loads(data)
        elif self._skip is None:
            self.parts.append(data)


class TemplateText(HTMLParser):
    """The text and shown attributes a template writes itself, its ``{{ … }}`` and ``{% … %}`` left out."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self._skip = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._skip = tag in ("style", "script", "textarea")
        self.found += [str(v) for k, v in attrs if k in Text.SHOWN and v]

    def handle_endtag(self, tag: str) -> None:
        self._skip = False

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.found.append(data)


def catalogue_words(code: str) -> set[str]:
    """Every word (three letters or more, lower-cased) of ``code``'s catalogues, their placeholders left out."""
    found: set[str] = set()
    for language, domain in po_files():
        if language != code:
            continue
        with open(po_path(code, domain), "rb") as f:
            for message in read_po(f, locale=code):
                for said in message_forms(message):
                    found.update(w.lower() for w in re.findall(r"[^\W\d_]{3,}", re.sub(r"\{[^}]*\}", " ", said)))
    return found


def german_in(texts: list[str], *names: str) -> list[str]:
    """The German words in ``texts``: a word of the German catalogues that no English text uses, or a word
    with an umlaut or ß; the ``names`` (the edition's squares and words, the players) left out first."""
    german = catalogue_words("de") - catalogue_words("en")
    found = []
    for said in texts:
        for name in sorted(names, key=len, reverse=True):
            said = said.replace(name, " ")
        found += [w for w in re.findall(r"[^\W\d_]+", said) if w.lower() in german or re.search("[äöüÄÖÜß]", w)]
    return found
