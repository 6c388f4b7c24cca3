"""The site's modules ship as esbuild's bundles (py/sitebuild/scripts.py): entries at their own addresses, no
module left behind, every address a bundle asks for present, and a build that stops where one would be lost."""

import re

import pytest

from tests.site_build import config, scripts

DIST_JS = [config.DIST / "embed.js", *sorted((config.DIST / "js").rglob("*.js"))]
# Relative addresses in a bundle: static and dynamic imports, and files found from the module's own address.
IMPORTED = re.compile(r"""(?:from|import\(?)\s*"(\.\.?/[^"]+)"|new URL\("([^"]*)", import\.meta\.url\)""")


def test_every_entry_ships_at_its_own_address_and_no_source_module_ships_beside_them():
    entries = {"js/main.js", "js/embed-page.js", "js/embed-guide.js", *scripts.OTHER_ENTRIES}
    assert set(scripts.page_entries(config.DIST)) == {"js/main.js", "js/embed-page.js", "js/embed-guide.js"}
    shipped = {p.relative_to(config.DIST).as_posix() for p in DIST_JS}
    sources = {p.relative_to(config.SITE).as_posix() for p in (config.SITE / "js").rglob("*.js")} | {"embed.js"}
    assert entries <= shipped
    assert shipped & sources == entries  # the other modules live inside the bundles
    assert len(shipped) < len(sources) / 2


def test_every_address_a_bundle_asks_for_is_a_file_of_the_built_site():
    asked = 0
    for bundle in DIST_JS:
        for found in IMPORTED.findall(bundle.read_text(encoding="utf-8")):
            target = (bundle.parent / next(filter(None, found))).resolve()
            assert target.is_relative_to(config.DIST) and target.exists(), f"{bundle.name} asks for {target}"
            asked += 1
    assert asked > 20


def test_the_bundles_keep_korean_text_as_written():
    worker = (config.DIST / "js" / "runtime" / "worker.js").read_text(encoding="utf-8")
    assert "파이썬을 불러오지 못했습니다" in worker and "\\u" not in worker


def _site(tmp_path, shared_folder):
    """A two-page site whose pages share a module in `shared_folder` that finds a file from its own address."""
    site, dist = tmp_path / "site", tmp_path / "dist"
    for folder in (site / "js" / shared_folder, dist / "js"):
        folder.mkdir(parents=True, exist_ok=True)
    (site / "embed.js").write_text("export const embedded = 1;\n")
    (site / "js" / shared_folder / "shared.js").write_text(
        'export const helper = new URL("./helper.js", import.meta.url);\n'
    )
    (site / "js" / shared_folder / "helper.js").write_text("postMessage(1);\n")
    for page in ("a", "b"):
        (site / "js" / f"{page}.js").write_text(
            f'import {{ helper }} from "./{shared_folder}/shared.js";\nconsole.log("{page}", helper.href);\n'
        )
        (dist / f"{page}.html").write_text(f'<script type="module" src="js/{page}.js"></script>\n')
    (dist / "embed.js").write_text("")
    return site, dist


@pytest.mark.parametrize("shared_folder", ["runtime", "lib"])
def test_the_build_stops_where_a_module_that_finds_files_from_its_address_would_move(
    tmp_path, monkeypatch, shared_folder
):
    site, dist = _site(tmp_path, shared_folder)
    monkeypatch.setattr(scripts, "SITE", site)
    monkeypatch.setattr(scripts, "OTHER_ENTRIES", ["embed.js", f"js/{shared_folder}/helper.js"])
    if shared_folder == "runtime":  # where the shared chunks go: its address still finds the helper
        outputs = scripts.bundle_scripts(dist)
        chunk = next(p for p in outputs if "chunk-" in p.name)
        assert (
            chunk.parent == dist / "js" / "runtime" and 'new URL("./helper.js", import.meta.url)' in chunk.read_text()
        )
    else:
        with pytest.raises(SystemExit, match="shared.js finds files from its own address"):
            scripts.bundle_scripts(dist)
