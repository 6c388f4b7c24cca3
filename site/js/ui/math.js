// Formulas: every element with a data-tex attribute is typeset by the self-hosted KaTeX.
// The element's own text is a readable Unicode fallback, shown until (or unless) this runs.
//
// katex.render builds DOM nodes and sets their styles through the CSSOM, which the pages'
// CSP (style-src 'self') allows; renderToString + innerHTML would parse style="…" attributes,
// which that CSP blocks. Elements with class "formula" are display formulas, others inline.
import katex from "../../vendor/katex/katex.min.mjs";

export function renderMath(root = document) {
  for (const el of root.querySelectorAll("[data-tex]")) {
    const fallback = el.textContent.trim();
    try {
      katex.render(el.dataset.tex, el, {
        displayMode: el.classList.contains("formula"),
        throwOnError: false,
        output: "htmlAndMathml",
      });
      el.classList.add("is-typeset");
      if (el.classList.contains("formula")) keyboardScrollable(el);
    } catch (err) {
      // Only a KaTeX bug gets here (throwOnError is off): keep the Unicode fallback.
      el.textContent = fallback;
      console.warn("수식을 그리지 못했습니다:", el.dataset.tex, err);
    }
  }
}

// A display formula wider than its box scrolls sideways; then it takes the keyboard focus (and a
// name) so that it can be scrolled without a mouse too. Checked again when the layout changes.
function keyboardScrollable(el) {
  const update = () => {
    if (el.scrollWidth > el.clientWidth + 1) {
      el.tabIndex = 0;
      el.setAttribute("role", "region");
      el.setAttribute("aria-label", `수식 (옆으로 넘겨 볼 수 있음): ${el.dataset.tex}`);
    } else {
      el.removeAttribute("tabindex");
      el.removeAttribute("role");
      el.removeAttribute("aria-label");
    }
  };
  update();
  new ResizeObserver(update).observe(el);
}
