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


def test_the_only_thing_rules_reads_is_its_own_editions_package_data() -> None:
    """The shipped editions are TOML files in the package. One module reads them, through
    ``pkgutil.get_data`` and only from its own package (as fixed as the code); a family's file is read by the
    device and handed to ``rules`` as text. Nothing else in ``rules`` touches a loader."""
    readers = []
    for path in RULES.rglob("*.py"):
        source = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(source)):
            module = node.module if isinstance(node, ast.ImportFrom) else None
            names = [a.name for a in node.names] if isinstance(node, (ast.Import, ast.ImportFrom)) else []
            if any((m or "").split(".")[0] in ("importlib", "pkgutil", "zipimport") for m in [module, *names]):
                readers.append(path.relative_to(RULES).as_posix())
    assert readers == ["editions/shipped.py"]
    shipped = (RULES / "editions" / "shipped.py").read_text(encoding="utf-8")
    calls = [n for n in ast.walk(ast.parse(shipped)) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
             and n.func.attr == "get_data"]
    assert len(calls) == 1 and ast.unparse(calls[0].args[0]) == "__package__"
