// A horizontal bar chart on a canvas: one row per bar (label, bar, value). Knows nothing of
// models: it draws the bars it is given. The canvas is as wide as its container and as tall as
// its rows; the text of every bar is also in the canvas's aria-label.
import { percent } from "../ui/format.js";
import { COLORS, SIZES } from "../config.js";
import { createCanvas, sizeCanvas } from "./canvas.js";
import { afterResize } from "../ui/resize.js";

export function create(el, { label, rowHeight = 24, valueWidth = 50 }) {
  const { canvas, ctx } = createCanvas(el, { className: "bar-canvas", label });
  let cssWidth = 0;
  let cssHeight = 0;
  let lastView = null;

  function resize(rows) {
    const width = Math.round(canvas.getBoundingClientRect().width);
    const height = rows * rowHeight + 8;
    if (!width) return false;
    if (width === cssWidth && height === cssHeight) return true;
    cssWidth = width;
    cssHeight = height;
    canvas.style.height = `${height}px`;
    sizeCanvas(canvas, ctx, width, height);
    return true;
  }

  function fitText(text, width) {
    if (ctx.measureText(text).width <= width) return text;
    let cut = text;
    while (cut.length > 1 && ctx.measureText(`${cut}…`).width > width) cut = cut.slice(0, -1);
    return `${cut}…`;
  }

  // view: {bars: [{label, value, text, color, highlight}], max (the full-width value, default 1),
  //        format (value → text, default a percentage) for a bar without text (the value as Python wrote it)}
  function render(view) {
    lastView = view;
    const { bars, max = 1, format = percent } = view;
    const shown = (bar) => bar.text ?? format(bar.value);
    if (!resize(bars.length)) return;
    canvas.setAttribute("aria-label", `${label}: ${bars.map((bar) => `${bar.label} ${shown(bar)}`).join(", ")}`);
    ctx.clearRect(0, 0, cssWidth, cssHeight);
    const fontOf = (bar) => (bar.highlight ? `700 ${SIZES.font}` : SIZES.font);
    // Measured in bold, so the layout stays put when the highlighted bar changes.
    ctx.font = `700 ${SIZES.font}`;
    const widest = Math.max(0, ...bars.map((bar) => ctx.measureText(bar.label).width));
    const labelWidth = Math.min(Math.ceil(widest) + 12, Math.round(cssWidth * 0.42));
    const x0 = labelWidth;
    const x1 = Math.max(x0 + 20, cssWidth - valueWidth);
    const barHeight = Math.round(rowHeight * 0.62);
    ctx.textBaseline = "middle";
    bars.forEach((bar, row) => {
      const mid = 4 + row * rowHeight + rowHeight / 2;
      const top = mid - barHeight / 2;
      const fraction = Math.min(1, Math.max(0, bar.value / (max || 1)));
      ctx.fillStyle = COLORS.barTrack;
      ctx.fillRect(x0, top, x1 - x0, barHeight);
      ctx.fillStyle = bar.color || COLORS.bar;
      ctx.fillRect(x0, top, fraction * (x1 - x0), barHeight);
      if (bar.highlight) {
        ctx.strokeStyle = COLORS.text;
        ctx.lineWidth = 2;
        ctx.strokeRect(x0 + 1, top - 1, Math.max(fraction * (x1 - x0) - 2, 2), barHeight + 2);
      }
      ctx.font = fontOf(bar);
      ctx.fillStyle = COLORS.text;
      ctx.textAlign = "right";
      ctx.fillText(fitText(bar.label, labelWidth - 10), labelWidth - 8, mid);
      ctx.textAlign = "left";
      ctx.fillStyle = bar.highlight ? COLORS.text : COLORS.muted;
      ctx.fillText(shown(bar), x1 + 6, mid);
    });
    ctx.textAlign = "left";
  }

  // Re-render at the new width when the layout changes.
  afterResize(canvas, () => {
    if (lastView) render(lastView);
  });

  return { canvas, render };
}
