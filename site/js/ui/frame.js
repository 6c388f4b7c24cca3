// Redraw on requestAnimationFrame, and only when something changed.
export function redrawer(render) {
  let scheduled = false;
  return function markDirty() {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(() => {
      scheduled = false;
      render();
    });
  };
}

// Resolves once the page has painted a frame (a task after the next animation frame), or after
// `latestMs` if no frame comes (a page opened in a background tab draws nothing until shown).
export function afterFirstPaint(latestMs = 200) {
  return new Promise((resolve) => {
    requestAnimationFrame(() => setTimeout(resolve));
    setTimeout(resolve, latestMs);
  });
}
