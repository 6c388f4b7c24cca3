// Work that needs the trained weights waits until its demo comes near the screen, so a first
// visit does not download models for demos the reader has not scrolled to. While it waits the
// element carries data-deferred="view" (tests and the benchmark read it); `start` runs once.

const MARGIN = "50% 0px"; // half a screen ahead, so the answer is usually there before it is seen

export function whenNearScreen(node, start) {
  let pending = true;
  const run = () => {
    if (!pending) return;
    pending = false;
    delete node.dataset.deferred;
    start();
  };
  if (typeof IntersectionObserver !== "function") {
    queueMicrotask(run); // after the caller's set-up, as an observer's first report would be
    return { started: () => !pending, now: run };
  }
  node.dataset.deferred = "view";
  const observer = new IntersectionObserver(
    (entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      observer.disconnect();
      run();
    },
    { rootMargin: MARGIN },
  );
  observer.observe(node);
  return {
    started: () => !pending,
    // The reader used the demo before it came into view (a link, the keyboard): start at once.
    now() {
      observer.disconnect();
      run();
    },
  };
}
