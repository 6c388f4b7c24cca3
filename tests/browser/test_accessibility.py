"""Accessibility and security across the pages: axe-core, CSP, keyboard-only use, layouts."""

import json

import pytest

from tests.browser.conftest import canvas_points, wait_ready, wait_settled
from tests.site_build import config

AXE = config.ROOT / "node_modules" / "axe-core" / "axe.min.js"
PAGES = [
    ("index.html", "sequences"),
    ("three-problems.html", "three-problems"),
    ("embed.html#demo=sort-trainer", "sort-trainer"),
    ("embed-guide.html", None),
]


@pytest.mark.parametrize(("path", "demo"), PAGES)
def test_axe_finds_no_serious_or_critical_violation(browser, site_url, path, demo):
    # axe is injected as an inline script, which our CSP rightly forbids: bypass it for this tool only.
    context = browser.new_context(bypass_csp=True, service_workers="block")
    page = context.new_page()
    page.goto(site_url + path)
    if demo:
        wait_ready(page, demo)
    wait_settled(page)  # every demo has answered: no button is about to change its colours
    # Colours are checked at rest: a button that just got its style is still fading in (a 0.15 s transition).
    page.evaluate("async () => { await Promise.all(document.getAnimations().map((a) => a.finished)); }")
    page.add_script_tag(path=str(AXE))
    violations = page.evaluate(
        """async () => (await axe.run(document, { resultTypes: ['violations'] })).violations
            .filter((v) => v.impact === 'serious' || v.impact === 'critical')
            .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }))"""
    )
    context.close()
    assert violations == [], json.dumps(violations, ensure_ascii=False, indent=1)


@pytest.mark.parametrize(("path", "demo"), PAGES)
def test_pages_work_under_their_csp_without_violations(page, site_url, path, demo):
    violations = []
    page.on("console", lambda m: "Content Security Policy" in m.text and violations.append(m.text))
    page.goto(site_url + path)
    page.evaluate(
        "() => document.addEventListener('securitypolicyviolation', (e) => console.error('Content Security Policy: ' + e.violatedDirective))"
    )
    if demo:
        wait_ready(page, demo)
    else:  # the embed guide: its own demos and the preview frame's page have loaded
        wait_settled(page)
        page.wait_for_load_state("networkidle")
    assert violations == []
    assert page.watch.console_errors == []
    csp = page.get_attribute('meta[http-equiv="Content-Security-Policy"]', "content")
    assert "'unsafe-inline'" not in csp and "'unsafe-eval'" not in csp and "connect-src 'self'" in csp


def test_keyboard_only_adds_and_moves_a_point_in_demo_2(page, site_url):
    page.goto(site_url + "index.html")
    wait_ready(page, "sequences")
    canvas = '[data-demo="sequences"] canvas'
    before = canvas_points(page, canvas)
    for _ in range(80):  # Tab through the page until the demo's canvas has focus
        page.keyboard.press("Tab")
        if page.evaluate("(sel) => document.activeElement === document.querySelector(sel)", canvas):
            break
    else:
        pytest.fail("the canvas is not reachable with Tab")
    page.keyboard.press("+")
    for _ in range(3):
        page.keyboard.press("ArrowUp")
    page.keyboard.press("Shift+ArrowLeft")
    wait_ready(page, "sequences")
    after = canvas_points(page, canvas)
    assert after[:-1] == before
    assert after[-1] == pytest.approx([0.45, 0.53], abs=1e-9)
    outline = page.evaluate("(sel) => getComputedStyle(document.querySelector(sel)).outlineStyle", canvas)
    assert outline != "none"  # the focused canvas shows where the keyboard is


@pytest.mark.parametrize("width", [375, 1440])
@pytest.mark.parametrize("path", ["index.html", "three-problems.html", "embed-guide.html"])
def test_layouts_fit_narrow_and_wide_screens(browser, site_url, path, width):
    context = browser.new_context(
        viewport={"width": width, "height": 900}, service_workers="block", has_touch=width < 500
    )
    page = context.new_page()
    page.goto(site_url + path)
    wait_settled(page)
    overflow = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
    context.close()
    assert overflow <= 1


@pytest.mark.parametrize(("motion", "animated"), [("no-preference", True), ("reduce", False)])
def test_reduced_motion_turns_off_transitions(browser, site_url, motion, animated):
    context = browser.new_context(reduced_motion=motion, service_workers="block")
    page = context.new_page()
    page.goto(site_url + "index.html")
    page.wait_for_selector('[data-demo="sequences"] button')
    durations = page.evaluate(
        "() => [...document.querySelectorAll('.demo button')].map((e) => parseFloat(getComputedStyle(e).transitionDuration))"
    )
    context.close()
    assert durations
    assert any(d > 0 for d in durations) == animated
