// A square canvas of 2-D vectors around the origin: arrows, a filled polygon, one draggable
// arrow (the "handle") and a marker. The square shows [-range, range]² (y up); its unit
// coordinates u = v / (2·range) + 0.5 are what data-points and data-viewport refer to.
// Knows nothing of models: it draws the view it is given.
import { COLORS, SIZES } from "../config.js";
import { createCanvas, followLayout, gridLines, haloText, paddedSquare, unitSquare } from "./canvas.js";

export function create(el, { label, range }) {
  const { canvas, ctx } = createCanvas(el, {
    className: "point-canvas vector-canvas",
    label,
    role: "application",
    focusable: true,
  });
  const square = paddedSquare(canvas, ctx, SIZES.padding);
  const { viewport } = square;
  let lastView = null;

  const toUnitSquare = ([x, y]) => [x / (2 * range) + 0.5, y / (2 * range) + 0.5];
  const fromUnitSquare = ([u, v]) => [(u - 0.5) * 2 * range, (v - 0.5) * 2 * range];

  const unit = unitSquare(canvas, viewport);
  const toPixel = (vector) => unit.toPixel(toUnitSquare(vector));
  // The vector under a pointer position (client coordinates).
  const toVector = (clientX, clientY) => fromUnitSquare(unit.toUnit(clientX, clientY));

  function drawFrame() {
    const [left, top, width, height] = viewport();
    ctx.fillStyle = COLORS.background;
    ctx.fillRect(0, 0, square.side, square.side);
    ctx.lineWidth = 1;
    ctx.strokeStyle = COLORS.grid;
    const step = range <= 3 ? 0.5 : 1;
    const ticks = [];
    for (let k = -Math.floor(range / step) * step; k <= range; k += step) ticks.push(toPixel([k, k]));
    gridLines(
      ctx,
      viewport(),
      ticks.map(([gx]) => gx),
      ticks.map(([, gy]) => gy),
    );
    const [ox, oy] = toPixel([0, 0]);
    ctx.strokeStyle = COLORS.frame;
    gridLines(ctx, viewport(), [ox], [oy]); // the axes
    ctx.strokeRect(left, top, width, height);
    ctx.font = SIZES.smallFont;
    ctx.fillStyle = COLORS.muted;
    ctx.textAlign = "left";
    ctx.textBaseline = "top";
    ctx.fillText("0", ox + 3, oy + 2);
  }

  function arrow(to, { color, width, head = 9 }) {
    const [ox, oy] = toPixel([0, 0]);
    const [tx, ty] = toPixel(to);
    const length = Math.hypot(tx - ox, ty - oy);
    ctx.strokeStyle = color;
    ctx.fillStyle = color;
    ctx.lineWidth = width;
    ctx.lineCap = "round";
    if (length < 1) return;
    const [ux, uy] = [(tx - ox) / length, (ty - oy) / length];
    const size = Math.min(head, length * 0.6);
    ctx.beginPath();
    ctx.moveTo(ox, oy);
    ctx.lineTo(tx - ux * size * 0.8, ty - uy * size * 0.8);
    ctx.stroke();
    ctx.beginPath();
    ctx.moveTo(tx, ty);
    ctx.lineTo(tx - ux * size - uy * size * 0.55, ty - uy * size + ux * size * 0.55);
    ctx.lineTo(tx - ux * size + uy * size * 0.55, ty - uy * size - ux * size * 0.55);
    ctx.closePath();
    ctx.fill();
  }

  // A label just beyond the tip of a vector, pushed outwards from the origin.
  function tipLabel(to, text, { color, bold = false, distance = 14 }) {
    const [ox, oy] = toPixel([0, 0]);
    const [tx, ty] = toPixel(to);
    const length = Math.hypot(tx - ox, ty - oy) || 1;
    ctx.font = bold ? `700 ${SIZES.font}` : SIZES.font;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    haloText(ctx, text, tx + ((tx - ox) / length) * distance, ty + ((ty - oy) / length) * distance, color);
  }

  // view: {polygon: [[x, y]…], arrows: [{to, label, color, highlight}], handle: {to, label, color},
  //        marker: {at, label, color, away}}
  function render(view) {
    lastView = view;
    square.resize();
    if (!square.side) return;
    const { polygon = [], arrows = [], handle = null, marker = null } = view;
    drawFrame();
    if (polygon.length > 2) {
      ctx.beginPath();
      polygon.forEach((vertex, k) => {
        const [px, py] = toPixel(vertex);
        if (k === 0) ctx.moveTo(px, py);
        else ctx.lineTo(px, py);
      });
      ctx.closePath();
      ctx.fillStyle = COLORS.polygonFill;
      ctx.fill();
      ctx.strokeStyle = COLORS.polygon;
      ctx.lineWidth = 1.5;
      ctx.setLineDash([5, 4]);
      ctx.stroke();
      ctx.setLineDash([]);
    }
    for (const item of arrows) {
      arrow(item.to, { color: item.color, width: item.highlight ? 3.5 : 2 });
      if (item.highlight) {
        const [tx, ty] = toPixel(item.to);
        ctx.beginPath();
        ctx.arc(tx, ty, 11, 0, 2 * Math.PI);
        ctx.strokeStyle = COLORS.pointer;
        ctx.lineWidth = 3;
        ctx.stroke();
      }
      tipLabel(item.to, item.label, {
        color: item.highlight ? COLORS.pointer : item.color,
        bold: item.highlight,
        distance: item.highlight ? 22 : 14,
      });
    }
    if (handle) {
      arrow(handle.to, { color: handle.color, width: 3.5, head: 12 });
      const [tx, ty] = toPixel(handle.to);
      ctx.beginPath();
      ctx.arc(tx, ty, 7, 0, 2 * Math.PI);
      ctx.fillStyle = "#fff";
      ctx.fill();
      ctx.strokeStyle = handle.color;
      ctx.lineWidth = 3;
      ctx.stroke();
      tipLabel(handle.to, handle.label, { color: handle.color, bold: true, distance: 18 });
    }
    if (marker) {
      const [mx, my] = toPixel(marker.at);
      const r = 8;
      ctx.beginPath();
      ctx.moveTo(mx, my - r);
      ctx.lineTo(mx + r, my);
      ctx.lineTo(mx, my + r);
      ctx.lineTo(mx - r, my);
      ctx.closePath();
      ctx.fillStyle = marker.color;
      ctx.fill();
      ctx.strokeStyle = "#fff";
      ctx.lineWidth = 1.5;
      ctx.stroke();
      // The label goes on the side facing away from `marker.away` (e.g. the handle), if given.
      const [ax, ay] = marker.away ?? [-1, -1];
      ctx.font = `700 ${SIZES.font}`;
      ctx.textAlign = ax >= 0 ? "right" : "left";
      ctx.textBaseline = ay >= 0 ? "top" : "bottom";
      haloText(ctx, marker.label, mx + (ax >= 0 ? -(r + 1) : r + 1), my + (ay >= 0 ? r - 2 : -(r - 2)), marker.color);
    }
  }

  followLayout(canvas, square.resize, () => lastView && render(lastView));

  return { canvas, render, toPixel, toVector, toUnitSquare, fromUnitSquare, viewport };
}
