"""Figure 1 of the article (§3): seq2seq, attention seq2seq and Ptr-Net drawn side by side as three
accessible SVG panels that stay readable and inside the page on a phone."""

import re

import pytest

FIGURE = "#mix-vs-point figure.arch-figure"
PANELS = {"seq2seq": r"^seq2seq:", "attention": r"^어텐션 seq2seq:", "pointer": r"^Ptr-Net:"}

# Each panel's texts as drawn: font size in CSS px on the page and the text's box in page pixels.
TEXTS = """(figure) => [...figure.querySelectorAll('svg')].map((svg) => {
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    const texts = [...svg.querySelectorAll('text, tspan')].filter((el) => el.textContent.trim());
    return texts.map((el) => {
        const r = el.getBoundingClientRect();
        return { text: el.textContent, tag: el.tagName, px: parseFloat(getComputedStyle(el).fontSize) * scale,
                 box: [r.left, r.top, r.right, r.bottom] };
    });
})"""


@pytest.fixture
def figure_page(page, site_url):
    page.goto(site_url + "index.html")
    page.evaluate("() => document.fonts.ready")
    return page


def test_the_figure_has_an_accessible_name_and_three_labelled_panels_before_the_additive_score(figure_page):
    page = figure_page
    figure = page.get_by_role("figure", name=re.compile(r"^그림 1\. "))
    assert figure.count() == 1 and figure.evaluate("(el, selector) => el.matches(selector)", FIGURE)
    # It comes just before the additive score, after the paragraph that introduces the encoder and decoder states.
    following = figure.evaluate("(el) => el.nextElementSibling.dataset.tex")
    assert following.startswith(r"u^i_j = v^\top \tanh")
    for key, name in PANELS.items():
        panel = figure.get_by_role("img", name=re.compile(name))
        assert panel.count() == 1, key
        assert panel.get_attribute("data-panel") == key
        description = panel.evaluate(
            "(svg) => document.getElementById(svg.getAttribute('aria-describedby')).textContent"
        )
        assert len(description) > 40, key
        # The accessible name starts with the panel's visible heading.
        assert panel.locator("title").text_content().startswith(panel.locator(".arch-title").text_content() + ":")
    assert figure.get_by_role("img").count() == len(PANELS)


def test_the_fixed_output_layer_stays_at_k_plus_2_and_the_pointer_has_one_candidate_per_encoder_item(figure_page):
    def panel(key):
        return figure_page.locator(f"{FIGURE} svg[data-panel='{key}']")

    def labels(key, boxes):
        """The labels written on a panel's boxes (each box's rect is followed by its text)."""
        return panel(key).locator(boxes).evaluate_all("(rects) => rects.map((r) => r.nextElementSibling.textContent)")

    layers = [labels(key, ".arch-cell") for key in ("seq2seq", "attention")]
    assert layers[0] == layers[1] and layers[0][-2:] == ["⇒", "⇐"] and "K" in layers[0]
    items = labels("pointer", ".arch-enc")
    assert labels("pointer", ".arch-cell") == items and "⇐" in items
    assert len(items) == len(labels("seq2seq", ".arch-enc")) + 1
    # The thickest arrow points at the input the step outputs: the pointer's chosen cell, the layer's chosen number.
    for key, chosen in (("attention", ".arch-cell-chosen"), ("pointer", ".arch-cell-chosen-ptr")):
        target = panel(key).evaluate("""(svg) => {
            const arcs = [...svg.querySelectorAll('.arch-arc, .arch-ptr')];
            const thickest = arcs.reduce((a, b) => (+a.getAttribute('stroke-width') >= +b.getAttribute('stroke-width') ? a : b));
            const end = thickest.getPointAtLength(thickest.getTotalLength());
            const hit = [...svg.querySelectorAll('.arch-enc')].find((box) => {
                const b = box.getBBox();
                return b.x <= end.x && end.x <= b.x + b.width;
            });
            return hit.nextElementSibling.textContent;
        }""")
        picked = panel(key).locator(chosen).evaluate("(cell) => cell.nextElementSibling.textContent")
        assert target.removeprefix("P") == picked.removeprefix("P"), key


@pytest.mark.parametrize("width", [390, 1280])
def test_panels_fit_the_text_column_with_readable_labels_that_do_not_overlap(figure_page, width):
    page = figure_page
    page.set_viewport_size({"width": width, "height": 900})
    page.locator(FIGURE).scroll_into_view_if_needed()
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    column = page.locator("#mix-vs-point > p").first.bounding_box()
    boxes = [page.locator(f"{FIGURE} svg").nth(k).bounding_box() for k in range(len(PANELS))]
    for box in boxes:
        assert column["x"] - 0.5 <= box["x"] and box["x"] + box["width"] <= column["x"] + column["width"] + 0.5
    if width == 1280:  # side by side in one row
        tops = [box["y"] for box in boxes]  # one row up to sub-pixel layout (rounding once split it: 298 and 299)
        assert max(tops) - min(tops) < 1, tops
    else:  # stacked, and no text under 12 px
        assert all(a["y"] + a["height"] < b["y"] for a, b in zip(boxes, boxes[1:], strict=False))
    for k, texts in enumerate(page.locator(FIGURE).evaluate(TEXTS)):
        if width == 390:
            small = [t["text"] for t in texts if t["px"] < 12]
            assert small == [], small
        labels = [t for t in texts if t["tag"] == "text"]
        panel = boxes[k]
        for t in labels:  # inside the panel
            left, top, right, bottom = t["box"]
            assert panel["x"] <= left and right <= panel["x"] + panel["width"], t["text"]
            assert panel["y"] <= top and bottom <= panel["y"] + panel["height"], t["text"]
        for i, a in enumerate(labels):
            for b in labels[i + 1 :]:
                overlap_x = min(a["box"][2], b["box"][2]) - max(a["box"][0], b["box"][0])
                overlap_y = min(a["box"][3], b["box"][3]) - max(a["box"][1], b["box"][1])
                assert overlap_x <= 0.5 or overlap_y <= 0.5, (a["text"], b["text"])
