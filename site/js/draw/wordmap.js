// A 2-D map of labelled points (e.g. word vectors): each point a dot in its group's colour with
// its label beside it, and a legend of the groups. The view is fitted to the points' bounding
// box (kept square, so distances are not distorted); the fitted box eases toward the new one,
// so a map updated many times a second does not jump. Knows nothing of models.
//
// view = { points: [{label, x, y, color}], legend: [{label, color}], empty?: text }
import { COLORS, SIZES } from "../config.js";
import { createCanvas, followLayout, layoutBox } from "./canvas.js";

const PAD = { left: 14, right: 14, top: 12, bottom: 12 };
const LEGEND_ROW = 20;
const EASE = 0.35; // fraction of the way to the new bounds per render

export function create(el, { label, aspect = 0.8 }) {
  const { canvas, ctx } = createCanvas(el, { className: "wordmap-canvas", label, aspect });
  const box = layoutBox(canvas, ctx);
  let lastView = null;
  let bounds = null; // the eased [cx, cy, half-size]
  let settling = false; // a frame is already asked for to continue easing

  function target(points) {
    let [x0, x1, y0, y1] = [Infinity, -Infinity, Infinity, -Infinity];
    for (const p of points) {
      x0 = Math.min(x0, p.x);
      x1 = Math.max(x1, p.x);
      y0 = Math.min(y0, p.y);
      y1 = Math.max(y1, p.y);
    }
    return [(x0 + x1) / 2, (y0 + y1) / 2, Math.max(x1 - x0, y1 - y0, 1e-6) / 2];
  }

  function legendRows(legend) {
    ctx.font = SIZES.smallFont;
    const placed = [];
    let x = PAD.left;
    let row = 0;
    for (const item of legend) {
      const w = 16 + ctx.measureText(item.label).width + 14;
      if (x + w > box.width - PAD.right && x > PAD.left) {
        row += 1;
        x = PAD.left;
      }
      placed.push({ item, x, row });
      x += w;
    }
    const rows = legend.length ? row + 1 : 0;
    const top = box.height - PAD.bottom - rows * LEGEND_ROW;
    for (const p of placed) p.y = top + p.row * LEGEND_ROW + LEGEND_ROW / 2;
    return { placed, height: rows * LEGEND_ROW };
  }

  function render(view, { ease = true } = {}) {
    lastView = view;
    box.resize();
    if (!box.width) return;
    const { points = [], legend = [], empty } = view;
    ctx.fillStyle = COLORS.background;
    ctx.fillRect(0, 0, box.width, box.height);
    const { placed, height: legendHeight } = legendRows(legend);
    const plot = {
      left: PAD.left,
      top: PAD.top,
      width: box.width - PAD.left - PAD.right,
      height: box.height - PAD.top - PAD.bottom - legendHeight - 6,
    };
    ctx.strokeStyle = COLORS.grid;
    ctx.lineWidth = 1;
    ctx.strokeRect(plot.left + 0.5, plot.top + 0.5, plot.width - 1, plot.height - 1);
    if (!points.length) {
      ctx.font = SIZES.font;
      ctx.fillStyle = COLORS.muted;
      ctx.textAlign = "center";
      ctx.textBaseline = "middle";
      if (empty) ctx.fillText(empty, plot.left + plot.width / 2, plot.top + plot.height / 2);
    } else {
      const goal = target(points);
      bounds = bounds && ease ? bounds.map((v, k) => v + (goal[k] - v) * EASE) : goal;
      // Keep easing on the next frames until the view has settled.
      if (!settling && bounds.some((v, k) => Math.abs(goal[k] - v) > 1e-3 * goal[2])) {
        settling = true;
        requestAnimationFrame(() => {
          settling = false;
          if (lastView) render(lastView);
        });
      }
      // Loosen the eased box so points never leave the plot while it catches up.
      const half = Math.max(
        bounds[2],
        ...points.map((p) => Math.max(Math.abs(p.x - bounds[0]), Math.abs(p.y - bounds[1]))),
      );
      const inner = { w: plot.width - 100, h: plot.height - 40 }; // room for labels on every side
      const scale = Math.min(inner.w, inner.h) / (2 * half);
      const cx = plot.left + plot.width / 2;
      const cy = plot.top + plot.height / 2;
      const toPixel = (p) => [cx + (p.x - bounds[0]) * scale, cy - (p.y - bounds[1]) * scale];
      ctx.font = SIZES.smallFont;
      ctx.textAlign = "left";
      ctx.textBaseline = "middle";
      const pixels = points.map(toPixel);
      for (const [k, p] of points.entries()) {
        const [px, py] = pixels[k];
        ctx.fillStyle = p.color;
        ctx.beginPath();
        ctx.arc(px, py, 4.5, 0, 2 * Math.PI);
        ctx.fill();
        ctx.strokeStyle = "#fff";
        ctx.lineWidth = 1;
        ctx.stroke();
      }
      // Labels: right of the dot, else left, above or below, wherever they overlap least.
      const taken = pixels.map(([px, py]) => [px - 5, py - 5, px + 5, py + 5]);
      const overlap = (a, b) =>
        Math.max(0, Math.min(a[2], b[2]) - Math.max(a[0], b[0])) *
        Math.max(0, Math.min(a[3], b[3]) - Math.max(a[1], b[1]));
      ctx.fillStyle = COLORS.text;
      for (const [k, p] of points.entries()) {
        const [px, py] = pixels[k];
        const w = ctx.measureText(p.label).width;
        const h = 12;
        const options = [
          [px + 7, py - h / 2],
          [px - 7 - w, py - h / 2],
          [px - w / 2, py - 7 - h],
          [px - w / 2, py + 7],
          [px + 6, py - h - 2],
          [px + 6, py + 2],
          [px - 6 - w, py - h - 2],
          [px - 6 - w, py + 2],
        ];
        let best = null;
        let bestCost = Infinity;
        for (const [x, y] of options) {
          const box = [x, y, x + w, y + h];
          let cost = taken.reduce((sum, other) => sum + overlap(box, other), 0);
          if (x < plot.left || x + w > plot.left + plot.width || y < plot.top || y + h > plot.top + plot.height)
            cost += 1e4;
          if (cost < bestCost) {
            bestCost = cost;
            best = box;
          }
          if (cost === 0) break;
        }
        taken.push(best);
        ctx.fillText(p.label, best[0], best[1] + h / 2);
      }
    }
    ctx.font = SIZES.smallFont;
    ctx.textAlign = "left";
    ctx.textBaseline = "middle";
    for (const { item, x, y } of placed) {
      ctx.fillStyle = item.color;
      ctx.beginPath();
      ctx.arc(x + 5, y, 5, 0, 2 * Math.PI);
      ctx.fill();
      ctx.fillStyle = COLORS.text;
      ctx.fillText(item.label, x + 16, y);
    }
  }

  followLayout(canvas, box.resize, () => lastView && render(lastView, { ease: false }));

  return { canvas, render };
}
