// A link to a demo (#demo-5, or a shared address ending in one) must land on that demo even though
// the demos above it grow by screens when Python's first answers arrive. Browsers' scroll anchoring
// covers this only in some browsers and not during a smooth scroll, so the page keeps the linked
// element in view itself, until the reader scrolls, types or clicks on their own.

const READER_MOVES = ["wheel", "touchstart", "keydown", "mousedown"];

export function keepHashTargetInView(content = document.querySelector("main")) {
  if (!content) return;
  let target = null;
  const follow = () => {
    const id = decodedFragment();
    target = id ? document.getElementById(id) : null;
  };
  const release = () => {
    target = null;
  };
  for (const type of READER_MOVES) addEventListener(type, release, { passive: true, capture: true });
  addEventListener("hashchange", follow);
  follow();
  new ResizeObserver(() => target?.scrollIntoView({ block: "start", behavior: "instant" })).observe(content);
}

// The fragment as an element id; a link may carry malformed escapes (%FF), which are not an id, so
// such a fragment names no element rather than throwing.
function decodedFragment() {
  try {
    return decodeURIComponent(location.hash.slice(1));
  } catch {
    return "";
  }
}
