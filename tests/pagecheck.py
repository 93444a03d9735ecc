"""The Nu HTML validator (vnu.jar from npm, run by Debian's Java): every page is valid HTML5.

Installed by ``./dev test`` into tests/web-tools/node_modules; one Java process checks all pages at once.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
from pathlib import Path

TOOLS = Path(__file__).resolve().parent / "web-tools" / "node_modules"
VNU = TOOLS / "vnu-jar" / "build" / "dist" / "vnu.jar"
AXE = TOOLS / "axe-core" / "axe.min.js"


def html_errors(pages: dict[str, str]) -> list[str]:
    """Every error and warning the Nu validator finds, as "page:line: message" (no messages: valid)."""
    assert VNU.exists(), f"{VNU} missing: ./dev test installs it"
    with tempfile.TemporaryDirectory() as tmp:
        names = {}
        for i, (name, html) in enumerate(pages.items()):
            path = Path(tmp) / f"page{i}.html"
            path.write_text(html, encoding="utf-8")
            names[path.name] = name
        out = subprocess.run(["java", "-jar", str(VNU), "--format", "json", "--stdout", *sorted(
            str(Path(tmp) / f"page{i}.html") for i in range(len(pages)))], capture_output=True, text=True,
            timeout=120, check=False)
    messages = json.loads(out.stdout)["messages"]
    return [f"{names.get(m.get('url', '').rsplit('/', 1)[-1], m.get('url'))}:{m.get('lastLine')}: {m.get('type')}: {m['message']}"
            f" [{m.get('extract', '')!r}]" for m in messages if m.get("type") in ("error", "non-document-error")
            or m.get("subType") == "warning"]
