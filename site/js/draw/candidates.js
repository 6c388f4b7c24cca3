// Points in the unit square as candidates of one decoding step: each candidate gets a circle
// whose AREA is proportional to its probability, with the percentage as a label. A column to
// the right of the square holds the start token (⇒, a decoder input only) and the end token
// (⇐, a candidate like the points). The output so far is drawn as a polyline.
// Knows nothing of models: it draws the view it is given.
import { COLORS, SIZES } from "../config.js";
import { createCanvas, followLayout, haloText, sizeCanvas, unitSquare } from "./canvas.js";

const ASPECT = 4 / 3; // canvas width / height: the square plus the side column

export function create(el, { label }) {
  const { canvas, ctx } = createCanvas(el, { className: "candidate-canvas", label });
  let cssWidth = 0;
  let cssHeight = 0;
  let lastView = null;

  // The unit square in CSS pixels relative to the canvas: [left, top, width, height].
  function viewport() {
    const side = cssHeight - 2 * SIZES.padding;
    return [SIZES.padding, SIZES.padding, side, side];
  }

  const { toPixel, toUnit } = unitSquare(canvas, viewport);

  // Centres of the side column's two tokens.
  function sideSlots() {
    const [left, top, side] = viewport();
    const x = (left + side + cssWidth) / 2;
    return { start: [x, top + side * 0.16], end: [x, top + side * 0.66] };
  }

  function resize() {
    const width = Math.round(canvas.getBoundingClientRect().width);
    if (width === cssWidth || width === 0) return false;
    cssWidth = width;
    cssHeight = Math.round(width / ASPECT);
    sizeCanvas(canvas, ctx, cssWidth, cssHeight);
    canvas.dataset.viewport = JSON.stringify(viewport());
    return true;
  }

  // Text with a pale halo, legible on top of circles and lines.
  function textAt(text, x, y, { color = COLORS.text, font = SIZES.font, align = "left", baseline = "middle" } = {}) {
    ctx.font = font;
    ctx.textAlign = align;
    ctx.textBaseline = baseline;
    haloText(ctx, text, x, y, color);
  }

  function drawFrame() {
    const [left, top, width, height] = viewport();
    ctx.clearRect(0, 0, cssWidth, cssHeight);
    ctx.fillStyle = COLORS.background;
    ctx.fillRect(0, 0, cssWidth, cssHeight);
    ctx.strokeStyle = COLORS.grid;
    ctx.lineWidth = 1;
    for (let k = 1; k < 10; k++) {
      ctx.beginPath();
      ctx.moveTo(left + (k / 10) * width, top);
      ctx.lineTo(left + (k / 10) * width, top + height);
      ctx.moveTo(left, top + (k / 10) * height);
      ctx.lineTo(left + width, top + (k / 10) * height);
      ctx.stroke();
    }
    ctx.strokeStyle = COLORS.frame;
    ctx.strokeRect(left, top, width, height);
  }

  // A candidate: its probability circle (or a cross when masked), ring when chosen.
  function candidate(cx, cy, p, { masked, chosen, maxRadius }) {
    if (masked) {
      const r = 10;
      ctx.strokeStyle = COLORS.masked;
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.moveTo(cx - r, cy - r);
      ctx.lineTo(cx + r, cy + r);
      ctx.moveTo(cx + r, cy - r);
      ctx.lineTo(cx - r, cy + r);
      ctx.stroke();
      return r;
    }
    const radius = maxRadius * Math.sqrt(Math.max(0, p));
    if (radius > 0.5) {
      ctx.beginPath();
      ctx.arc(cx, cy, radius, 0, 2 * Math.PI);
      ctx.fillStyle = chosen ? COLORS.chosenFill : COLORS.probFill;
      ctx.fill();
      ctx.strokeStyle = chosen ? COLORS.selected : COLORS.prob;
      ctx.lineWidth = chosen ? 3 : 1.5;
      ctx.stroke();
    }
    if (chosen) {
      ctx.beginPath();
      ctx.arc(cx, cy, Math.max(radius, 10) + 4, 0, 2 * Math.PI);
      ctx.strokeStyle = COLORS.selected;
      ctx.lineWidth = 2;
      ctx.setLineDash([4, 3]);
      ctx.stroke();
      ctx.setLineDash([]);
    }
    return radius;
  }

  function inputBox(cx, cy, size) {
    ctx.strokeStyle = COLORS.decoderInput;
    ctx.lineWidth = 2.5;
    ctx.strokeRect(cx - size, cy - size, 2 * size, 2 * size);
  }

  // Lines from the side column's decoder token to every point, as thick as each point's weight.
  function drawRays(points, rays) {
    const [sx, sy] = sideSlots().start;
    ctx.strokeStyle = COLORS.mixed;
    points.forEach((point, index) => {
      const w = rays[index] ?? 0;
      if (w < 0.005) return;
      ctx.globalAlpha = 0.25 + 0.65 * w;
      ctx.lineWidth = 0.5 + 11 * w;
      ctx.beginPath();
      ctx.moveTo(sx, sy);
      ctx.lineTo(...toPixel(point));
      ctx.stroke();
    });
    ctx.globalAlpha = 1;
  }

  // view: {points, path (0-based indices, the output so far), probs ([...points, end]),
  //        masked (same length), chosen (candidate index; points.length = end),
  //        input (point index, or -1 for the start token), rays (a weight per point: lines from the
  //        decoder token), labels (each candidate's text as Python wrote it, masked ones too;
  //        none where a view sends none), endText (shown under ⇐ instead of its probability)}
  function render(view) {
    lastView = view;
    resize();
    if (!cssWidth) return;
    const { points = [], path = [], probs = [], labels = [], masked = [], chosen = -1, input = -1, rays = null } = view;
    const labelOf = (k) => labels[k] ?? "";
    const [, , side] = viewport();
    const maxRadius = side * 0.15;
    const n = points.length;
    drawFrame();

    // The output so far; the newest edge in the choice colour; a closed polygon filled.
    if (path.length > 1) {
      const closed = path[0] === path[path.length - 1];
      ctx.beginPath();
      path.forEach((index, k) => {
        const [px, py] = toPixel(points[index]);
        if (k === 0) ctx.moveTo(px, py);
        else ctx.lineTo(px, py);
      });
      if (closed) {
        ctx.fillStyle = COLORS.hullFill;
        ctx.fill();
      }
      ctx.strokeStyle = COLORS.hull;
      ctx.lineWidth = SIZES.lineWidth;
      ctx.lineJoin = "round";
      ctx.stroke();
    }

    if (rays) drawRays(points, rays);

    // Circles first, then points and labels on top.
    const radii = points.map((point, index) => {
      const [px, py] = toPixel(point);
      return candidate(px, py, probs[index] ?? 0, { masked: masked[index], chosen: chosen === index, maxRadius });
    });
    const slots = sideSlots();
    const endRadius = candidate(...slots.end, probs[n] ?? 0, { masked: masked[n], chosen: chosen === n, maxRadius });

    if (path.length > 1 && chosen >= 0 && chosen < n) {
      const from = toPixel(points[path[path.length - 2]]);
      const to = toPixel(points[path[path.length - 1]]);
      ctx.beginPath();
      ctx.moveTo(...from);
      ctx.lineTo(...to);
      ctx.strokeStyle = COLORS.selected;
      ctx.lineWidth = SIZES.lineWidth + 0.5;
      ctx.stroke();
    }

    points.forEach((point, index) => {
      const [px, py] = toPixel(point);
      if (index === input) inputBox(px, py, 11);
      ctx.beginPath();
      ctx.arc(px, py, SIZES.pointRadius - 1, 0, 2 * Math.PI);
      ctx.fillStyle = COLORS.point;
      ctx.fill();
      const offset = Math.max(SIZES.pointRadius, Math.min(radii[index], 18) * 0.7);
      textAt(`P${index + 1}`, px + offset + 2, py - offset, { font: `700 ${SIZES.font}`, baseline: "bottom" });
      const text = labelOf(index);
      const color = masked[index] ? COLORS.masked : chosen === index ? COLORS.selected : COLORS.muted;
      textAt(text, px + offset + 2, py + offset, { color, font: SIZES.smallFont, baseline: "top" });
    });

    // The side column: the start token (input at step 1) and the end candidate.
    const [sx, sy] = slots.start;
    ctx.fillStyle = "#fff";
    ctx.fillRect(sx - 14, sy - 14, 28, 28);
    ctx.strokeStyle = COLORS.frame;
    ctx.lineWidth = 1;
    ctx.strokeRect(sx - 14, sy - 14, 28, 28);
    if (input === -1) inputBox(sx, sy, 18);
    textAt("⇒", sx, sy, { font: `700 16px ${SIZES.fontFamily}`, align: "center" });
    textAt("시작", sx, sy + 22, { color: COLORS.muted, font: SIZES.smallFont, align: "center", baseline: "top" });
    const [ex, ey] = slots.end;
    textAt("⇐", ex, ey, { font: `700 16px ${SIZES.fontFamily}`, align: "center" });
    const below = Math.max(endRadius, 12) + 6;
    textAt("끝", ex, ey + below, { color: COLORS.muted, font: SIZES.smallFont, align: "center", baseline: "top" });
    const endText = view.endText ?? labelOf(n);
    textAt(endText, ex, ey + below + 15, {
      color: chosen === n ? COLORS.selected : COLORS.muted,
      font: SIZES.smallFont,
      align: "center",
      baseline: "top",
    });
    ctx.textAlign = "left";
  }

  followLayout(canvas, resize, () => lastView && render(lastView));

  return { canvas, render, toPixel, toUnit, viewport };
}
