"""The built pages' shared frame (py/sitebuild/chrome.py): one site header whose navigation reaches both article
pages and the embed guide from each of them, and every demo of ptrnet.manifest once, captioned, on its own page."""

import shutil
from collections import Counter
from html.parser import HTMLParser

import pytest

from ptrnet import manifest
from tests.site_build import config

SITE_PAGES = ["index.html", "three-problems.html", "embed-guide.html"]  # the reader's pages; embed.html is a frame


class _Page(HTMLParser):
    """What a test reads of a built page: its navigation links, its demos and their captions."""

    def __init__(self):
        super().__init__()
        self.nav, self.current, self.demos, self.frames, self.captions = [], [], [], [], {}
        self._in_nav = False
        self._caption: str | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "nav" and attrs.get("class") == "site-nav":
            self._in_nav = True
        elif tag == "a" and self._in_nav:
            self.nav.append(attrs["href"])
            if attrs.get("aria-current") == "page":
                self.current.append(attrs["href"])
        elif tag == "figure" and attrs.get("class") == "demo-frame":
            self.frames.append(attrs["id"])
        elif tag == "figcaption" and attrs.get("class") == "demo-caption":
            self._caption = ""
        if "data-demo" in attrs:
            self.demos.append(attrs["data-demo"])

    def handle_endtag(self, tag):
        if tag == "nav":
            self._in_nav = False
        elif tag == "figcaption" and self._caption is not None:
            self.captions[self.frames[-1]] = self._caption
            self._caption = None

    def handle_data(self, data):
        if self._caption is not None:
            self._caption += data


def _read(path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def test_every_page_of_the_site_links_every_other_and_marks_its_own_link():
    for name in SITE_PAGES:
        page = _read(config.DIST / name)
        assert page.nav == SITE_PAGES and page.current == [name], name
        html = (config.DIST / name).read_text(encoding="utf-8")
        assert html.count('<a class="skip-link" href="#main">') == 1 and html.count('<main id="main"') == 1
    assert _read(config.DIST / "embed.html").nav == []
    for name in SITE_PAGES:  # the sources keep only their own content
        source = (config.SITE / name).read_text(encoding="utf-8")
        assert "site-header" not in source and "data-demo=" not in source and "<html" not in source, name


def test_every_demo_stands_once_on_its_page_with_the_manifests_caption():
    placed = {name: _read(config.DIST / name) for name in SITE_PAGES + ["embed.html"]}
    assert {name: Counter(page.demos) for name, page in placed.items() if page.demos} == {
        name: Counter(demo.id for demo in manifest.DEMOS if demo.page == name)
        for name in {demo.page for demo in manifest.DEMOS}
    }
    for demo in manifest.DEMOS:
        page = placed[demo.page]
        assert page.frames[page.demos.index(demo.id)] == f"demo-{demo.number}"
        assert page.captions[f"demo-{demo.number}"] == f"데모 {demo.number} · {demo.title}"


@pytest.fixture
def site_copy(tmp_path):
    """The page sources, as the build copies them to dist/ before writing their frames."""
    for path in config.SITE.glob("*.html"):
        shutil.copyfile(path, tmp_path / path.name)
    return tmp_path


@pytest.mark.parametrize(
    ("page", "old", "new", "complaint"),
    [
        ("index.html", "demo sequences -->", "demo sequence -->", "'sequence' is not in ptrnet.manifest"),
        ("index.html", "<!-- ptrnet:demo slots -->", "", "stands once on its page"),
        ("index.html", "<!-- ptrnet:demo slots -->", "<!-- ptrnet:demo slots -->\n<!-- ptrnet:demo slots -->", "once"),
        ("index.html", "<!-- ptrnet:demo slots -->", "<!-- ptrnet:demo experiments -->", "belongs on three-problems"),
        ("embed-guide.html", "<main>\n", "", "not a page source"),
        ("embed.html", "<!-- ptrnet:head -->", "<!-- ptrnet:page -->", "does not name"),
    ],
)
def test_a_demo_or_page_that_does_not_fit_the_manifest_stops_the_build(site_copy, page, old, new, complaint):
    from sitebuild import chrome

    text = (site_copy / page).read_text(encoding="utf-8")
    assert old in text
    (site_copy / page).write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(SystemExit, match=complaint):
        chrome.write_pages(site_copy)
