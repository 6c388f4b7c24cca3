"""Every page once, as a reader opens it: Python gets ready, each demo answers once scrolled into view,
none is left in error and nothing is reported to the console. The browser part of the fast subset
(`python3 build.py test --fast`); the other browser tests check what the demos answer."""

import pytest

pytestmark = [pytest.mark.fast, pytest.mark.smoke]  # the quick subset and the deploy gate

# A demo has answered (idle) or failed (error): either ends the wait, so a failure is reported at once. The
# article's live figures measure for a minute on a slow machine: they have answered once their first rows show.
ANSWERED = """(demo) => {
  const root = document.querySelector(`[data-demo="${demo}"]`);
  return ['idle', 'error'].includes(root?.dataset.state) || Boolean(root?.querySelector('[data-out=results][data-value]'));
}"""
ERRORS = "() => [...document.querySelectorAll('[data-state=\"error\"]')].map((el) => el.dataset.demo)"


def assert_every_demo_answers(frame) -> None:
    """Python is ready, and each demo of the page (or frame), scrolled into view in turn, answers without error."""
    frame.wait_for_function(
        "() => ['ready', 'error'].includes(document.documentElement.dataset.python)", timeout=60_000
    )
    assert frame.evaluate("() => document.documentElement.dataset.python") == "ready"
    frame.wait_for_selector("[data-demo]", state="attached")  # the embed page makes its demo's element itself
    demos = frame.eval_on_selector_all("[data-demo]", "(els) => els.map((el) => el.dataset.demo)")
    assert demos
    for demo in demos:
        frame.locator(f'[data-demo="{demo}"]').first.scroll_into_view_if_needed()
        frame.wait_for_function(ANSWERED, arg=demo, timeout=30_000)
    assert frame.evaluate(ERRORS) == []


@pytest.mark.parametrize("path", ["index.html", "three-problems.html", "embed.html#demo=hull-steps"])
def test_the_page_starts_and_every_demo_answers(page, site_url, path):
    page.goto(site_url + path)
    assert_every_demo_answers(page)
    assert page.watch.console_errors == []


def test_the_embed_guides_preview_starts_and_answers(page, site_url):
    page.goto(site_url + "embed-guide.html")
    preview = page.locator("iframe.embed-preview")
    preview.scroll_into_view_if_needed()
    frame = preview.element_handle().content_frame()
    frame.wait_for_url("**/embed.html#demo=*")
    assert_every_demo_answers(frame)
    assert page.watch.console_errors == []
