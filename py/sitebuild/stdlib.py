"""A smaller, precompiled Python stdlib of only the modules the site imports."""

import json
import shutil
import time
from pathlib import Path

from sitebuild.config import CACHE, NPM_PYODIDE, SOURCE_DATE_EPOCH, STDLIB, STDLIB_FULL
from sitebuild.shell import run

HERE = Path(__file__).resolve().parent
# Imported lazily somewhere we know of, but not by stdlib_compile's trace.
EXTRA_MODULES = [
    "pickle",
    "secrets",
    "hashlib",
    "textwrap",
    "encodings.latin_1",
    "encodings.ascii",
    "encodings.utf_8_sig",
]


def precompile_stdlib(pyodide_dir: Path) -> None:
    """Swap in a smaller, precompiled stdlib of the modules the site imports; keep the official one."""
    official = pyodide_dir / STDLIB_FULL
    (pyodide_dir / STDLIB).rename(official)
    # Pyodide reads STDLIB from indexURL: give it the official one under that name while tracing.
    trace_dir = CACHE / "stdlib" / "pyodide"
    shutil.rmtree(trace_dir.parent, ignore_errors=True)
    shutil.copytree(pyodide_dir, trace_dir)
    (trace_dir / STDLIB_FULL).rename(trace_dir / STDLIB)
    date_time = list(time.gmtime(int(SOURCE_DATE_EPOCH))[:6])
    core = (NPM_PYODIDE / "pyodide.mjs").as_uri()
    target = pyodide_dir / STDLIB
    run(
        "node",
        HERE / "stdlib_runner.mjs",
        core,
        f"{trace_dir}/",
        official,
        target,
        HERE / "stdlib_compile.py",
        json.dumps(EXTRA_MODULES),
        json.dumps(date_time),
    )
    shutil.rmtree(trace_dir.parent)
