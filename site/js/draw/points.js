// A square canvas showing points in the unit square (y up) with optional polygon, tour and
// triangles, and optionally a second answer drawn over them (`over`: a dark polygon, tour or
// triangles with its wrong edges and triangles in red), extra dashed tours beneath it and dashed
// outlines on top of it (`topTours`: a third answer that must stay visible). When `over` is
// given the first answer is drawn wide and pale underneath it; `compact` draws small unlabelled
// points and thinner lines (thumbnails, large sets). Knows nothing of models: it draws the view
// it is given.
import { COLORS, SIZES } from "../config.js";
import { createCanvas, followLayout, gridLines, paddedSquare, unitSquare } from "./canvas.js";

export function create(el, { label, padding = SIZES.padding, interactive = true }) {
  const { canvas, ctx } = createCanvas(el, {
    className: "point-canvas",
    label,
    role: interactive ? "application" : "img",
    focusable: interactive,
  });
  const square = paddedSquare(canvas, ctx, padding);
  const { viewport } = square;
  let lastView = null;
  let underWidth = SIZES.underWidth;

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
    const tenths = Array.from({ length: 9 }, (_, k) => (k + 1) / 10);
    gridLines(
      ctx,
      [left, top, width, height],
      tenths.map((f) => left + f * width),
      tenths.map((f) => top + f * height),
    );
    ctx.strokeStyle = COLORS.frame;
    ctx.strokeRect(left, top, width, height);
  }

  function stroke(color, width, dash = []) {
    ctx.setLineDash(dash);
    ctx.strokeStyle = color;
    ctx.lineWidth = width;
    ctx.stroke();
    ctx.setLineDash([]);
  }

  // The reference answer: its usual look, or wide and pale under a second answer.
  function drawAnswer({ hull, tour, triangles }, under) {
    for (const triangle of triangles) {
      path(points(), triangle, true);
      ctx.fillStyle = COLORS.triangleFill;
      ctx.fill();
      stroke(under ? COLORS.triangleUnder : COLORS.triangle, under ? underWidth / 2 : 1.5);
    }
    if (hull.length > 1) {
      path(points(), hull, true);
      ctx.fillStyle = COLORS.hullFill;
      ctx.fill();
      stroke(under ? COLORS.hullUnder : COLORS.hull, under ? underWidth : SIZES.lineWidth);
    }
    if (tour.length > 1) {
      path(points(), tour, true);
      if (under) stroke(COLORS.tourUnder, underWidth);
      else stroke(COLORS.tour, SIZES.lineWidth, [7, 5]);
    }
  }

  // The answer compared with the reference: dark lines, mistakes in red.
  function drawOver({ hull = [], tour = [], triangles = [], wrongEdges = [], wrongTriangles = [] }) {
    for (const triangle of wrongTriangles) {
      path(points(), triangle, true);
      ctx.fillStyle = COLORS.wrongFill;
      ctx.fill();
    }
    for (const triangle of triangles) {
      path(points(), triangle, true);
      stroke(COLORS.model, 1.25);
    }
    for (const triangle of wrongTriangles) {
      path(points(), triangle, true);
      stroke(COLORS.wrong, 2);
    }
    if (hull.length > 1) {
      path(points(), hull, false);
      stroke(COLORS.model, 1.75);
    }
    if (tour.length > 1) {
      path(points(), tour, true);
      stroke(COLORS.model, 1.75);
    }
    for (const edge of wrongEdges) {
      path(points(), edge, false);
      stroke(COLORS.wrong, 3);
    }
  }

  let current = [];
  const points = () => current;

  // Closed dashed outlines ({tour, color}) over what is drawn so far.
  function drawDashed(tours, width, dash) {
    for (const { tour, color } of tours) {
      path(current, tour, true);
      stroke(color, width, dash);
    }
  }

  function render(view) {
    lastView = view;
    square.resize();
    if (!square.side) return;
    const { hull = [], tour = [], triangles = [], selected = -1, over = null, extraTours = [], topTours = [] } = view;
    current = view.points;
    underWidth = view.compact ? SIZES.underWidth / 2 : SIZES.underWidth;
    drawFrame();
    ctx.lineJoin = "round";
    drawAnswer({ hull, tour, triangles }, Boolean(over));
    drawDashed(extraTours, 1.5, [4, 4]);
    if (over) drawOver(over);
    drawDashed(topTours, 2, [5, 4]);
    ctx.font = SIZES.font;
    ctx.textBaseline = "bottom";
    const radius = view.compact ? SIZES.compactRadius : SIZES.pointRadius;
    current.forEach((point, index) => {
      const [px, py] = toPixel(point);
      ctx.beginPath();
      ctx.arc(px, py, radius, 0, 2 * Math.PI);
      ctx.fillStyle = index === selected ? COLORS.selected : COLORS.point;
      ctx.fill();
      if (index === selected) {
        ctx.beginPath();
        ctx.arc(px, py, SIZES.pointRadius + 4, 0, 2 * Math.PI);
        ctx.strokeStyle = COLORS.selected;
        ctx.lineWidth = 2;
        ctx.stroke();
      }
    });
    if (view.compact) return;
    // One label per place: points at the same place share it ("P1, P6") instead of overprinting
    const places = new Map();
    current.forEach((point, index) => {
      const key = point.join(",");
      places.set(key, [...(places.get(key) ?? []), index]);
    });
    ctx.fillStyle = COLORS.pointLabel;
    for (const indices of places.values()) {
      const [px, py] = toPixel(current[indices[0]]);
      ctx.fillText(indices.map((index) => `P${index + 1}`).join(", "), px + 7, py - 5);
    }
  }

  followLayout(canvas, square.resize, () => lastView && render(lastView));

  return { canvas, render, toPixel, toUnit, viewport };
}
