"""Precompiled bytecode for what the worker imports: a smaller stdlib of only the modules the site uses, and the
numpy and ptrnet wheels with their modules compiled, so that Python compiles nothing on a page load."""

import json
import shutil
import time
from pathlib import Path

from sitebuild.config import CACHE, NPM_PYODIDE, SOURCE_DATE_EPOCH, STDLIB, STDLIB_FULL, WHEEL_LEFT_OUT
from sitebuild.shell import run

HERE = Path(__file__).resolve().parent
# Imported lazily somewhere we know of, but not by bytecode_compile's trace.
EXTRA_MODULES = [
    "pickle",
    "secrets",
    "hashlib",
    "textwrap",
    "encodings.latin_1",
    "encodings.ascii",
    "encodings.utf_8_sig",
]


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
        json.dumps(EXTRA_MODULES),
        json.dumps(date_time),
        json.dumps([str(wheel) for wheel in wheels]),
        json.dumps(WHEEL_LEFT_OUT),
    )
    shutil.rmtree(trace_dir.parent)


def check_imports(pyodide_dir: Path) -> None:
    """Start the shipped Pyodide under node and import numpy's subpackages, ptrnet.api and every handler family from the shipped wheels,
    so that a file WHEEL_LEFT_OUT should have kept stops the build instead of the site."""
    script = (
        f"const {{ loadPyodide }} = await import({json.dumps((pyodide_dir / 'pyodide.mjs').as_uri())});"
        f"const pyodide = await loadPyodide({{ indexURL: {json.dumps(f'{pyodide_dir}/')} }});"
        'await pyodide.loadPackage("ptrnet", { messageCallback: () => {} });'
        'pyodide.runPython("import numpy, numpy.fft, numpy.linalg, numpy.ma, numpy.polynomial, numpy.random, ptrnet.api;'
        ' [ptrnet.handlers.load(demo) for demos in ptrnet.handlers.FAMILIES.values() for demo in demos]");'
    )
    run("node", "--input-type=module", "-e", script, hint=" The compiled wheels do not import (see WHEEL_LEFT_OUT).")
