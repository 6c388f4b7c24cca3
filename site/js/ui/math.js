// Formulas: every element with a data-tex attribute is typeset by the self-hosted KaTeX.
// The element's own text is a readable Unicode fallback, shown until (or unless) this runs.
//
// katex.render builds DOM nodes and sets their styles through the CSSOM, which the pages'
// CSP (style-src 'self') allows; renderToString + innerHTML would parse style="…" attributes,
// which that CSP blocks. Elements with class "formula" are display formulas, others inline.
import katex from "../../vendor/katex/katex.min.mjs";

const NEAR = "100% 0px"; // a formula within a screen's height of the view is typeset before it shows
const SLICE_MS = 8; // typesetting in idle time stops after this long, until the next idle period
const WAIT_MS = 50; // or the next task after this long: a busy page gets its formulas too, a slice at a time

// Typesets the formulas near the view now, each other one as it comes near, and all that are left
// once `later` resolves, a few at a time when the page is idle. Typesetting the whole article
// takes the main thread a few hundred milliseconds, which a small machine would otherwise take
// from starting Python (the article page passes Python's first start as `later`).
export function renderMath(root = document, later = Promise.resolve()) {
  const pending = new Set(root.querySelectorAll("[data-tex]"));
  const near = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) if (entry.isIntersecting) typeset(entry.target);
    },
    { rootMargin: NEAR },
  );
  const typeset = (el) => {
    if (!pending.delete(el)) return;
    near.unobserve(el);
    typesetFormula(el);
    if (pending.size === 0) near.disconnect();
  };
  const whenIdle = (work) =>
    globalThis.requestIdleCallback ? requestIdleCallback(work, { timeout: WAIT_MS }) : setTimeout(work);
  const typesetRest = () => {
    const until = performance.now() + SLICE_MS;
    for (const el of pending) {
      typeset(el);
      if (performance.now() > until) break;
    }
    if (pending.size) whenIdle(typesetRest);
  };
  for (const el of pending) near.observe(el);
  later.then(() => whenIdle(typesetRest));
  addEventListener("beforeprint", () => {
    for (const el of pending) typeset(el);
  });
}

function typesetFormula(el) {
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
