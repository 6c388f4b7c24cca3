"""The index page as an article: formulas typeset by the self-hosted KaTeX, the seven demos in
their sections in the spec's order, links, the descendants it names, and a 375 px layout."""

import re

from tests.browser.conftest import wait_ready
from tests.browser.settle import RUN_AHEAD_MS, after_frames

# Spec §3: the demos, in the order the article discusses them; each sits in the section of the same id.
DEMOS = ["slots", "sequences", "mix-vs-point", "hull-steps", "sort-trainer", "length-eval", "pointer-generator"]
BESIDE = {"attention-vs-pointer": "mix-vs-point"}  # SPEC §9's view, in the section of the demo it stands beside
FIGURES = {"hull-sweep": "results", "tsp-student": "results", "tsp-sweep": "results"}  # §7's live findings
DESCENDANTS = ["CopyNet", "Pointer Sentinel", "Order Matters", "Bello", "Kool"]


def test_every_formula_is_typeset_by_katex(article):
    page = article
    formulas = page.locator("[data-tex]")
    count = formulas.count()
    assert count >= 10  # the additive score, attention, pointer, mask, the sorter, pointer-generator …
    assert page.locator(".katex").count() >= count
    untypeset = page.evaluate(
        "() => [...document.querySelectorAll('[data-tex]')].filter(el => !el.querySelector('.katex')).map(el => el.dataset.tex)"
    )
    assert untypeset == []
    # throwOnError is off, so a TeX mistake would show up as a red .katex-error instead of an exception.
    errors = page.evaluate("() => [...document.querySelectorAll('.katex-error')].map(el => el.getAttribute('title'))")
    assert errors == []
    # Display formulas (class "formula") are typeset in display mode, the inline ones are not.
    assert page.locator(".formula .katex-display").count() == page.locator(".formula[data-tex]").count() > 0
    assert page.locator(".math .katex-display").count() == 0
    # The formulas the article is about are there.
    tex = " ".join(formulas.evaluate_all("els => els.map(el => el.dataset.tex)"))
    for fragment in [
        r"v^\top \tanh(W_1 e_j + W_2 d_i)",
        r"\operatorname{softmax}(u^i)",
        r"d'_i = \sum",
        r"p(C_i \mid C_1, \dots, C_{i-1}, \mathcal{P})",
        r"p_{\text{gen}}\, P_{\text{vocab}}(w)",
        r"B\,x_{\mathrm{prev}} + b_0",
    ]:
        assert fragment in tex
    # KaTeX's own fonts (self-hosted woff2) are in use, not a system fallback.
    page.evaluate("() => document.fonts.ready")
    loaded = page.evaluate("() => [...document.fonts].filter(f => f.status === 'loaded').map(f => f.family)")
    assert "KaTeX_Main" in loaded and "KaTeX_Math" in loaded
    assert page.watch.console_errors == []
    assert page.watch.foreign_requests == []


def test_the_seven_demos_sit_once_each_in_their_sections_in_the_spec_order(article):
    page = article
    mounts = page.evaluate("""() => [...document.querySelectorAll('.demo[data-demo]')].map(el => ({
        id: el.dataset.demo, section: el.closest('section')?.id ?? null }))""")
    # The two prelude demos (issue 7) come first, in their own section, the NPLM before the LSTM step as history
    # has them; then the spec's seven, each in its own section, and the attention view in demo 3's.
    assert mounts[:2] == [{"id": "nplm", "section": "prelude"}, {"id": "lm-shapes", "section": "prelude"}]
    mounts = [m for m in mounts[2:] if m["id"] not in BESIDE | FIGURES]
    assert [m["id"] for m in mounts] == DEMOS
    assert [m["section"] for m in mounts] == DEMOS
    for demo, section in (BESIDE | FIGURES).items():
        assert page.evaluate(f"() => document.querySelector('[data-demo=\"{demo}\"]').closest('section').id") == section
    for demo in DEMOS:
        assert page.locator(f'[data-demo="{demo}"]').count() == 1
    # The table of contents reaches every section.
    toc = page.locator(".toc a").evaluate_all("els => els.map(a => a.getAttribute('href'))")
    assert all(f"#{demo}" in toc for demo in DEMOS)
    assert all(page.locator(href).count() == 1 for href in toc)


def test_the_article_links_the_companion_page_and_names_the_descendants(article):
    page = article
    assert page.locator('main a[href^="three-problems.html"]').count() >= 2
    text = page.locator("main").text_content()
    for name in DESCENDANTS:
        assert name in text, name
    for term in [
        "포인터 네트워크",
        "볼록 껍질",
        "들로네 삼각분할",
        "외판원 문제",
        "어텐션",
        "인코더",
        "디코더",
        "교사 강요",
        "마스크",
        "빔 서치",
        "출력 사전",
    ]:
        assert term in text, term
    for number in ["69.6", "99.9", "6.09", "6.46", "80.7"]:  # the paper's key numbers (spec §7)
        assert number in text, number
    references = page.locator(".references").text_content()
    for arxiv in ["1506.03134", "1704.04368", "1603.06393", "1609.07843", "1511.06391", "1611.09940", "1803.08475"]:
        assert arxiv in references, arxiv


def test_every_demo_becomes_idle_once_python_is_ready(article):
    page = article
    demos = ["lm-shapes", "nplm", *DEMOS, *BESIDE, "tsp-student"]  # §7's two runs: tests/browser/test_findings.py
    for demo in demos:
        wait_ready(page, demo)
    states = page.evaluate(
        '(ids) => ids.map((id) => document.querySelector(`[data-demo="${id}"]`).dataset.state)', demos
    )
    assert states == ["idle"] * len(demos)
    assert page.watch.console_errors == []
    assert page.watch.foreign_requests == []


def test_no_horizontal_scroll_at_375_px(article):
    page = article
    page.set_viewport_size({"width": 375, "height": 800})
    wait_ready(page, "pointer-generator")
    after_frames(page)  # the demos have redrawn for the narrow width
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 375 + 1
    # Nothing in the article is wider than the viewport either (a formula box scrolls inside itself).
    too_wide = page.evaluate("""() => [...document.querySelectorAll('main *')]
        .filter(el => el.getBoundingClientRect().right > 376 && !el.closest('.formula, .table-scroll'))
        .map(el => el.tagName + '.' + el.className).slice(0, 5)""")
    assert too_wide == []


def test_every_demo_has_a_visible_number_and_title_and_every_demo_link_lands_on_it(page, site_url):
    for name in ("index.html", "three-problems.html"):
        page.goto(site_url + name)
        frames = page.locator("figure.demo-frame")
        assert frames.count() == page.locator("[data-demo]").count() >= 1
        numbers = []
        for k in range(frames.count()):
            frame = frames.nth(k)
            caption = frame.locator("figcaption.demo-caption")
            assert caption.is_visible() and re.fullmatch(r"데모 [\d-]+ · \S.+", caption.inner_text().strip())
            number = caption.locator(".demo-no").inner_text().removeprefix("데모 ")
            assert frame.get_attribute("id") == f"demo-{number}" and frame.locator(".demo[data-demo]").count() == 1
            numbers.append(number)
        assert len(set(numbers)) == len(numbers)
        links = page.locator("main a[href^='#demo-']")
        for k in range(links.count()):
            target = links.nth(k).get_attribute("href")
            assert page.locator(f"figure{target}").count() == 1, target
    page.goto(site_url + "index.html")
    text_refs = re.findall(r"데모 ([\d-]*\d)", page.locator("main").inner_text())
    assert {f"demo-{n}" for n in text_refs} <= set(
        page.eval_on_selector_all("figure.demo-frame", "(els) => els.map((e) => e.id)")
    )
    page.click("main a[href='#demo-5']")
    page.wait_for_function("() => location.hash === '#demo-5'")
    _wait_in_view(page, "#demo-5")


def _wait_in_view(page, selector: str) -> None:
    """Wait for an element's top to rest in the upper half of the viewport (a smooth scroll takes its time, and
    longer while the page's thread lays out the demos' first answers on a loaded machine)."""
    page.wait_for_function(
        """(selector) => { const r = document.querySelector(selector).getBoundingClientRect();
                           return r.top >= 0 && r.top < innerHeight / 2; }""",
        arg=selector,
        timeout=15_000,
    )


def test_a_demo_link_lands_on_its_demo_even_when_the_demos_above_grow_meanwhile(page, site_url):
    # The demos above grow by screens when Python's first answers arrive, often in the middle of the
    # smooth scroll a link starts; a block added above the target stands in for that growth.
    page.goto(site_url + "index.html")
    page.click("main a[href='#demo-5']")
    page.evaluate(
        "() => document.querySelector('#demo-0-1').append(Object.assign(document.createElement('div'), {style: 'height: 3000px'}))"
    )
    _wait_in_view(page, "#demo-5")
    wait_ready(page, "sort-trainer")
    _wait_in_view(page, "#demo-5")
    # A shared address that ends in a demo lands there too, and the reader's own scrolling is then left alone.
    page.goto(site_url + "index.html#demo-6")
    wait_ready(page, "length-eval")
    _wait_in_view(page, "#demo-6")
    page.mouse.wheel(0, -600)
    top = "() => document.querySelector('#demo-6').getBoundingClientRect().top"
    page.wait_for_function(f"() => ({top})() > 300")
    # The page's observer of the article's size (ui/hash-target.js) hears of the growth in the same
    # delivery as this one, made later, and before it.
    page.evaluate("""() => new Promise((resolve) => {
        const seen = new ResizeObserver(() => { seen.disconnect(); resolve(); });
        seen.observe(document.querySelector('main'));
        document.querySelector('#demo-0-1').append(Object.assign(document.createElement('div'), {style: 'height: 500px'}));
    })""")
    assert page.evaluate(top) > 300  # not pulled back


def test_the_captions_are_the_titles_the_embeds_use(page, site_url):
    page.goto(site_url + "index.html")
    listed = page.evaluate("async () => (await import('/source/js/generated/demos.js')).DEMOS")
    for name in ("index.html", "three-problems.html"):
        page.goto(site_url + name)
        for frame in page.locator("figure.demo-frame").all():
            demo = frame.locator("[data-demo]").get_attribute("data-demo")
            caption = frame.locator("figcaption.demo-caption").inner_text().strip()
            assert caption == listed[demo]["caption"] == f"데모 {listed[demo]['number']} · {listed[demo]['title']}"


def test_demo_four_text_says_what_each_mode_shows(page, site_url):
    page.goto(site_url + "index.html")
    wait_ready(page, "hull-steps")
    root = '[data-demo="hull-steps"]'
    assert page.is_checked(f'{root} [data-control="model"]')
    assert "실제" in page.text_content(f"{root} .illustrative-badge")
    try_it = page.inner_text("#hull-steps p.try")
    assert "우리가 학습한" in try_it and "모델 스위치를 끄면" in try_it and "설명용" in try_it
    # The controls it names are the demo's own labels (how to use each lives in the widget, not the prose).
    named = re.findall(r"‘([^’]+)’", try_it)
    assert named
    for label in named:
        assert page.locator(root).get_by_text(label, exact=True).count() >= 1, label
    page.uncheck(f'{root} [data-control="model"]')
    wait_ready(page, "hull-steps")
    assert "예시" in page.text_content(f"{root} .illustrative-badge")


def test_a_charts_hint_wraps_inside_a_phone_wide_plot(page, site_url):
    # Demo 6's chart says what 평가 will draw; on a phone that sentence is wider than the plot.
    page.set_viewport_size({"width": 375, "height": 800})
    page.goto(site_url + "index.html#demo-6")
    wait_ready(page, "length-eval")
    page.evaluate("""() => {
        window.__texts = [];
        const fill = CanvasRenderingContext2D.prototype.fillText;
        CanvasRenderingContext2D.prototype.fillText = function (text, x, y) {
            if (this.canvas.closest('[data-demo="length-eval"]'))
                window.__texts.push([text, x, this.measureText(text).width, this.canvas.getBoundingClientRect().width]);
            return fill.apply(this, arguments);
        };
    }""")
    page.set_viewport_size({"width": 360, "height": 800})  # a redraw at the new width
    page.wait_for_function("() => window.__texts.some(([text]) => text.endsWith('그려집니다'))")
    texts = page.evaluate("() => window.__texts")
    last = max(k for k, (text, *_) in enumerate(texts) if text.endswith("그려집니다"))
    first = max(k for k, (text, *_) in enumerate(texts[: last + 1]) if text.startswith("‘평가’"))
    hint = texts[first : last + 1]
    assert " ".join(text for text, *_ in hint) == "‘평가’를 누르면 길이 5–50의 결과가 여기에 그려집니다"
    assert len(hint) >= 2  # broken into lines
    for text, x, width, canvas_width in hint:
        assert 36 <= x - width / 2 and x + width / 2 <= canvas_width, text  # clear of the y-axis title, inside


def test_every_formula_fits_its_box_on_a_desktop(article):
    # Long formulas are broken over lines, so that on a 1280 px screen none has to be scrolled sideways
    # (overlay scrollbars would not even show that it can be); only phones scroll a formula box.
    page = article
    page.set_viewport_size({"width": 1280, "height": 800})
    page.evaluate("() => document.fonts.ready")
    after_frames(page)
    boxes = page.evaluate("""() => [...document.querySelectorAll('.formula')].map(el => ({
        tex: el.dataset.tex.slice(0, 60), scroll: el.scrollWidth, client: el.clientWidth }))""")
    assert len(boxes) >= 10
    too_wide = [box for box in boxes if box["scroll"] > box["client"] + 1]
    assert too_wide == []


def test_formulas_near_the_view_are_typeset_at_once_and_the_rest_once_python_has_started(page, site_url):
    """Typesetting the whole article would take the main thread from Python's start: formulas far below
    wait for it, unless the reader scrolls to them first."""
    held = []
    page.route(
        "**/pyodide.asm.wasm", lambda route: held.append(route)
    )  # Python waits until the download is let through
    page.clock.install()
    page.goto(site_url + "index.html")
    typeset = "() => [...document.querySelectorAll('[data-tex]')].map(el => Boolean(el.querySelector('.katex')))"
    page.wait_for_function(f"() => ({typeset})().some(Boolean)")
    page.clock.run_for(RUN_AHEAD_MS)  # every timer and idle callback of the next seconds: time enough to typeset more
    assert page.evaluate("() => document.documentElement.dataset.python") == "loading"
    tops = page.evaluate(
        "() => [...document.querySelectorAll('[data-tex]')].map(el => el.getBoundingClientRect().top / innerHeight)"
    )
    done = page.evaluate(typeset)
    assert all(done[k] for k, top in enumerate(tops) if 0 <= top < 1)  # every formula in view
    far = [k for k, top in enumerate(tops) if top > 3]
    assert far and not any(done[k] for k in far)  # several screens below: their Unicode fallback for now
    formula = page.locator("[data-tex]").nth(far[len(far) // 2])
    assert formula.inner_text().strip() != ""
    formula.scroll_into_view_if_needed()  # the reader gets there before Python has started
    page.wait_for_function("el => el.querySelector('.katex') !== null", arg=formula.element_handle(), timeout=5_000)
    assert page.evaluate("() => document.documentElement.dataset.python") == "loading"
    for route in held:
        route.continue_()
    page.wait_for_function(f"() => ({typeset})().every(Boolean)", timeout=60_000)
    assert page.evaluate("() => document.documentElement.dataset.python") == "ready"
