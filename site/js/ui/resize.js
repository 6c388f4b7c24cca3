// Runs `callback` after `el` changes size, in the next animation frame instead of inside the
// observer's delivery: a callback that redraws may change the element's size again, and a change
// made during delivery makes the browser report an error event ("ResizeObserver loop completed
// with undelivered notifications", on every load in WebKit). Several changes in a frame run it once.
export function afterResize(el, callback) {
  let queued = false;
  new ResizeObserver(() => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      callback();
    });
  }).observe(el);
}
