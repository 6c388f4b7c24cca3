"""The site's stdlib subset (py/sitebuild/bytecode.py): a stdlib module our code imports where the build's trace
does not reach, inside a function, stops the build until EXTRA_MODULES lists it."""

import shutil
import zipfile

import pytest

from tests.site_build import bytecode, config

LAZY_IMPORT = "\n\ndef _lazy_diff(a, b):\n    import difflib\n\n    return list(difflib.ndiff(a, b))\n"


@pytest.fixture
def sources(tmp_path):
    """A copy of our package's sources, as check_imports reads them."""
    copy = tmp_path / config.OUR_PACKAGE
    shutil.copytree(bytecode.OUR_SOURCES, copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def _subset_modules() -> set[str]:
    with zipfile.ZipFile(config.DIST / "pyodide" / config.STDLIB) as subset:
        return {name.removesuffix(".pyc").replace("/", ".") for name in subset.namelist()}


def test_the_shipped_wheel_and_every_stdlib_module_it_imports_import_from_the_subset(sources):
    bytecode.check_imports(config.DIST / "pyodide", sources)  # what every build runs: it passes


def test_a_lazy_import_of_a_stdlib_module_outside_the_subset_stops_the_build_naming_it(sources, capfd):
    assert "difflib" not in _subset_modules() and "difflib" not in bytecode.EXTRA_MODULES
    handler = sources / "handlers" / "runtime.py"
    line = len(handler.read_text().splitlines()) + 4  # where LAZY_IMPORT's import lands
    handler.write_text(handler.read_text() + LAZY_IMPORT)
    with pytest.raises(SystemExit) as stopped:
        bytecode.check_imports(config.DIST / "pyodide", sources)
    assert f"ptrnet/handlers/runtime.py:{line}: difflib (no module 'difflib')" in capfd.readouterr().err
    assert "EXTRA_MODULES in py/sitebuild/bytecode.py" in str(stopped.value.code)
