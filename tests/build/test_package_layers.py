"""The package's rooms import one way: the demo manifest, limits and formats at the bottom (they import nothing of
ptrnet), then geometry and nn, then pointer, prelude, sorter and explain, then experiments and learn, then views, then
handlers, then api; rooms on one floor never import each other, and nothing in the wheel imports the offline tools
(training) or the build (sitebuild)."""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "py" / "src" / "ptrnet"
FLOORS = [
    {"manifest", "limits", "formats"},
    {"geometry", "nn"},
    {"pointer", "prelude", "sorter", "explain"},
    {"experiments", "learn"},
    {"views"},
    {"handlers"},
    {"api"},
]  # bottom first
OUTSIDE = ("training", "sitebuild", "torch", "scipy", "shapely")  # never imported by what the worker runs


def _room(module: str) -> str:
    """ptrnet.pointer.decoding -> 'pointer'; ptrnet (the package's own errors) -> ''."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def _floor(room: str) -> int:
    return next(k for k, rooms in enumerate(FLOORS) if room in rooms)


def _imports(path: Path) -> list[str]:
    """Every module a file imports, at the top or inside a function."""
    names = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            names += [node.module] + [f"{node.module}.{a.name}" for a in node.names if node.module == "ptrnet"]
        elif isinstance(node, ast.Import):
            names += [a.name for a in node.names]
    return names


def _modules() -> dict[str, Path]:
    return {
        ".".join(("ptrnet", *p.relative_to(PACKAGE).with_suffix("").parts)).removesuffix(".__init__"): p
        for p in sorted(PACKAGE.rglob("*.py"))
    }


def test_every_module_lives_in_a_room_on_a_floor():
    rooms = {_room(m) for m in _modules()} - {""}
    assert rooms == set().union(*FLOORS)


def test_imports_go_down_or_stay_in_their_room():
    wrong = []
    for module, path in _modules().items():
        if not _room(module):
            continue
        for target in _imports(path):
            if (
                not target.startswith("ptrnet.")
                or _room(target) in ("", _room(module))
                or _room(target) not in set().union(*FLOORS)
            ):
                continue
            if _floor(_room(target)) >= _floor(_room(module)):
                wrong.append(f"{module} imports {target}")
    assert wrong == []


def test_nothing_the_worker_runs_imports_the_offline_tools_or_the_build():
    found = [
        f"{module} imports {target}"
        for module, path in _modules().items()
        for target in _imports(path)
        if target.split(".")[0] in OUTSIDE
    ]
    assert found == []
