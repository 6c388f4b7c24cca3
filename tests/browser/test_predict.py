"""The article's "먼저 짐작해 보기" questions (py/sitebuild/predictions.py, site/js/ui/predict.js): a choice reveals the
answer, is remembered on this device, works from the keyboard and without localStorage; the answers agree with
what the demos beside them show."""

import re

from playwright.sync_api import expect

from tests.browser.conftest import out_value, wait_ready

QUESTION = "[data-predict]"
BOUND = "() => [...document.querySelectorAll('[data-predict]')].every((q) => q.dataset.revealed)"
# localStorage refused, as in private modes and with the site's data blocked: every call throws.
BLOCKED_STORAGE = """
for (const name of ["getItem", "setItem", "removeItem"]) {
  Storage.prototype[name] = function () { throw new DOMException("blocked", "SecurityError"); };
}
"""

# Focus whatever a reader's Tab reaches just before the given element, so that the next Tab lands on it.
FOCUS_THE_ONE_BEFORE = """(target) => {
  const reachable = [...document.querySelectorAll('a[href], button, input, select, summary, [tabindex]')].filter(
    (e) => e.tabIndex >= 0 && !e.disabled && e.getClientRects().length > 0,
  );
  reachable[reachable.indexOf(target) - 1].focus();
}"""


def _questions(page):
    """The questions once predict.js has bound them all."""
    page.wait_for_function(BOUND)
    return page.locator(QUESTION)


def _answer_label(question) -> str:
    return question.locator(f'[data-choice="{question.get_attribute("data-answer")}"]').text_content()


def _assert_revealed(question, chosen: str) -> None:
    """The question shows the verdict for `chosen`, the reveal's text and a way to choose again."""
    expect(question).to_have_attribute("data-revealed", "true")
    expect(question).to_have_attribute("data-chosen", chosen)
    reveal = question.locator(".predict-reveal")
    expected = "맞았습니다." if chosen == question.get_attribute("data-answer") else f"답은 ‘{_answer_label(question)}’"
    expect(reveal).to_contain_text(expected)
    expect(reveal.locator(".predict-again")).to_be_visible()
    expect(question.locator(f'[data-choice="{chosen}"]')).to_have_attribute("aria-pressed", "true")


def test_the_article_asks_four_named_questions_of_two_to_four_buttons(article):
    questions = _questions(article)
    assert questions.count() >= 4
    for k in range(questions.count()):
        q = questions.nth(k)
        expect(q).to_have_attribute("role", "group")
        expect(q).to_have_accessible_name(re.compile(r"먼저 짐작해 보기 .+\?"))
        choices = q.locator("[data-choice]")
        assert 2 <= choices.count() <= 4
        assert all(choices.nth(i).evaluate("(b) => b.tagName === 'BUTTON'") for i in range(choices.count()))
        assert q.get_attribute("data-answer") in choices.evaluate_all("(bs) => bs.map((b) => b.dataset.choice)")
        expect(q.locator(".predict-reveal")).to_have_attribute("aria-live", "polite")
        expect(q.locator(".predict-reveal")).to_be_empty()
        expect(q).to_have_attribute("data-revealed", "false")
        assert q.get_attribute("data-chosen") is None


def test_a_choice_reveals_survives_a_reload_and_can_be_taken_back(article):
    questions = _questions(article)
    picks = {}
    for k in range(questions.count()):
        q = questions.nth(k)
        wrong = q.locator(f'[data-choice]:not([data-choice="{q.get_attribute("data-answer")}"])').first
        chosen = q.locator("[data-choice]").first if k % 2 else wrong  # some right, some wrong (the first may be right)
        picks[q.get_attribute("data-predict")] = value = chosen.get_attribute("data-choice")
        chosen.click()
        _assert_revealed(q, value)
    article.reload()
    questions = _questions(article)
    for k in range(questions.count()):
        q = questions.nth(k)
        _assert_revealed(q, picks[q.get_attribute("data-predict")])
    first = questions.first
    first.locator(".predict-again").click()
    expect(first).to_have_attribute("data-revealed", "false")
    assert first.get_attribute("data-chosen") is None
    expect(first.locator(".predict-reveal")).to_be_empty()
    expect(first.locator("[data-choice]").first).to_be_focused()
    article.reload()
    expect(_questions(article).first).to_have_attribute("data-revealed", "false")
    _assert_revealed(_questions(article).nth(1), picks[_questions(article).nth(1).get_attribute("data-predict")])


def test_the_keyboard_alone_picks_with_enter_and_space(article):
    questions = _questions(article)
    for k, key in ((0, "Enter"), (1, " ")):
        q = questions.nth(k)
        first = q.locator("[data-choice]").first
        first.evaluate(FOCUS_THE_ONE_BEFORE)
        article.keyboard.press("Tab")
        expect(first).to_be_focused()
        assert first.evaluate("(b) => b.matches(':focus-visible') && getComputedStyle(b).outlineStyle !== 'none'")
        article.keyboard.press("Tab")
        second = q.locator("[data-choice]").nth(1)
        expect(second).to_be_focused()
        article.keyboard.press(key)
        _assert_revealed(q, second.get_attribute("data-choice"))


def test_blocked_storage_still_reveals_and_chooses_again_without_an_error(page, site_url):
    page.add_init_script(BLOCKED_STORAGE)
    page.goto(site_url + "index.html")
    q = _questions(page).first
    choice = q.locator("[data-choice]").last
    choice.click()
    _assert_revealed(q, choice.get_attribute("data-choice"))
    q.locator(".predict-again").click()
    expect(q).to_have_attribute("data-revealed", "false")
    q.locator("[data-choice]").first.click()
    _assert_revealed(q, q.locator("[data-choice]").first.get_attribute("data-choice"))
    assert page.watch.console_errors == []


def test_the_answers_agree_with_the_demos_beside_them(article):
    """Oracles: the page's own Python. Demo 4 points, in its second step, at the answer of the question under it;
    demo 1's opening has as many answer tokens outside the seq2seq's slots as the reveal says."""
    wait_ready(article, "hull-steps")
    article.click('[data-demo="hull-steps"] [data-action="next"]')
    wait_ready(article, "hull-steps")
    assert out_value(article, "hull-steps", "step") == 2
    hull_question = article.locator('[data-predict="hull-steps"]')
    assert str(out_value(article, "hull-steps", "choice")) == hull_question.get_attribute("data-answer")

    wait_ready(article, "slots")
    missing = out_value(article, "slots", "seq2seq_missing")
    slots_question = article.locator('[data-predict="slots"]')
    slots_question.locator("[data-choice]").first.click()
    expect(slots_question.locator(".predict-reveal")).to_contain_text(f"정답 토큰 {missing}개")
