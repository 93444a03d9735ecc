"""An edition as plain data and as a file: what a game's journal keeps (the whole edition, nothing inherited)
and the TOML a family edits by hand, which :func:`rules.editions.read_edition` reads back the same."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .model import Edition, Terms, Word
from .schema import HELD, NAMED, TABLES, TOP


def edition_data(ed: Edition) -> dict[str, Any]:
    """The whole edition as plain data (JSON and TOML alike, square numbers as ints): what a journal keeps."""
    short = {sq: s for sq, (s, name) in enumerate(zip(ed.short_names, ed.names, strict=True)) if s != name}
    out: dict[str, Any] = {"key": ed.key, "title": ed.title, **({"base": ed.base} if ed.base else {}),
                           "board": "classic"}
    out |= {key: getattr(ed, key) for key in TOP if key not in (*NAMED, "key", "title")}
    out |= {table: {key: getattr(ed.quick if table == "quick" else ed, HELD.get((table, key), key)) for key in fields}
            for table, fields in TABLES.items()}
    out |= {
        "buildings": {name: {"singular": w.singular, "plural": w.plural, "gender": w.gender}
                      for name, w in (("house", ed.house_word), ("hotel", ed.hotel_word))},
        "names": dict(enumerate(ed.names)),
        **({"short": short} if short else {}),  # none given: the data as before [short] existed
        "taxes": dict(ed.taxes),
        "deeds": {sq: {"price": d.price, "rents": list(d.rents), "house_price": d.house_price, "mortgage": d.mortgage}
                  for sq, d in sorted(ed.deeds.items())},
    }
    if ed.language != "de":  # the German board's data as before the boards had a language: old journals' equal
        out["language"] = ed.language
    if ed.words:
        out["words"] = {code: _terms_data(terms) for code, terms in ed.words.items()}
    return out


def _terms_data(terms: Terms) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, value in terms._asdict().items():
        if isinstance(value, Word):
            out[name] = {"singular": value.singular, "plural": value.plural, "gender": value.gender}
        elif value is not None:
            out[name] = value
    return out


def journal_data(ed: Edition) -> dict[str, Any]:
    """:func:`edition_data` with string keys, as JSON keeps it (``names`` "0" …)."""
    data = edition_data(ed)
    for key in ("names", "short", "taxes", "deeds"):
        if key in data:
            data[key] = {str(k): v for k, v in data[key].items()}
    return data


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml_value(v)}" for k, v in value.items()) + " }"
    return str(value)


COMMENTED = ("key", "title", "base", "board", "currency", "scale", "km_notation", "start_capital", "max_entry",
             "auction_min_bid", "speed_die_bonus", "names", "short", "buildings", "groups", "stock", "quick", "rules",
             "taxes", "deeds")
"""The keys and tables a written file explains in a comment; the comments' words are the caller's (``words``:
``editions.comment.<key>``), in the family's language, so a file says them in the language it was made in."""


def to_toml(data: Mapping[str, Any], *, comments: Mapping[str, str] | None = None) -> str:
    """``data`` (a file's table or :func:`edition_data`) as TOML that :func:`read_edition` reads back the same;
    ``comments`` (by key, :data:`COMMENTED`) explain the keys and tables to the family editing it by hand."""
    lines: list[str] = []
    notes = comments or {}

    def note(key: str) -> str:
        return f"  # {notes[key]}" if key in notes else ""

    for key in TOP:
        if key in data:
            lines.append(f"{key} = {_toml_value(data[key])}{note(key)}")
    for table in (*TABLES, "buildings", "names", "short", "taxes"):
        if table in data:
            if table in notes:
                lines += ["", f"# {notes[table]}"]
            else:
                lines.append("")
            lines.append(f"[{table}]")
            for k, v in data[table].items():
                lines.append(f"{k} = {_toml_value(v)}")
    for code, terms in data.get("words", {}).items():
        lines += ["", f"[words.{code}]", *(f"{k} = {_toml_value(v)}" for k, v in terms.items())]
    if "deeds" in data:
        if "deeds" in notes:
            lines += ["", f"# {notes['deeds']}"]
        for sq, d in data["deeds"].items():
            name = data.get("names", {}).get(sq) or data.get("names", {}).get(str(sq))
            lines += ["", f"[deeds.{sq}]" + (f"  # {name}" if notes and name else "")]
            lines += [f"{k} = {_toml_value(v)}" for k, v in d.items()]
    return "\n".join(lines) + "\n"
