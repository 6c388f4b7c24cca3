"""The build: verified official wheels, our wheel in the lock, reproducible output."""

import ast
import fnmatch
import hashlib
import json
import os
import shutil
import subprocess
import sys
import zipfile
from html import escape as html_escape
from html.parser import HTMLParser
from urllib.parse import urlparse

import pytest

from ptrnet import api, handlers
from ptrnet.prelude import lm
from tests.site_build import bytecode, config, pages, pyodide_files, wheel

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


class _Urls(HTMLParser):
    def __init__(self):
        super().__init__()
        self.resources, self.links = [], []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "a" and "href" in attrs:
            self.links.append(attrs["href"])
        elif attrs.get("src") or (tag == "link" and attrs.get("href")):
            self.resources.append(attrs.get("src") or attrs["href"])


def test_every_resource_url_in_the_pages_is_relative():
    for page in config.DIST.glob("*.html"):
        urls = _Urls()
        urls.feed(page.read_text())
        assert urls.resources, page.name
        for url in urls.resources:
            assert not urlparse(url).scheme and not url.startswith("/"), f"{page.name} loads {url}"
        for url in urls.links:  # links may leave the site, but never by a root-absolute path
            assert not url.startswith("/"), f"{page.name} links to {url}"


def _service_worker_version(dist):
    text = (dist / "sw.js").read_text()
    return json.loads(text.split("const VERSION = ")[1].split(";")[0]), json.loads(
        text.split("const ASSETS = ")[1].split(";")[0]
    )


def test_the_service_worker_caches_every_file_but_the_on_demand_ones_and_changes_version_with_any_file(
    tmp_path, monkeypatch
):
    version, assets = _service_worker_version(config.DIST)
    files = {
        p.relative_to(config.DIST).as_posix()
        for p in config.DIST.rglob("*")
        if p.is_file() and not p.name.startswith(".")
    }
    # Every trained model is fetched when a demo that runs it comes near the screen, not up front.
    models = {f for f in files if f.startswith("models/")}
    on_demand = (
        {f for f in files if f.startswith("vendor/katex/fonts/")}
        | {"pyodide/python_stdlib_full.zip", "pyodide/pyodide.js"}
        | models
    )
    assert models == {f"models/{p.name}" for p in config.MODEL_DATA.glob("*.npz")} and len(models) >= 4
    assert len(on_demand) > 10 and on_demand <= files
    assert set(assets) == files - {"sw.js"} - on_demand
    assert {
        "index.html",
        "pyodide/python_stdlib.zip",
        "pyodide/numpy-2.0.2-cp312-cp312-pyodide_2024_0_wasm32.whl",
    } <= set(assets)
    copy = tmp_path / "dist"
    shutil.copytree(config.DIST, copy)
    monkeypatch.setattr(pages, "DIST", copy)
    (copy / "js" / "config.js").write_text((copy / "js" / "config.js").read_text() + "\n// changed\n")
    shutil.copyfile(config.SITE / "sw.js", copy / "sw.js")
    pages.write_service_worker()
    new_version, new_assets = _service_worker_version(copy)
    assert new_assets == assets
    assert new_version != version


def test_the_companion_page_shows_our_measured_results_from_the_json():
    from training import tables

    html = (config.DIST / "three-problems.html").read_text()
    for task in pages.RESULTS_CAPTIONS:
        for placeholder in (pages.RESULTS_PLACEHOLDER, pages.FULL_RESULTS_PLACEHOLDER):
            assert placeholder.format(task=task) not in html
        res = json.loads((config.RECORDS / f"{task}_results.json").read_text())
        for brief in (True, False):
            rows = tables.markdown_rows(res, brief=brief)
            for row in rows[1:]:
                assert "".join(f"<td>{html_escape(v)}</td>" for v in row[1:]) in html
        # the full table, with the symmetry vote and the set sizes, sits in a collapsed implementation note
        full = html.split(f'id="table-{task}-ours-full"')[0].rsplit("<details", 1)[1]
        assert full.startswith(' class="impl-note"') and "</details>" not in full
        assert len(tables.markdown_rows(res, brief=True)[0]) < len(tables.markdown_rows(res)[0])
    assert "data-fact=" in html and not pages.FACT.search(html)  # every fact filled in


def test_an_unknown_fact_or_a_missing_results_json_stops_the_build(tmp_path, monkeypatch):
    from training import facts

    known = facts.page_facts()
    page = '<p><span class="fact" data-fact="hull.ptrnet.greedy.accuracy.n50"></span></p>'
    assert pages.fill_facts(page, known, "x.html") == page.replace(
        "></span>", f">{known['hull.ptrnet.greedy.accuracy.n50']}</span>"
    )
    with pytest.raises(SystemExit, match="unknown fact 'hull.ptrnet.greedy.accuracy.n51'"):
        pages.fill_facts(page.replace("n50", "n51"), known, "x.html")
    with pytest.raises(SystemExit, match="not an empty"):
        pages.fill_facts('<span class="fact" data-fact="hull.ptrnet.steps">9</span>', known, "x.html")
    for name, folder in (("hull_results.json", "RECORDS"), ("tsp_model_card.json", "MODEL_DATA")):
        data = tmp_path / name.split("_")[0]
        shutil.copytree(getattr(config, folder), data, ignore=shutil.ignore_patterns("*.npz"))
        (data / name).unlink()
        monkeypatch.setattr(pages, folder, data)
        (tmp_path / "page.html").write_text(page)
        with pytest.raises(SystemExit, match=f"{name} is missing"):
            pages.write_facts(tmp_path)
        monkeypatch.undo()
    with pytest.raises(SystemExit, match="hull_results.json is missing"):
        monkeypatch.setattr(pages, "RECORDS", tmp_path / "hull")
        pages.results_table("hull")


def test_the_generated_constants_module_is_what_python_generates_now():
    from sitebuild import page_constants

    written = (ROOT / page_constants.GENERATED).read_text(encoding="utf-8")
    assert written == page_constants.module_text(), "run `python3 build.py constants`"
    assert page_constants.page_constants()["points"]["max"] == api.MAX_TSP_POINTS
    assert f'"maxTokens": {lm.MAX_TOKENS}' in written and f'"gates": "{lm.GATES}"' in written


def test_a_stale_constants_module_stops_the_build_with_the_command_that_fixes_it(tmp_path, monkeypatch):
    from sitebuild import page_constants

    stale = tmp_path / page_constants.GENERATED
    stale.parent.mkdir(parents=True)
    stale.write_text(page_constants.module_text().replace('"max": 12', '"max": 13'), encoding="utf-8")
    monkeypatch.setattr(pages, "ROOT", tmp_path)
    with pytest.raises(SystemExit, match="python3 build.py constants"):
        pages.check_constants()
    pages.write_constants()
    pages.check_constants()
    assert stale.read_text(encoding="utf-8") == page_constants.module_text()


def test_each_stylesheet_folder_ships_as_one_file_of_its_parts_in_order():
    folders = sorted(p for p in (config.SITE / "css").iterdir() if p.is_dir())
    assert {p.name for p in folders} == {"article", "site"}
    for folder in folders:
        parts = sorted(folder.glob("*.css"))
        assert len(parts) > 1
        shipped = (config.DIST / "css" / f"{folder.name}.css").read_text(encoding="utf-8")
        assert shipped == "\n".join(p.read_text(encoding="utf-8") for p in parts)
        assert not (config.DIST / "css" / folder.name).exists()


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


def test_the_pages_workflow_runs_the_cpython_tests_before_it_deploys():
    workflow = (ROOT / ".github" / "workflows" / "pages.yml").read_text()
    test_job, build_job = workflow.split("\n  test:\n")[1].split("\n  build:\n")
    assert "pytest tests/py" in test_job
    assert "needs: test" in build_job.split("\n  deploy:\n")[0]


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


def test_every_page_gets_the_one_shared_head_and_only_the_embed_guide_allows_frames(tmp_path):
    from sitebuild import heads

    for page in sorted(config.DIST.glob("*.html")):
        html = page.read_text(encoding="utf-8")
        source = (config.SITE / page.name).read_text(encoding="utf-8")
        frames = page.name == "embed-guide.html"
        assert heads.shared_head(frames) in html and "ptrnet:head" not in html, page.name
        assert html.count("Content-Security-Policy") == 1 and "Content-Security-Policy" not in source
    (tmp_path / "x.html").write_text("<head></head>")
    with pytest.raises(SystemExit, match="exactly one"):
        heads.write_heads(tmp_path)
