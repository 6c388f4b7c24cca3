// A square canvas showing points in the unit square (y up) with optional polygon, tour and
// triangles. Knows nothing of models: it draws the view it is given.
import { COLORS, SIZES } from "../config.js";

export function create(el, { label }) {
  const canvas = document.createElement("canvas");
  canvas.className = "point-canvas";
  canvas.tabIndex = 0;
  canvas.setAttribute("role", "application");
  canvas.setAttribute("aria-label", label);
  el.append(canvas);
  const ctx = canvas.getContext("2d");
  let cssSize = 0;
  let lastView = null;

  // The unit square's placement in CSS pixels, relative to the canvas: [left, top, width, height].
  function viewport() {
    const side = cssSize - 2 * SIZES.padding;
    return [SIZES.padding, SIZES.padding, side, side];
  }

  function toPixel([x, y]) {
    const [left, top, width, height] = viewport();
    return [left + x * width, top + (1 - y) * height];
  }

  function toUnit(clientX, clientY) {
    const rect = canvas.getBoundingClientRect();
    const [left, top, width, height] = viewport();
    return [(clientX - rect.left - left) / width, 1 - (clientY - rect.top - top) / height];
  }

  function resize() {
    const size = Math.round(canvas.getBoundingClientRect().width);
    if (size === cssSize || size === 0) return false;
    cssSize = size;
    const ratio = window.devicePixelRatio || 1;
    canvas.width = Math.round(size * ratio);
    canvas.height = Math.round(size * ratio);
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    canvas.dataset.viewport = JSON.stringify(viewport());
    return true;
  }

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
    ctx.fillRect(0, 0, cssSize, cssSize);
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
    resize();
    if (!cssSize) return;
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

  // Re-render at the new size when the layout changes (e.g. rotating a phone).
  new ResizeObserver(() => {
    if (resize() && lastView) render(lastView);
  }).observe(canvas);
  resize();

  return { canvas, render, toPixel, toUnit, viewport };
}
