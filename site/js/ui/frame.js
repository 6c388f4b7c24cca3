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
