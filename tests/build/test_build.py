"""The build: verified official wheels, our wheel in the lock, the precompiled stdlib, reproducible output."""

import ast
import fnmatch
import hashlib
import json
import os
import shutil
import subprocess
import sys
import zipfile

import pytest

from ptrnet import handlers
from tests.site_build import bytecode, config, pyodide_files, wheel

ROOT = config.ROOT
LOCK = config.DIST / "pyodide" / "pyodide-lock.json"


def sha256(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def official_wheel(package):
    """The official Pyodide wheel of `package`, as the build verified it (its cache, before compiling)."""
    lock = pyodide_files.official_lock()
    return pyodide_files.fetch_package_files(lock, None) / lock["packages"][package]["file_name"]


@pytest.fixture
def official_numpy(tmp_path):
    """A private copy of the official numpy wheel in a folder the build can be pointed at."""
    source = official_wheel("numpy")
    shutil.copyfile(source, tmp_path / source.name)
    return tmp_path / source.name


def run_build(*args):
    return subprocess.run(
        [sys.executable, str(ROOT / "build.py"), "build", *args], cwd=ROOT, capture_output=True, text=True
    )


def test_a_corrupted_numpy_wheel_stops_the_build_with_a_message(official_numpy):
    data = bytearray(official_numpy.read_bytes())
    data[len(data) // 2] ^= 0xFF
    official_numpy.write_bytes(bytes(data))
    before = sha256(LOCK)
    result = run_build("--packages-dir", str(official_numpy.parent))
    assert result.returncode != 0
    assert "does not match the official Pyodide 0.27.7 lock" in result.stderr
    assert official_numpy.name in result.stderr
    assert sha256(LOCK) == before  # dist/ was left alone


def test_a_missing_numpy_wheel_stops_the_build_with_a_message(official_numpy):
    official_numpy.unlink()
    result = run_build("--packages-dir", str(official_numpy.parent))
    assert result.returncode != 0
    assert "missing Pyodide package file" in result.stderr


def test_the_site_lock_lists_our_package_with_numpy_and_true_hashes():
    lock = json.loads(LOCK.read_text())
    assert lock["info"]["version"] == "0.27.7"
    assert lock["packages"]["ptrnet"]["depends"] == ["numpy"]
    assert lock["packages"]["numpy"]["version"] == "2.0.2"
    for entry in lock["packages"].values():
        assert sha256(config.DIST / "pyodide" / entry["file_name"]) == entry["sha256"]


def _pyc_header(stdlib_zip):
    """The 16-byte header our precompiled stdlib's modules share (Pyodide's CPython 3.12 magic, flags 0b01)."""
    with zipfile.ZipFile(stdlib_zip) as z:
        return z.read("os.pyc")[:16]


def test_the_shipped_numpy_wheel_is_the_official_one_with_its_modules_compiled_and_unused_files_left_out():
    official = zipfile.ZipFile(official_wheel("numpy"))
    name = pyodide_files.official_lock()["packages"]["numpy"]["file_name"]
    shipped = zipfile.ZipFile(config.DIST / "pyodide" / name)
    header = _pyc_header(config.DIST / "pyodide" / config.STDLIB)
    left_out = {n for n in official.namelist() if any(fnmatch.fnmatch(n, p) for p in config.WHEEL_LEFT_OUT)}
    assert "numpy/f2py/__init__.py" in left_out and not any("_multiarray_umath" in n for n in left_out)
    kept = set(official.namelist()) - left_out
    modules = {n for n in kept if n.endswith(".py") and ".dist-info/" not in n}
    assert len(modules) > 100 and "numpy/__init__.py" in modules
    assert set(shipped.namelist()) == (kept - modules) | {n + "c" for n in modules}
    record = next(n for n in shipped.namelist() if n.endswith(".dist-info/RECORD"))
    for member in shipped.namelist():
        data = shipped.read(member)
        if member.endswith(".pyc"):
            assert data[:16] == header, member  # compiled by Pyodide's own Python, never checked against a source
        elif member != record:
            assert data == official.read(member), member  # libraries and data byte for byte
    listed = {line.split(",")[0] for line in shipped.read(record).decode().splitlines() if line}
    assert listed == set(shipped.namelist())


def test_the_pyodide_core_is_the_npm_package_verbatim_with_the_official_stdlib_kept_as_the_full_one():
    for name in config.CORE_FILES:
        shipped = config.STDLIB_FULL if name == config.STDLIB else name
        assert sha256(config.DIST / "pyodide" / shipped) == sha256(config.NPM_PYODIDE / name)


def test_our_stdlib_is_precompiled_bytecode_of_official_modules_and_much_smaller():
    ours = zipfile.ZipFile(config.DIST / "pyodide" / config.STDLIB)
    full = zipfile.ZipFile(config.DIST / "pyodide" / config.STDLIB_FULL)
    compiled = [i for i in ours.infolist() if i.filename.endswith(".pyc")]
    assert not any(i.filename.endswith(".py") for i in ours.infolist())
    # Each .pyc stands for an official module; all share one header: CPython 3.12's magic
    # number, then flags 0b01 (hash-based, unchecked: no source to compare with).
    assert {i.filename[:-1] for i in compiled} <= set(full.namelist())
    headers = {ours.read(i)[:8] for i in compiled}
    assert len(headers) == 1 and headers.pop()[4:8] == (1).to_bytes(4, "little")
    for module in [
        "os.pyc",
        "encodings/utf_8.pyc",
        "json/__init__.pyc",
        "importlib/resources/readers.pyc",
        "_pyodide/_base.pyc",
        "asyncio/__init__.pyc",
        "fractions.pyc",
    ]:
        assert module in ours.namelist(), module
    for left_out in ["unittest/__init__.py", "xml/dom/minidom.py", "pydoc.py"]:
        assert left_out in full.namelist() and left_out + "c" not in ours.namelist()
    size = (config.DIST / "pyodide" / config.STDLIB).stat().st_size
    assert size < 0.6 * (config.DIST / "pyodide" / config.STDLIB_FULL).stat().st_size


def test_the_precompiled_stdlib_and_wheels_build_reproducibly(tmp_path):
    copy = tmp_path / "pyodide"
    shutil.copytree(config.DIST / "pyodide", copy)
    (copy / config.STDLIB).unlink()
    (copy / config.STDLIB_FULL).rename(copy / config.STDLIB)
    numpy = official_wheel("numpy")
    shutil.copyfile(numpy, copy / numpy.name)
    ours = next(copy.glob("ptrnet-*.whl"))
    shutil.copyfile(wheel.split_off_models(wheel.build_wheel(), tmp_path / "models"), ours)
    bytecode.precompile(copy, [copy / numpy.name, ours])
    for name in [config.STDLIB, numpy.name, ours.name]:
        assert sha256(copy / name) == sha256(config.DIST / "pyodide" / name), name


def test_the_site_wheel_leaves_the_trained_weights_to_dist_models_with_a_consistent_record():
    site_wheel = zipfile.ZipFile(next((config.DIST / "pyodide").glob("ptrnet-*.whl")))
    names = site_wheel.namelist()
    assert "ptrnet/pointer/lstm_ptr.pyc" in names and "ptrnet/data/hull_model_card.json" in names
    assert not [n for n in names if n.endswith(".npz")]
    record = next(n for n in names if n.endswith(".dist-info/RECORD"))
    listed = {line.split(",")[0] for line in site_wheel.read(record).decode().splitlines() if line}
    assert listed == set(names)
    package_data = ROOT / "py" / "src" / "ptrnet" / "data"
    shipped = sorted(p.name for p in package_data.glob("*.npz"))
    assert {"hull_ptrnet.npz", "hull_seq2seq.npz"} <= set(shipped)
    assert sorted(p.name for p in (config.DIST / "models").iterdir()) == shipped
    for model in shipped:
        assert sha256(config.DIST / "models" / model) == sha256(package_data / model)


def test_our_wheel_builds_reproducibly():
    first = sha256(wheel.build_wheel())
    second = sha256(wheel.build_wheel())
    assert first == second


def test_the_site_wheel_is_the_package_the_worker_imports_and_nothing_else():
    """Every module in the site's wheel is reached from ptrnet.api by imports (the worker's entry point), and its
    data are the package's files without the weights: no trainer, evaluation or record ships."""
    site_wheel = next((config.DIST / "pyodide").glob("ptrnet-*.whl"))
    with zipfile.ZipFile(site_wheel) as z:
        # Modules ship compiled: name each by its source.
        names = {n.removesuffix("c") if n.endswith(".pyc") else n for n in z.namelist()}
        names = {n for n in names if not n.split("/")[0].endswith(".dist-info")}
    package = config.PY_PROJECT / "src"
    tracked = {
        str(p.relative_to(package))
        for p in (package / "ptrnet").rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }
    assert names == {n for n in tracked if not n.endswith(".npz")}
    sources = {n: (package / n).read_text() for n in names if n.endswith(".py")}
    modules = {n.removesuffix(".py").removesuffix("/__init__").replace("/", "."): src for n, src in sources.items()}
    reached, todo = set(), ["ptrnet.api", *(f"ptrnet.handlers.{family}" for family in handlers.FAMILIES)]
    while todo:
        name = todo.pop()
        if name in reached or name not in modules:
            continue
        reached.add(name)
        for node in ast.walk(ast.parse(modules[name])):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("ptrnet"):
                todo += [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            elif isinstance(node, ast.Import):
                todo += [a.name for a in node.names if a.name.startswith("ptrnet")]
    packages = {m for m in modules if f"{m.replace('.', '/')}/__init__.py" in names}
    assert set(modules) - packages - reached == set()
    assert {"ptrnet.pointer.decoding", "ptrnet.geometry.hull", "ptrnet.handlers.models"} <= reached


def test_the_pages_workflow_runs_the_cpython_tests_and_the_browser_smoke_set_before_it_deploys():
    workflow = (ROOT / ".github" / "workflows" / "pages.yml").read_text()
    test_job, build_job = workflow.split("\n  test:\n")[1].split("\n  build:\n")
    assert "pytest tests/py" in test_job
    assert "pytest tests/browser -m smoke" in test_job.split("npm run build")[1]  # on the site just built
    assert "needs: test" in build_job.split("\n  deploy:\n")[0]
    listed = subprocess.run(
        [sys.executable, "-m", "pytest", "tests/browser", "-m", "smoke", "--collect-only", "-q"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    ).stdout
    smoke = {line.split("::")[1] for line in listed.splitlines() if "::" in line}
    # Both start paths: the fast one (fresh, then from the snapshot) and the plain one.
    assert {
        "test_every_page_starts_fast_fresh_then_from_the_snapshot_and_its_demos_answer",
        "test_another_pyodide_takes_the_plain_start_answers_and_stores_nothing",
    } <= smoke


@pytest.mark.slow  # the whole of tests/py again: several minutes
def test_the_cpython_tests_pass_on_a_clone_in_an_unrelated_folder(tmp_path):
    """No test reads outside the repository (the paper's files are in tests/data): a bare clone suffices."""
    clone = tmp_path / "elsewhere" / "clone"
    subprocess.run(["git", "clone", "--quiet", "--no-hardlinks", str(ROOT), str(clone)], check=True)
    assert not (clone.parent.parent / "shared").exists()
    env = {**os.environ, "PYTHONPATH": str(clone / "py" / "src")}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "tests/py", "-q", "-x", "-p", "no:cacheprovider"],
        cwd=clone,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert " passed" in done.stdout
