"""The site's stdlib subset (py/sitebuild/bytecode.py): derived, not listed by hand, from every module the worker's
requests import when answered (py/sitebuild/worker_imports.py) and every stdlib import in our code; it suffices for
every request in the shipped Pyodide, and a subset that lacks a module our code imports stops the build naming it."""

import json
import os
import shutil
import subprocess
import zipfile

import pytest

from tests.site_build import bytecode, config

PYODIDE = config.DIST / "pyodide"
FULL_STDLIB = PYODIDE / config.STDLIB_FULL
# Answers every example request of worker_imports.py in the shipped Pyodide, whose stdlib is the subset only, with
# the trained weights written where the worker writes them once fetched; prints the modules then imported (JSON).
RUN_EXAMPLES = """
import { readFileSync, readdirSync } from "node:fs";
const { PYODIDE, PROGRAM, MODELS } = process.env;
const { loadPyodide } = await import(`${PYODIDE}/pyodide.mjs`);
const pyodide = await loadPyodide({ indexURL: `${PYODIDE}/` });
await pyodide.loadPackage("ptrnet", { messageCallback: () => {} });
const data = pyodide.runPython("from importlib import resources; str(resources.files('ptrnet') / 'data')");
for (const name of readdirSync(MODELS)) pyodide.FS.writeFile(`${data}/${name}`, readFileSync(`${MODELS}/${name}`));
pyodide.FS.writeFile("/tmp/worker_imports.py", readFileSync(PROGRAM));
try {
  pyodide.runPython("import sys; sys.path.append('/tmp'); import worker_imports; worker_imports.main('/tmp/found.json')");
} catch (err) {
  console.error(err.message.slice(-2000)); // the traceback's end: which request failed and why
  process.exit(1);
}
console.log(pyodide.FS.readFile("/tmp/found.json", { encoding: "utf8" }));
"""

LAZY_IMPORT = "\n\ndef _lazy_diff(a, b):\n    import difflib\n\n    return list(difflib.ndiff(a, b))\n"


@pytest.fixture
def sources(tmp_path):
    """A copy of our package's sources, as check_imports reads them."""
    copy = tmp_path / config.OUR_PACKAGE
    shutil.copytree(bytecode.OUR_SOURCES, copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def _subset_modules() -> set[str]:
    with zipfile.ZipFile(config.DIST / "pyodide" / config.STDLIB) as subset:
        return {name.removesuffix(".pyc").replace("/", ".").removesuffix(".__init__") for name in subset.namelist()}


def _stdlib_modules() -> set[str]:
    with zipfile.ZipFile(FULL_STDLIB) as stdlib:
        return {bytecode.module_name(name) for name in stdlib.namelist() if name.endswith(".py")}


def test_the_shipped_wheel_and_every_stdlib_module_it_imports_import_from_the_subset(sources):
    bytecode.check_imports(PYODIDE, sources)  # what every build runs: it passes


def test_every_request_the_worker_answers_runs_in_the_shipped_pyodide_on_the_subset_alone():
    env = {
        **os.environ,
        "PYODIDE": str(PYODIDE),
        "PROGRAM": str(bytecode.HERE / "worker_imports.py"),
        "MODELS": str(config.DIST / "models"),
    }
    done = subprocess.run(["node", "--input-type=module", "-e", RUN_EXAMPLES], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]  # a module outside the subset fails its request, naming it
    imported = set(json.loads(done.stdout.strip().splitlines()[-1]))
    assert imported & _stdlib_modules() <= _subset_modules()
    assert {"secrets", "zipfile"} <= imported  # numpy imports them on first use: numpy.random's, np.load's of an .npz


def test_a_module_a_request_imports_at_run_time_only_is_derived(sources):
    handler = sources / "handlers" / "runtime.py"
    assert "encodings.cp1252" not in bytecode.extra_modules(FULL_STDLIB, sources)
    # A codec looked up by name: no import statement that a scan of the sources could find.
    handler.write_text(
        handler.read_text().replace(
            '    return {"numpy": np.__version__', '    "ping".encode("cp1252")\n    return {"numpy": np.__version__'
        )
    )
    assert "encodings.cp1252" in bytecode.extra_modules(FULL_STDLIB, sources)


def test_a_handler_without_an_example_request_stops_the_build_naming_it(sources, capfd):
    handler = sources / "handlers" / "runtime.py"
    handler.write_text(
        handler.read_text() + '\n\n@handler("runtime", "echo")\ndef _echo(params: dict) -> dict:\n    return params\n'
    )
    with pytest.raises(SystemExit):
        bytecode.extra_modules(FULL_STDLIB, sources)
    assert "No example request for [('runtime', 'echo')]" in capfd.readouterr().err


def test_a_lazy_import_of_a_stdlib_module_outside_the_subset_stops_the_build_naming_it(sources, capfd):
    assert "difflib" not in _subset_modules()
    handler = sources / "handlers" / "runtime.py"
    line = len(handler.read_text().splitlines()) + 4  # where LAZY_IMPORT's import lands
    handler.write_text(handler.read_text() + LAZY_IMPORT)
    with pytest.raises(SystemExit) as stopped:
        bytecode.check_imports(PYODIDE, sources)
    assert f"ptrnet/handlers/runtime.py:{line}: difflib (no module 'difflib')" in capfd.readouterr().err
    assert "rebuild from these sources" in str(stopped.value.code)
