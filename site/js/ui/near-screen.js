// Work that needs the trained weights waits until its demo comes near the screen, so a first
// visit does not download models for demos the reader has not scrolled to. While it waits the
// element carries data-deferred="view" (tests and the benchmark read it).

const MARGIN = "50% 0px"; // half a screen ahead, so the answer is usually there before it is seen

// `start` runs once when the node comes near the screen, and again on every `now()`: the reader
// used the demo (a link, the keyboard, a script), so it starts at once whether or not it is seen.
export function whenNearScreen(node, start) {
  let pending = true;
  let observer = null;
  const now = () => {
    if (pending) {
      pending = false;
      observer?.disconnect();
      delete node.dataset.deferred;
    }
    start();
  };
  if (typeof IntersectionObserver === "function") {
    node.dataset.deferred = "view";
    observer = new IntersectionObserver(
      (entries) => {
        if (pending && entries.some((entry) => entry.isIntersecting)) now();
      },
      { rootMargin: MARGIN },
    );
    observer.observe(node);
  } else {
    queueMicrotask(() => pending && now()); // after the caller's set-up, as an observer's first report would be
  }
  return { started: () => !pending, now };
}
