"""Two SVG drawings compared by what they draw, not by their bytes.

A generated SVG committed to the repository (docs/wiring.svg) is the drawing its code makes today. Compared byte
for byte, a test fails when only the writing moved (a number written ``216`` instead of ``216.0``, attributes in
another order, another line break), which no viewer sees. Here each element is read as its tag, its text and its
attributes, each attribute as its words and its numbers; numbers agree within a tolerance (a fraction of a unit).
"""

from __future__ import annotations

import re
from xml.etree import ElementTree

NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")

Element = tuple[str, str, dict[str, tuple[str, tuple[float, ...]]]]


def _value(value: str) -> tuple[str, tuple[float, ...]]:
    return NUMBER.sub("#", " ".join(value.split())), tuple(float(n) for n in NUMBER.findall(value))


def elements(svg: str) -> list[Element]:
    """Each element in drawing order: its tag, its text (spaces folded), its attributes read as words and numbers."""
    return [(node.tag.rpartition("}")[2], " ".join((node.text or "").split()),
             {name.rpartition("}")[2]: _value(value) for name, value in node.attrib.items()})
            for node in ElementTree.fromstring(svg).iter()]


def differences(expected: str, actual: str, tolerance: float = 0.5) -> list[str]:
    """What ``actual`` draws otherwise than ``expected`` (empty: the same drawing)."""
    want, got = elements(expected), elements(actual)
    if len(want) != len(got):
        return [f"{len(got)} elements instead of {len(want)}"]
    found = []
    for i, ((tag, text, attrs), (tag2, text2, attrs2)) in enumerate(zip(want, got, strict=True)):
        if (tag, text, sorted(attrs)) != (tag2, text2, sorted(attrs2)):
            found.append(f"element {i}: {tag} {text!r} {sorted(attrs)} became {tag2} {text2!r} {sorted(attrs2)}")
            continue
        for name, (words, numbers) in attrs.items():
            words2, numbers2 = attrs2[name]
            if words != words2 or len(numbers) != len(numbers2) or any(
                    abs(a - b) > tolerance for a, b in zip(numbers, numbers2, strict=True)):
                found.append(f"element {i} ({tag} {text!r}): {name} {words}{numbers} became {words2}{numbers2}")
    return found
