"""The built pages: relative URLs, the service worker's list, generated facts, tables and JS modules, shared heads."""

import json
import shutil
from html import escape as html_escape
from html.parser import HTMLParser
from urllib.parse import urlparse

import pytest

from ptrnet import limits
from ptrnet.prelude import lm
from tests.site_build import config, pages

ROOT = config.ROOT


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
    (copy / "js" / "main.js").write_text((copy / "js" / "main.js").read_text() + "\n// changed\n")
    shutil.copyfile(config.SITE / "sw.js", copy / "sw.js")
    pages.write_service_worker()
    new_version, new_assets = _service_worker_version(copy)
    assert new_assets == assets
    assert new_version != version


def test_the_companion_page_shows_our_measured_results_from_the_json():
    from training.reports import tables

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
    from training.reports import facts

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


def test_the_generated_modules_are_what_python_generates_now():
    from sitebuild import page_constants

    for name, text in pages.generated_modules().items():
        assert (ROOT / name).read_text(encoding="utf-8") == text, f"{name}: run `python3 build.py constants`"
    written = (ROOT / page_constants.GENERATED).read_text(encoding="utf-8")
    assert page_constants.page_constants()["points"]["max"] == limits.HELD_KARP_MAX
    assert f'"maxTokens": {lm.MAX_TOKENS}' in written and f'"gates": "{lm.GATES}"' in written


@pytest.mark.parametrize(
    ("stale_name", "old", "new"),
    [
        ("site/js/generated/constants.js", '"max": 12', '"max": 13'),
        ("site/js/generated/demos.js", '"number": "3-2"', '"number": "3b"'),
        ("site/js/demos/index.js", "  slots,\n", ""),
    ],
)
def test_a_stale_generated_module_stops_the_build_with_the_command_that_fixes_it(
    tmp_path, monkeypatch, stale_name, old, new
):
    fresh = pages.generated_modules()
    for name, text in fresh.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text.replace(old, new) if name == stale_name else text, encoding="utf-8")
    assert (tmp_path / stale_name).read_text(encoding="utf-8") != fresh[stale_name]
    monkeypatch.setattr(pages, "ROOT", tmp_path)
    with pytest.raises(SystemExit, match=f"{stale_name} .*python3 build.py constants"):
        pages.check_constants()
    pages.write_constants()
    pages.check_constants()
    assert (tmp_path / stale_name).read_text(encoding="utf-8") == fresh[stale_name]


def test_each_stylesheet_folder_ships_as_one_file_of_its_parts_in_order():
    folders = sorted(p for p in (config.SITE / "css").iterdir() if p.is_dir())
    assert {p.name for p in folders} == {"article", "site"}
    for folder in folders:
        parts = sorted(folder.glob("*.css"))
        assert len(parts) > 1
        shipped = (config.DIST / "css" / f"{folder.name}.css").read_text(encoding="utf-8")
        assert shipped == "\n".join(p.read_text(encoding="utf-8") for p in parts)
        assert not (config.DIST / "css" / folder.name).exists()


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
