"""Precompiled bytecode for what the worker imports: a smaller stdlib of only the modules the site uses, and the
numpy and ptrnet wheels with their modules compiled, so that Python compiles nothing on a page load."""

import ast
import json
import os
import shutil
import tempfile
import time
import zipfile
from pathlib import Path

from sitebuild.bytecode_compile import module_name
from sitebuild.config import (
    CACHE,
    NPM_PYODIDE,
    OUR_PACKAGE,
    PY_PROJECT,
    SOURCE_DATE_EPOCH,
    STDLIB,
    STDLIB_FULL,
    VENV_PYTHON,
    WHEEL_LEFT_OUT,
)
from sitebuild.shell import run

HERE = Path(__file__).resolve().parent
OUR_SOURCES = PY_PROJECT / "src" / OUR_PACKAGE  # the modules of our wheel, as written


def extra_modules(full_stdlib: Path, sources: Path = OUR_SOURCES) -> list[str]:
    """The stdlib modules the site imports where bytecode_compile's trace does not reach, none listed by hand: those
    the worker's requests import when answered (worker_imports.py, under CPython: numpy's lazy imports where the
    site calls them) and those our `sources` import anywhere, also inside a function."""
    with tempfile.TemporaryDirectory() as tmp:
        found = Path(tmp) / "modules.json"
        env = {**os.environ, "PYTHONPATH": str(sources.parent)}  # these sources, not the installed package's
        run(VENV_PYTHON, HERE / "worker_imports.py", found, env=env)
        imported = json.loads(found.read_text(encoding="utf-8"))
    with zipfile.ZipFile(full_stdlib) as stdlib:
        known = {module_name(name) for name in stdlib.namelist() if name.endswith(".py")}
    return sorted({name for name in imported if name in known} | set(_stdlib_imports(sources, full_stdlib)))


def precompile(pyodide_dir: Path, wheels: list[Path]) -> None:
    """Swap in a smaller, precompiled stdlib of the modules the site imports (keeping the official one as
    STDLIB_FULL), and compile the modules of `wheels` (files in pyodide_dir) in place, leaving out WHEEL_LEFT_OUT."""
    official = pyodide_dir / STDLIB_FULL
    (pyodide_dir / STDLIB).rename(official)
    # Pyodide reads STDLIB from indexURL: give it the official one under that name while tracing.
    trace_dir = CACHE / "stdlib" / "pyodide"
    shutil.rmtree(trace_dir.parent, ignore_errors=True)
    shutil.copytree(pyodide_dir, trace_dir)
    (trace_dir / STDLIB_FULL).rename(trace_dir / STDLIB)
    date_time = list(time.gmtime(int(SOURCE_DATE_EPOCH))[:6])
    core = (NPM_PYODIDE / "pyodide.mjs").as_uri()
    run(
        "node",
        HERE / "bytecode_runner.mjs",
        core,
        f"{trace_dir}/",
        official,
        pyodide_dir / STDLIB,
        HERE / "bytecode_compile.py",
        json.dumps(extra_modules(official)),
        json.dumps(date_time),
        json.dumps([str(wheel) for wheel in wheels]),
        json.dumps(WHEEL_LEFT_OUT),
    )
    shutil.rmtree(trace_dir.parent)


# Run in Pyodide by check_imports: imports each module of $SITE_IMPORTS ({module: where it is imported}, JSON) and
# answers with a line for each that the site's Pyodide lacks.
_IMPORT_EACH = """
import importlib, json, os
missing = []
for name, where in json.loads(os.environ["SITE_IMPORTS"]).items():
    try:
        importlib.import_module(name)
    except ModuleNotFoundError as err:
        missing.append(f"  {where}: {name} (no module {err.name!r})")
"\\n".join(missing)
"""


def check_imports(pyodide_dir: Path, sources: Path = OUR_SOURCES) -> None:
    """Start the shipped Pyodide under node and import numpy's subpackages, every module of our wheel (from its
    `sources`) and every stdlib module those import anywhere, also inside a function, so that a file WHEEL_LEFT_OUT
    should have kept, or a stdlib subset built from other sources, stops the build instead of the site (which would
    download the full stdlib for it)."""
    paths = [str(path.relative_to(sources.parent)) for path in sorted(sources.rglob("*.py"))]
    wanted = {**{module_name(path): path for path in paths}, **_stdlib_imports(sources, pyodide_dir / STDLIB_FULL)}
    script = (
        f"const {{ loadPyodide }} = await import({json.dumps((pyodide_dir / 'pyodide.mjs').as_uri())});"
        f"const indexURL = {json.dumps(f'{pyodide_dir}/')};"
        "const pyodide = await loadPyodide({ indexURL, env: { SITE_IMPORTS: process.env.SITE_IMPORTS } });"
        'await pyodide.loadPackage("ptrnet", { messageCallback: () => {} });'
        'pyodide.runPython("import numpy, numpy.fft, numpy.linalg, numpy.ma, numpy.polynomial, numpy.random");'
        f"const missing = pyodide.runPython({json.dumps(_IMPORT_EACH)});"
        "if (missing) { console.error(`These imports fail in the site's Pyodide:\\n${missing}`); process.exit(1); }"
    )
    hint = (
        " The site's stdlib holds only what the build found imported (extra_modules in py/sitebuild/bytecode.py):"
        " rebuild from these sources; for a numpy file, narrow WHEEL_LEFT_OUT in py/sitebuild/config.py."
    )
    env = {**os.environ, "SITE_IMPORTS": json.dumps(wanted)}
    run("node", "--input-type=module", "-e", script, hint=hint, env=env)


def _stdlib_imports(sources: Path, full_stdlib: Path) -> dict[str, str]:
    """{module: "path:line" of its first import}: each module of the full stdlib zip that the Python files under
    `sources` import anywhere."""
    with zipfile.ZipFile(full_stdlib) as stdlib:
        known = {module_name(name) for name in stdlib.namelist() if name.endswith(".py")}
    found = {}
    for path in sorted(sources.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
            else:
                continue
            for name in names:
                if name in known:
                    found.setdefault(name, f"{path.relative_to(sources.parent)}:{node.lineno}")
    return found
