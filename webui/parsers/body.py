"""The JSON body every POST carries."""

from __future__ import annotations

import json
from typing import Any

from flask import request

from ..errors import Malformed


def parse_body() -> dict[str, Any]:
    """The request's JSON object; any text in it encodable (``"\\ud800"`` is valid JSON but no text:
    refused here once, for every field of every request)."""
    try:
        data = request.get_json(silent=True)
    except RecursionError:
        raise Malformed("JSON zu tief verschachtelt") from None
    if not isinstance(data, dict):
        raise Malformed("JSON-Objekt erwartet")
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise Malformed("Ungültiges Zeichen im Text") from None
    return data
