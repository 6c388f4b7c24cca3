"""Runs inside Pyodide (its Python 3.12, not the build's): the stdlib modules the site imports, precompiled,
and wheels whose modules are replaced by their bytecode.

It records which stdlib modules the site imports, then writes them compiled, sorted, with fixed
timestamps; without docstrings and column tables that bytecode is barely larger than the source it
replaces. The wheels' modules are compiled too (docstrings kept), so Python compiles nothing on a page
load: ~180 stdlib modules, ~150 of numpy's (most of `import numpy` in the browser) and ~45 of ours.
"""

import base64
import fnmatch
import hashlib
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


def _import_package(package: str) -> None:
    """Import every module of a package and of its subpackages (from source, or already compiled)."""
    for path in resources.files(package).iterdir():
        if path.is_dir() and any(path.joinpath(f"__init__.{suffix}").is_file() for suffix in ("py", "pyc")):
            _import_package(f"{package}.{path.name}")
        elif path.suffix in (".py", ".pyc") and path.stem != "__init__":
            importlib.import_module(f"{package}.{path.stem}")


def trace_site_imports(extra_modules: list[str]) -> None:
    """Import what the site imports: our package, numpy's file formats, tracebacks, and the extras."""
    import numpy as np

    resources.files("ptrnet").joinpath("data/hull_model_card.json").read_text("utf-8")
    _import_package("ptrnet")  # the site's wheel carries only what the site imports
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


def module_name(path: str) -> str:
    """The module a stdlib zip member holds: 'json/__init__.py' -> 'json'."""
    return path[: -len(".py")].replace("/", ".").removesuffix(".__init__")


def _compiled(data: bytes, name: str, optimize: int) -> bytes:
    """A sourceless .pyc: magic, flags 0b01 (hash-based, never checked), unused hash, code."""
    code = compile(data, name, "exec", dont_inherit=True, optimize=optimize)
    return importlib.util.MAGIC_NUMBER + (1).to_bytes(4, "little") + bytes(8) + marshal.dumps(code)


def main(source: str, target: str, extra_modules: str, date_time: str) -> int:
    """Write `target`: the imported modules of the stdlib zip `source`, compiled; return how many.

    extra_modules and date_time are JSON: a list of module names, a zip timestamp (6 integers).
    """
    trace_site_imports(json.loads(extra_modules))
    stamp, kept = tuple(json.loads(date_time)), 0
    with zipfile.ZipFile(source) as full, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as out:
        for info in sorted(full.infolist(), key=lambda i: i.filename):
            if info.is_dir() or (info.filename.endswith(".py") and module_name(info.filename) not in sys.modules):
                continue
            data, name = full.read(info), info.filename
            if name.endswith(".py"):
                # Docstrings go (optimize=2), except in modules that call string methods on them:
                # email's policies build docstrings from their bases' at import.
                optimize = 0 if re.search(rb"__doc__\.\w+\(", data) else 2
                data, name, kept = _compiled(data, name, optimize), name + "c", kept + 1
            out.writestr(zipfile.ZipInfo(name, stamp), data, compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
    return kept


def _record_line(name: str, data: bytes) -> str:
    """A wheel RECORD row: path, urlsafe-base64 sha256 without padding, size."""
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def compile_wheel(source: str, target: str, date_time: str, left_out: str) -> int:
    """Write `target`: the wheel `source` without the files matching the `left_out` patterns (JSON list), each
    module (.py outside .dist-info) replaced by its sourceless .pyc, everything else verbatim and the RECORD listing
    the new files; return how many modules were compiled.
    Docstrings and asserts stay (optimize=0): numpy's dispatch decorators read docstrings at import."""
    stamp, compiled, rows, patterns = tuple(json.loads(date_time)), 0, [], json.loads(left_out)
    with zipfile.ZipFile(source) as wheel, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as out:
        members = [
            info
            for info in wheel.infolist()
            if not info.is_dir() and not any(fnmatch.fnmatch(info.filename, p) for p in patterns)
        ]
        record = next(info.filename for info in members if info.filename.endswith(".dist-info/RECORD"))
        for info in members:
            if info.filename == record:
                continue
            data, name = wheel.read(info), info.filename
            if name.endswith(".py") and ".dist-info/" not in name:
                data, name, compiled = _compiled(data, name, 0), name + "c", compiled + 1
            out.writestr(zipfile.ZipInfo(name, stamp), data, compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
            rows.append(_record_line(name, data))
        rows.append(f"{record},,")
        out.writestr(zipfile.ZipInfo(record, stamp), "\n".join(rows) + "\n", compress_type=zipfile.ZIP_DEFLATED)
    return compiled
