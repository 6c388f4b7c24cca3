"""Runs inside Pyodide (its Python 3.12, not the build's): the stdlib modules the site imports, precompiled.

It records which stdlib modules the site imports, then writes them compiled, sorted, with fixed
timestamps. Without docstrings and column tables the bytecode is barely larger than the source it
replaces, and Python no longer compiles ~180 modules on every page load.
"""

import importlib
import importlib.util
import io
import json
import marshal
import re
import sys
import traceback
import zipfile
from importlib import resources


def trace_site_imports(extra_modules: list[str]) -> None:
    """Import what the site imports: our package, numpy's file formats, tracebacks, and the extras."""
    import numpy as np

    resources.files("ptrnet").joinpath("data/hull_model_card.json").read_text("utf-8")
    for path in resources.files("ptrnet").iterdir():
        if path.name.endswith(".py"):  # the site's wheel carries only what the site imports
            importlib.import_module(f"ptrnet.{path.name[:-3]}")
    for path in resources.files("ptrnet.handlers").iterdir():
        if path.name.endswith(".py"):
            importlib.import_module(f"ptrnet.handlers.{path.name[:-3]}")
    buffer = io.BytesIO()
    np.savez_compressed(buffer, a=np.zeros(2))
    np.load(io.BytesIO(buffer.getvalue()))["a"]
    np.random.default_rng(1).random(2)
    try:
        raise ValueError("traceback formatting")
    except ValueError:
        traceback.format_exc()
    for name in extra_modules:
        importlib.import_module(name)


def _module_name(path: str) -> str:
    """The module a stdlib zip member holds: 'json/__init__.py' -> 'json'."""
    return path[: -len(".py")].replace("/", ".").removesuffix(".__init__")


def _compiled(data: bytes, name: str) -> bytes:
    """A sourceless .pyc: magic, flags 0b01 (hash-based, never checked), unused hash, code."""
    # Docstrings go (optimize=2), except in modules that call string methods on them:
    # email's policies build docstrings from their bases' at import.
    keep_docs = re.search(rb"__doc__\.\w+\(", data) is not None
    code = compile(data, name, "exec", dont_inherit=True, optimize=0 if keep_docs else 2)
    return importlib.util.MAGIC_NUMBER + (1).to_bytes(4, "little") + bytes(8) + marshal.dumps(code)


def main(source: str, target: str, extra_modules: str, date_time: str) -> int:
    """Write `target`: the imported modules of the stdlib zip `source`, compiled; return how many.

    extra_modules and date_time are JSON: a list of module names, a zip timestamp (6 integers).
    """
    trace_site_imports(json.loads(extra_modules))
    stamp, kept = tuple(json.loads(date_time)), 0
    with zipfile.ZipFile(source) as full, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as out:
        for info in sorted(full.infolist(), key=lambda i: i.filename):
            if info.is_dir() or (info.filename.endswith(".py") and _module_name(info.filename) not in sys.modules):
                continue
            data, name = full.read(info), info.filename
            if name.endswith(".py"):
                data, name, kept = _compiled(data, name), name + "c", kept + 1
            out.writestr(zipfile.ZipInfo(name, stamp), data, compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
    return kept
