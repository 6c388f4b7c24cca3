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
    } catch (err) {
      // Only a KaTeX bug gets here (throwOnError is off): keep the Unicode fallback.
      el.textContent = fallback;
      console.warn("수식을 그리지 못했습니다:", el.dataset.tex, err);
    }
  }
}
