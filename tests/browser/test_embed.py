"""Embedding on another origin: <ptr-demo> elements sharing one worker, and the iframe embed."""

import json

import pytest

from ptrnet.geometry.notation import hull_sequence
from tests.browser.conftest import canvas_points, drag, out_value
from tests.harness import serving, url_of

HOSTILE_CSS = """
* { color: red !important; font-size: 31px !important; letter-spacing: 3px; }
canvas, button { display: none !important; }
.demo, .demo-toolbar { border: 9px solid lime; }
"""

HOST_PAGE = """<!DOCTYPE html>
<html lang="ko"><head><meta charset="utf-8"><title>다른 사이트의 글</title><link rel="icon" href="data:,">
<style>{css}</style>
<script type="module" src="{site}embed.js"></script>
<script src="{site}embed-host.js"></script>
</head><body>
<h1>남의 블로그 글</h1>
<ptr-demo id="seq" name="sequences" points="0.1,0.1_0.9,0.1_0.9,0.9_0.1,0.9_0.5,0.5"></ptr-demo>
<ptr-demo id="trainer" name="sort-trainer" seed="7" mask="1" colour="blue"></ptr-demo>
<ptr-demo id="evil" name="sequences" points="&lt;img src=x onerror=alert(1)&gt;"></ptr-demo>
<ptr-demo id="huge" name="slots" n="1e9"></ptr-demo>
<ptr-demo id="unknown" name="&lt;b&gt;nope&lt;/b&gt;"></ptr-demo>
<iframe id="frame" data-ptrnet-embed title="포인터 네트워크 데모" src="{site}embed.html#demo=three-problems" style="width:100%;height:150px;border:0"></iframe>
</body></html>"""


@pytest.fixture(scope="session")
def host_url(site_url, tmp_path_factory):
    """A page on a second origin (another port) that embeds our demos."""
    folder = tmp_path_factory.mktemp("host")
    (folder / "index.html").write_text(HOST_PAGE.format(css=HOSTILE_CSS, site=site_url), encoding="utf-8")
    with serving(folder, site=False) as server:
        yield url_of(server, "/index.html")


@pytest.fixture
def host(page, host_url):
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    warnings = []
    page.on("console", lambda m: m.type == "warning" and warnings.append(m.text))
    page.goto(host_url)
    page.wait_for_function(
        "() => [...document.querySelectorAll('ptr-demo[name=sequences], ptr-demo[name=sort-trainer], ptr-demo[name=slots]')]"
        ".every((el) => el.dataset.python === 'ready' && el.shadowRoot.querySelector('[data-demo]').dataset.state === 'idle')",
        timeout=90_000,
    )
    page.dialogs, page.warnings = dialogs, warnings
    return page


def test_script_embeds_reach_ready_on_another_origin_with_one_shared_worker(host):
    blob_workers = [w.url for w in host.workers if w.url.startswith("blob:")]
    assert len(blob_workers) == 1  # the three <ptr-demo> demos share one runtime
    assert host.evaluate(
        "() => new URL(document.querySelector('ptr-demo').shadowRoot.querySelector('link').href).origin"
    ) != host.evaluate("() => location.origin")
    assert out_value(host, "sequences", "hull") is not None
    assert json.loads(host.get_attribute("#seq [data-demo] canvas", "data-points")) == [
        [0.1, 0.1],
        [0.9, 0.1],
        [0.9, 0.9],
        [0.1, 0.9],
        [0.5, 0.5],
    ]
    assert json.loads(host.get_attribute('#seq [data-out="hull"]', "data-value")) == [1, 2, 3, 4, 1]


def test_an_embedded_demo_can_be_dragged(host):
    canvas = "#seq canvas"
    start = canvas_points(host, canvas)[4]
    drag(host, canvas, start, (0.5, 0.98), steps=5)
    host.wait_for_function(
        "() => document.querySelector('#seq').shadowRoot.querySelector('[data-demo]').dataset.state === 'idle'"
    )
    points = canvas_points(host, canvas)
    assert points[4] == pytest.approx([0.5, 0.98], abs=0.01)
    assert json.loads(host.get_attribute('#seq [data-out="hull"]', "data-value")) == hull_sequence(points)
    assert host.url.endswith("index.html")  # the host's URL is never rewritten


def test_an_embedded_trainer_trains(host):
    assert host.input_value('#trainer [data-control="seed"]') == "7"
    host.click('#trainer [data-action="train"]')
    host.wait_for_function(
        "() => JSON.parse(document.querySelector('#trainer').shadowRoot.querySelector('[data-out=iteration]').dataset.value || '0') >= 50",
        timeout=30_000,
    )
    host.click('#trainer [data-action="pause"]')


def test_host_css_does_not_reach_into_the_demos(host):
    style = host.evaluate(
        """() => {
          const root = document.querySelector('#seq').shadowRoot;
          const button = root.querySelector('.demo-toolbar button');
          const canvas = root.querySelector('canvas');
          const s = getComputedStyle(button);
          return { display: getComputedStyle(canvas).display, buttonDisplay: s.display, color: s.color, size: s.fontSize,
                   border: getComputedStyle(root.querySelector('.demo')).borderTopColor };
        }"""
    )
    assert style["display"] == "block"
    assert style["buttonDisplay"] != "none"
    assert style["color"] != "rgb(255, 0, 0)"
    assert style["size"] != "31px"
    assert style["border"] != "rgb(0, 255, 0)"


def test_malformed_attributes_neither_inject_nor_crash(host):
    assert host.dialogs == []
    assert (
        host.evaluate(
            "() => document.querySelectorAll('img').length + document.querySelector('#evil').shadowRoot.querySelectorAll('img').length"
        )
        == 0
    )
    # Unreadable points fall back to the demo's own points, with a message; the demo works.
    evil_points = canvas_points(host, "#evil canvas")
    assert len(evil_points) >= 3
    assert json.loads(host.get_attribute('#evil [data-out="hull"]', "data-value")) == hull_sequence(evil_points)
    assert "건너뛰었습니다" in host.text_content("#evil .demo-message")
    # n = 1e9 is not a whole number in range: the slider stays within 3–12.
    n = json.loads(host.get_attribute('#huge [data-out="ptr_slots"]', "data-value")) - 1
    assert 3 <= n <= 12
    # An unknown demo name is reported, not rendered as HTML.
    assert host.evaluate("() => document.querySelector('#unknown').shadowRoot.querySelector('b')") is None
    assert any("알 수 없는" in w for w in host.warnings)
    assert any('"colour"' in w for w in host.warnings)


def test_the_iframe_embed_works_and_is_sized_to_its_content(host):
    frame = host.frame_locator("#frame")
    host.locator("#frame").scroll_into_view_if_needed()  # off-screen cross-origin frames are not rendered
    host.wait_for_function(
        "() => document.querySelector('#frame').getBoundingClientRect().height > 400", timeout=90_000
    )
    hull = frame.locator('[data-demo="three-problems"] [data-out="hull"][data-value]')
    hull.wait_for(timeout=60_000)
    assert hull.get_attribute("data-value") == "[3,6,4,5,3]"
