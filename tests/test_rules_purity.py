"""rules/ is pure: it imports nothing of ours outside itself and nothing outside the standard library."""

import ast
import sys
from pathlib import Path

RULES = Path(__file__).resolve().parent.parent / "rules"


def test_rules_imports_only_the_standard_library() -> None:
    for path in RULES.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            else:
                continue
            for name in names:
                assert name.split(".")[0] in sys.stdlib_module_names, f"{path.name} imports {name}"


def test_rules_reads_no_clock_and_does_no_io() -> None:
    """No clock, no files, no network, no printing: time and seeds are passed in."""
    banned_modules = {"time", "datetime", "os", "io", "pathlib", "socket", "subprocess", "threading", "secrets"}
    banned_calls = {"open", "print", "input"}
    for path in RULES.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                assert not {a.name.split(".")[0] for a in node.names} & banned_modules, path.name
            if isinstance(node, ast.ImportFrom) and node.level == 0:
                assert (node.module or "").split(".")[0] not in banned_modules, path.name
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in banned_calls, f"{path.name} calls {node.func.id}"
