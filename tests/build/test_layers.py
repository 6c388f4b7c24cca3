"""The page scripts' layers point one way: runtime ← ui ← draw ← demos ← pages (config and the
generated constants under all of them)."""

import re
from pathlib import Path

JS = Path(__file__).resolve().parents[2] / "site" / "js"
LAYERS = ["generated", "config", "runtime", "ui", "draw", "demos", "pages"]  # each may import only from its left
IMPORT = re.compile(r"""^\s*(?:import|export)\b[^'"]*?\bfrom\s+["']([^"']+)["']|^\s*import\s+["']([^"']+)["']""", re.M)
DYNAMIC = re.compile(r"""\bimport\(\s*["']([^"']+)["']""")


def _layer(path: Path) -> str:
    """The layer of a script under site/js: its folder, config.js, or a page's own script."""
    relative = path.relative_to(JS)
    if relative.parts[0] in LAYERS:
        return relative.parts[0]
    return "config" if relative.name == "config.js" else "pages"


def _imports(path: Path) -> list[Path]:
    """The scripts under site/js that a script imports, statically or dynamically."""
    text = path.read_text(encoding="utf-8")
    specifiers = [a or b for a, b in IMPORT.findall(text)] + DYNAMIC.findall(text)
    targets = [(path.parent / s).resolve() for s in specifiers if s.startswith(".")]
    return [t for t in targets if t.is_relative_to(JS)]


def _scripts() -> list[Path]:
    return sorted(JS.rglob("*.js"))


def test_every_script_imports_only_its_own_layer_or_lower_ones():
    upward = [
        f"{path.relative_to(JS)} ({_layer(path)}) imports {target.relative_to(JS)} ({_layer(target)})"
        for path in _scripts()
        for target in _imports(path)
        if LAYERS.index(_layer(target)) > LAYERS.index(_layer(path))
    ]
    assert upward == []


def test_every_import_names_a_script_that_exists():
    missing = [f"{p.relative_to(JS)} → {t}" for p in _scripts() for t in _imports(p) if not t.exists()]
    assert missing == []
