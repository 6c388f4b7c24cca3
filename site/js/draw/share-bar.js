// One share on a canvas: a bar filled from 0 to value (of 1) over a track, with a dashed marker
// at a reference share (such as chance) to hold it against. Knows nothing of models; the caller
// writes the words, which also become the canvas's aria-label.
//
// view = {value, marker, label}  (value null: an empty track, no marker)
import { COLORS } from "../config.js";
import { createCanvas, sizeCanvas } from "./canvas.js";
import { afterResize } from "../ui/resize.js";

const HEIGHT = 30; // CSS px
const BAR = 14; // CSS px: the bar's thickness
const TICK = 5; // CSS px the marker reaches past the bar

export function create(el, { label, color = COLORS.mixed }) {
  const { canvas, ctx } = createCanvas(el, { className: "bar-canvas", label });
  canvas.style.height = `${HEIGHT}px`; // CSSOM, allowed by the pages' CSP
  let lastView = null;

  function render(view) {
    lastView = view;
    canvas.setAttribute("aria-label", view.label || label);
    const width = Math.round(canvas.getBoundingClientRect().width);
    if (!width) return;
    sizeCanvas(canvas, ctx, width, HEIGHT);
    ctx.clearRect(0, 0, width, HEIGHT);
    const top = (HEIGHT - BAR) / 2;
    const x = (share) => 1 + Math.min(1, Math.max(0, share)) * (width - 2);
    ctx.fillStyle = COLORS.barTrack;
    ctx.fillRect(1, top, width - 2, BAR);
    if (view.value == null) return;
    ctx.fillStyle = color;
    ctx.fillRect(1, top, x(view.value) - 1, BAR);
    ctx.strokeStyle = COLORS.text;
    ctx.lineWidth = 2;
    ctx.setLineDash([4, 3]);
    ctx.beginPath();
    ctx.moveTo(x(view.marker), top - TICK);
    ctx.lineTo(x(view.marker), top + BAR + TICK);
    ctx.stroke();
    ctx.setLineDash([]);
  }

  // Re-render at the new width when the layout changes.
  afterResize(canvas, () => {
    if (lastView) render(lastView);
  });

  return { canvas, render };
}
