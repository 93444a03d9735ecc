"""The JSON body every POST carries."""

from __future__ import annotations

import json
from typing import Any

from flask import request

from words import text

from ..errors import Malformed


def parse_body() -> dict[str, Any]:
    """The request's JSON object; any text in it encodable (``"\\ud800"`` is valid JSON but no text:
    refused here once, for every field of every request)."""
    try:
        data = request.get_json(silent=True)
    except RecursionError:
        raise Malformed(text("phone.json.too_deep")) from None
    if not isinstance(data, dict):
        raise Malformed(text("phone.json.object"))
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise Malformed(text("phone.json.bad_char")) from None
    return data
