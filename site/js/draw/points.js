// A square canvas showing points in the unit square (y up) with optional polygon, tour and
// triangles. Knows nothing of models: it draws the view it is given.
import { COLORS, SIZES } from "../config.js";
import { createCanvas, followLayout, paddedSquare, unitSquare } from "./canvas.js";

export function create(el, { label }) {
  const { canvas, ctx } = createCanvas(el, { className: "point-canvas", label, role: "application", focusable: true });
  const square = paddedSquare(canvas, ctx, SIZES.padding);
  const { viewport } = square;
  let lastView = null;

  const { toPixel, toUnit } = unitSquare(canvas, viewport);

  function path(points, indices, close) {
    ctx.beginPath();
    indices.forEach((index, k) => {
      const [px, py] = toPixel(points[index]);
      if (k === 0) ctx.moveTo(px, py);
      else ctx.lineTo(px, py);
    });
    if (close) ctx.closePath();
  }

  function drawFrame() {
    const [left, top, width, height] = viewport();
    ctx.fillStyle = COLORS.background;
    ctx.fillRect(0, 0, square.side, square.side);
    ctx.strokeStyle = COLORS.grid;
    ctx.lineWidth = 1;
    for (let k = 1; k < 10; k++) {
      const gx = left + (k / 10) * width;
      const gy = top + (k / 10) * height;
      ctx.beginPath();
      ctx.moveTo(gx, top);
      ctx.lineTo(gx, top + height);
      ctx.moveTo(left, gy);
      ctx.lineTo(left + width, gy);
      ctx.stroke();
    }
    ctx.strokeStyle = COLORS.frame;
    ctx.strokeRect(left, top, width, height);
  }

  function render(view) {
    lastView = view;
    square.resize();
    if (!square.side) return;
    const { points, hull = [], tour = [], triangles = [], selected = -1 } = view;
    drawFrame();
    ctx.lineJoin = "round";
    for (const triangle of triangles) {
      path(points, triangle, true);
      ctx.fillStyle = COLORS.triangleFill;
      ctx.fill();
      ctx.strokeStyle = COLORS.triangle;
      ctx.lineWidth = 1.5;
      ctx.stroke();
    }
    if (hull.length > 1) {
      path(points, hull, true);
      ctx.fillStyle = COLORS.hullFill;
      ctx.fill();
      ctx.strokeStyle = COLORS.hull;
      ctx.lineWidth = SIZES.lineWidth;
      ctx.stroke();
    }
    if (tour.length > 1) {
      path(points, tour, true);
      ctx.setLineDash([7, 5]);
      ctx.strokeStyle = COLORS.tour;
      ctx.lineWidth = SIZES.lineWidth;
      ctx.stroke();
      ctx.setLineDash([]);
    }
    ctx.font = SIZES.font;
    ctx.textBaseline = "bottom";
    points.forEach((point, index) => {
      const [px, py] = toPixel(point);
      ctx.beginPath();
      ctx.arc(px, py, SIZES.pointRadius, 0, 2 * Math.PI);
      ctx.fillStyle = index === selected ? COLORS.selected : COLORS.point;
      ctx.fill();
      if (index === selected) {
        ctx.beginPath();
        ctx.arc(px, py, SIZES.pointRadius + 4, 0, 2 * Math.PI);
        ctx.strokeStyle = COLORS.selected;
        ctx.lineWidth = 2;
        ctx.stroke();
      }
      ctx.fillStyle = COLORS.pointLabel;
      ctx.fillText(`P${index + 1}`, px + 7, py - 5);
    });
  }

  followLayout(canvas, square.resize, () => lastView && render(lastView));

  return { canvas, render, toPixel, toUnit, viewport };
}
