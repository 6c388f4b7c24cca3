"""The prelude demos driven like a reader, with the CPython handlers as the oracle:
[lm-shapes] one LSTM LM generation step shape by shape; both demos on the page, in screenshots and in the embed
(the NPLM trained live: test_nplm.py)."""

import json
import math

import pytest

from ptrnet.api import dispatch
from tests.browser.conftest import ARTIFACTS, out_value, wait_ready
from tests.browser.settle import after_frames, calls_ahead, open_with_clock

LM = '[data-demo="lm-shapes"]'
NPLM = '[data-demo="nplm"]'


def click(page, root, action):
    page.click(f'{root} [data-action="{action}"]')


def lm_oracle(tokens, mode="sample", temperature=1.0, seed=0):
    return dispatch("lm-shapes", "step", {"tokens": tokens, "mode": mode, "temperature": temperature, "seed": seed})


def assert_lm_matches(page, expected):
    assert out_value(page, "lm-shapes", "shapes") == expected["shapes"]
    assert out_value(page, "lm-shapes", "probs") == pytest.approx(expected["probs"], abs=1e-9)
    assert out_value(page, "lm-shapes", "token") == expected["token"]["word"]
    assert out_value(page, "lm-shapes", "step") == expected["step"]
    assert page.text_content(f'{LM} [data-out="probs"]') == expected["text"]["top"]  # as Python wrote it


@pytest.fixture
def prelude(page, site_url):
    page.goto(site_url + "index.html")
    wait_ready(page, "lm-shapes")
    wait_ready(page, "nplm")
    return page


def test_the_prelude_sits_before_demo_1_with_both_demos_and_a_toc_entry(prelude):
    page = prelude
    order = page.evaluate("() => [...document.querySelectorAll('main section')].map((s) => s.id)")
    # the prelude opens the article; the hull's motivation comes once the three problems are introduced (§2)
    assert order.index("prelude") < order.index("slots") < order.index("sequences") < order.index("why-hull")
    mounts = page.evaluate("() => [...document.querySelectorAll('#prelude [data-demo]')].map((el) => el.dataset.demo)")
    assert mounts == ["nplm", "lm-shapes"]  # history's order: NPLM (2003) gave the vocabulary softmax LSTMs kept
    assert page.locator('.toc a[href="#prelude"]').count() == 1
    # The numbered sections keep their numbers: the prelude is unnumbered, slots is still 1.
    toc = page.evaluate(
        "() => { const ol = document.querySelector('.toc ol'); return { start: ol.start, first: ol.querySelector('li a').getAttribute('href'), slots: ol.querySelector('a[href=\"#slots\"]').parentElement.value }; }"
    )
    assert toc == {"start": 0, "first": "#prelude", "slots": 1}
    prose = page.text_content("#prelude")
    assert "Bengio" in prose and "차원의 저주" in prose and "퍼플렉서티" in prose
    tex = " ".join(page.locator("#prelude [data-tex]").evaluate_all("els => els.map(el => el.dataset.tex)"))
    # The curse of dimensionality's count, worked out: 10 words over 100,000 have 100000**10 - 1 free parameters.
    power = round(math.log10(100000**10 - 1))
    assert rf"100\,000^{{10}} - 1 \approx 10^{{{power}}}" in tex
    assert r"\prod_{t=1}^{T} P(w_t \mid w_{t-n+1}, \dots, w_{t-1})" in tex  # the n-gram's chain rule
    assert r"\mathrm{PPL} = \exp\Bigl(-\frac{1}{T} \sum_{t=1}^{T} \log P" in tex  # perplexity
    assert page.watch.console_errors == []
    assert page.watch.foreign_requests == []


def test_lm_steps_show_the_same_tensors_python_computes(prelude):
    page = prelude
    tokens = [0]
    expected = lm_oracle(tokens)
    assert expected["vocab"][0] == "<s>"
    assert_lm_matches(page, expected)
    dims = expected["dims"]
    text = page.text_content(LM)
    assert f"V = {dims['V']}" in text and f"H = {dims['H']}" in text and f"D = {dims['D']}" in text
    assert "이 너비 V는 모델을 만들 때 정해졌습니다" in text
    # Every tensor of the step is drawn with its real shape.
    drawn = page.evaluate(
        f"() => Object.fromEntries([...document.querySelectorAll('{LM} [data-tensor]')].map((el) => [el.dataset.tensor, JSON.parse(el.dataset.shape)]))"
    )
    for name in ["x", "h_prev", "c_prev", "A", "f", "g", "i", "o", "c", "h", "s", "p", "W_x", "W_h", "W_s"]:
        assert drawn[name] == expected["shapes"][name], name
    assert drawn["p_flat"] == [1, dims["V"]]
    # Boxes are proportional: the row of V probabilities is V/H times as wide as h_t.
    widths = page.evaluate(
        f"() => Object.fromEntries([...document.querySelectorAll('{LM} [data-tensor] canvas')].map((c) => [c.closest('[data-tensor]').dataset.tensor, c.getBoundingClientRect().width - 2]))"
    )
    assert widths["s"] / widths["h"] == pytest.approx(dims["V"] / dims["H"], rel=1e-6)
    for _ in range(3):
        tokens = tokens + [expected["token"]["id"]]
        click(page, LM, "step")
        wait_ready(page, "lm-shapes")
        expected = lm_oracle(tokens)
        assert_lm_matches(page, expected)
        if expected["done"]:
            break
    words = page.locator(f"{LM} .lm-word").all_text_contents()
    assert words[: len(tokens)] == [expected["vocab"][t] for t in tokens]
    click(page, LM, "reset")
    wait_ready(page, "lm-shapes")
    assert_lm_matches(page, lm_oracle([0]))
    assert page.watch.console_errors == []


def test_lm_gate_layout_is_f_g_i_o_as_the_source_lays_it_out(prelude):
    """A (1 x 4H) is drawn split as f | g | i | o, and each split tensor is its squashed segment of A."""
    page = prelude
    tokens = [0]
    for _ in range(3):
        expected = lm_oracle(tokens)
        H = expected["dims"]["H"]
        A = expected["tensors"]["A"]["values"][0]
        gates = out_value(page, "lm-shapes", "gates")
        layout = gates["layout"]
        assert [part["gate"] for part in layout] == ["f", "g", "i", "o"]
        assert [(part["from"], part["to"]) for part in layout] == [(k * H, (k + 1) * H) for k in range(4)]
        assert page.text_content(f'{LM} [data-out="gates"]') == "f | g | i | o"
        for part in layout:
            gate, segment = part["gate"], part["values"]
            assert segment == pytest.approx(A[part["from"] : part["to"]], abs=1e-12), gate
            squash = math.tanh if gate == "g" else (lambda z: 1.0 / (1.0 + math.exp(-z)))
            assert gates["split"][gate] == pytest.approx([squash(z) for z in segment], abs=1e-12), gate
            assert gates["split"][gate] == pytest.approx(expected["tensors"][gate]["values"][0], abs=1e-12), gate
        # Stage 3 draws f, g, i, o in that order, its formula naming each gate's columns of A.
        split = page.evaluate(
            f"() => [...document.querySelectorAll('{LM} [data-stage=\"split\"] [data-tensor]')].map((el) => el.dataset.tensor)"
        )
        assert split == ["f", "g", "i", "o"]
        formula = page.text_content(f'{LM} [data-stage="split"] .tensor-formula')
        assert (
            formula
            == f"f = σ(A[:, :{H}]),  g = tanh(A[:, {H}:{2 * H}]),  i = σ(A[:, {2 * H}:{3 * H}]),  o = σ(A[:, {3 * H}:])"
        )
        if expected["done"]:
            break
        tokens = tokens + [expected["token"]["id"]]
        click(page, LM, "step")
        page.wait_for_function(
            '(step) => JSON.parse(document.querySelector(\'[data-demo="lm-shapes"] [data-out="step"]\').dataset.value) === step',
            arg=len(tokens),
        )
        wait_ready(page, "lm-shapes")
    assert page.watch.console_errors == []


def test_lm_mode_temperature_and_seed_change_the_choice_and_go_into_the_url(prelude):
    page = prelude
    page.select_option(f'{LM} [data-control="mode"]', "greedy")
    wait_ready(page, "lm-shapes")
    assert_lm_matches(page, lm_oracle([0], mode="greedy"))
    assert "lm-shapes.mode=greedy" in page.url
    slider = f'{LM} [data-control="temperature"]'
    page.focus(slider)
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    wait_ready(page, "lm-shapes")
    assert_lm_matches(page, lm_oracle([0], mode="greedy", temperature=1.5))
    assert "lm-shapes.temperature=1.5" in page.url
    page.select_option(f'{LM} [data-control="mode"]', "sample")
    page.fill(f'{LM} [data-control="seed"]', "5")
    page.press(f'{LM} [data-control="seed"]', "Enter")
    wait_ready(page, "lm-shapes")
    assert_lm_matches(page, lm_oracle([0], temperature=1.5, seed=5))
    assert "lm-shapes.seed=5" in page.url
    assert page.watch.console_errors == []


def test_lm_generate_runs_to_the_end_of_the_sentence(page, site_url):
    page.emulate_media(reduced_motion="reduce")  # no pauses between steps
    page.goto(f"{site_url}index.html#lm-shapes.mode=greedy&lm-shapes.seed=2")
    wait_ready(page, "lm-shapes")
    assert page.input_value(f'{LM} [data-control="mode"]') == "greedy"
    assert page.input_value(f'{LM} [data-control="seed"]') == "2"
    tokens = [0]
    expected = lm_oracle(tokens, mode="greedy", seed=2)
    while not expected["done"]:
        tokens.append(expected["token"]["id"])
        expected = lm_oracle(tokens, mode="greedy", seed=2)
    click(page, LM, "generate")
    page.wait_for_function(
        "(step) => { const root = document.querySelector('[data-demo=\"lm-shapes\"]'); return root.dataset.state === 'idle' && JSON.parse(root.querySelector('[data-out=\"step\"]').dataset.value) === step; }",
        arg=expected["step"],
        timeout=30_000,
    )
    assert_lm_matches(page, expected)
    assert page.is_disabled(f'{LM} [data-action="step"]')
    assert page.is_disabled(f'{LM} [data-action="generate"]')
    assert page.watch.console_errors == []


def test_generate_is_animated_and_can_be_stopped(page, site_url):
    open_with_clock(page, f"{site_url}index.html")
    wait_ready(page, "lm-shapes")
    page.evaluate(
        """() => {
            const out = document.querySelector('[data-demo="lm-shapes"] [data-out="step"]');
            window.__steps = [];
            let last = out.dataset.value;
            new MutationObserver(() => {
                if (out.dataset.value !== last) window.__steps.push(performance.now());
                last = out.dataset.value;
            }).observe(out, { attributeFilter: ['data-value'] });
        }"""
    )
    click(page, LM, "generate")
    assert page.get_attribute(LM, "data-state") == "busy"
    page.wait_for_function("() => window.__steps.length >= 3")
    times = page.evaluate("() => window.__steps")
    gaps = [b - a for a, b in zip(times, times[1:], strict=False)]
    assert min(gaps) > 100, f"steps {gaps} ms apart: animated a few a second, not all at once"
    click(page, LM, "generate")  # stop
    wait_ready(page, "lm-shapes")
    stopped = out_value(page, "lm-shapes", "step")
    assert calls_ahead(page) == []  # no step follows, seconds later either
    assert out_value(page, "lm-shapes", "step") == stopped
    assert page.watch.console_errors == []


@pytest.mark.parametrize("width", [1280, 375])
def test_prelude_screenshots_fit_the_page(browser, site_url, width):
    context = browser.new_context(
        viewport={"width": width, "height": 900}, device_scale_factor=1, service_workers="block"
    )
    page = context.new_page()
    page.goto(site_url + "index.html")
    wait_ready(page, "lm-shapes")
    wait_ready(page, "nplm")
    page.click(f'{LM} [data-action="step"]')
    wait_ready(page, "lm-shapes")
    page.click(f'{NPLM} [data-action="train"]')
    page.wait_for_function(
        '() => JSON.parse(document.querySelector(\'[data-demo="nplm"] [data-out="iteration"]\').dataset.value) >= 500',
        timeout=30_000,
    )
    page.click(f'{NPLM} [data-action="pause"]')
    wait_ready(page, "nplm")
    after_frames(page)  # the last answers drawn
    ARTIFACTS.mkdir(exist_ok=True)
    for name, root in (("lm-shapes", LM), ("nplm", NPLM)):
        page.locator(root).screenshot(path=str(ARTIFACTS / f"prelude-{name}-{width}.png"))
    overflow = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
    boxes = {name: page.locator(root).bounding_box() for name, root in (("lm-shapes", LM), ("nplm", NPLM))}
    stage_overflow = page.evaluate(
        f"() => [...document.querySelectorAll('{LM} .tensor-row, {LM} .tensor-matmul')].map((el) => el.scrollWidth - el.clientWidth)"
    )
    context.close()
    assert overflow <= 1
    assert max(stage_overflow) <= 1  # every stage's matrices fit it, on a phone too
    for box in boxes.values():
        assert box["x"] >= 0 and box["x"] + box["width"] <= width + 1, json.dumps(boxes)
    if width >= 1280:  # on a wide screen each prelude demo fits about one screen
        assert all(box["height"] < 1300 for box in boxes.values()), json.dumps(boxes)


@pytest.mark.parametrize(
    ("demo", "hash_", "value"),
    [
        (
            "lm-shapes",
            "lm-shapes.mode=greedy&lm-shapes.temperature=0.5",
            lambda: lm_oracle([0], mode="greedy", temperature=0.5)["token"]["word"],
        ),
        (
            "nplm",
            "nplm.seed=4&nplm.direct=0",
            lambda: dispatch("nplm", "reset", {"seed": 4, "direct": False})["perplexity"],
        ),
    ],
)
def test_both_demos_stand_alone_in_the_iframe_embed(page, site_url, demo, hash_, value):
    page.goto(f"{site_url}embed.html#demo={demo}&{hash_}")
    wait_ready(page, demo)
    name = "token" if demo == "lm-shapes" else "perplexity"
    got = out_value(page, demo, name)
    assert got == (value() if demo == "lm-shapes" else pytest.approx(value(), rel=1e-9))
    assert page.watch.console_errors == []
