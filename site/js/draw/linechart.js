// A line chart on a canvas: axes with ticks and labels, shaded x ranges, a legend, and lines.
// A series with more points than the plot has pixel columns is reduced to one column per pixel
// (its mean as the line, optionally its min–max as a faint envelope), so callers may keep every
// point. Knows nothing of models: it draws the view it is given.
//
// view = {
//   x: {min, max, label, ticks?, format?},  y: {min, max, label, log?, ticks?, format?},
//   bands: [{from, to, color, label}],      shaded x ranges behind the lines
//   series: [{xs, ys, color, width, dash, alpha, envelope, markers}],
//   legend: [{label, color, width, dash, alpha} or {label, fill}],  a line or a filled swatch
//   empty: text shown in the plot while no series has points,
// }
import { COLORS, SIZES } from "../config.js";
import { centredLines, createCanvas, followLayout, layoutBox } from "./canvas.js";

const MARGIN = { left: 58, right: 16, top: 14, bottom: 46 };
const LEGEND_ROW = 22; // CSS px per legend row
const LEGEND_SAMPLE = 24; // CSS px of line drawn before each legend label

// About `count` round tick values in [min, max] (steps of 1, 2, 2.5 or 5 times a power of ten).
export function niceTicks(min, max, count = 5) {
  if (!(max > min)) return [min];
  const raw = (max - min) / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw * 0.999);
  const ticks = [];
  for (let k = Math.ceil(min / step - 1e-9); k * step <= max + step * 1e-9; k++)
    ticks.push(+(k * step).toPrecision(12));
  return ticks;
}

// Ticks at 1, 2 and 5 times each power of ten in [min, max] (only the powers if that is too many).
export function logTicks(min, max) {
  const ticks = [];
  for (let e = Math.floor(Math.log10(min)); e <= Math.ceil(Math.log10(max)); e++) {
    for (const m of [1, 2, 5]) {
      const v = +(m * 10 ** e).toPrecision(12);
      if (v >= min * (1 - 1e-9) && v <= max * (1 + 1e-9)) ticks.push(v);
    }
  }
  return ticks.length > 9 ? ticks.filter((v) => Math.abs(Math.log10(v) - Math.round(Math.log10(v))) < 1e-9) : ticks;
}

const defaultFormat = (v) => String(+v.toPrecision(4));

export function create(el, { label, aspect = 0.5 }) {
  const { canvas, ctx } = createCanvas(el, { className: "chart-canvas", label, aspect });
  const box = layoutBox(canvas, ctx);
  let lastView = null;

  function scaler(axis, from, to) {
    if (axis.log) {
      const a = Math.log10(axis.min);
      const b = Math.log10(axis.max);
      return (v) => from + ((Math.log10(v) - a) / (b - a)) * (to - from);
    }
    return (v) => from + ((v - axis.min) / (axis.max - axis.min)) * (to - from);
  }

  // Legend entries laid out in rows; returns the rows' total height.
  function layoutLegend(legend) {
    ctx.font = SIZES.font;
    const placed = [];
    let x = MARGIN.left;
    let row = 0;
    for (const item of legend) {
      const w = LEGEND_SAMPLE + 6 + ctx.measureText(item.label).width + 18;
      if (x + w > box.width - MARGIN.right && x > MARGIN.left) {
        row += 1;
        x = MARGIN.left;
      }
      placed.push({ item, x, y: 4 + row * LEGEND_ROW + LEGEND_ROW / 2 });
      x += w;
    }
    return { placed, height: legend.length ? (row + 1) * LEGEND_ROW + 2 : 0 };
  }

  function strokeStyle({ color, width: lineWidth = 2, dash = [], alpha = 1 }) {
    ctx.strokeStyle = color;
    ctx.lineWidth = lineWidth;
    ctx.setLineDash(dash);
    ctx.globalAlpha = alpha;
  }

  // Screen points of a series, reduced to pixel columns when there are more points than columns.
  function screenPoints(series, sx, sy, plot) {
    const n = Math.min(series.xs.length, series.ys.length);
    const points = [];
    for (let k = 0; k < n; k++) {
      const px = sx(series.xs[k]);
      const py = sy(series.ys[k]);
      if (Number.isFinite(px) && Number.isFinite(py)) points.push([px, py]);
      else points.push(null); // a gap
    }
    if (points.length <= plot.width) return { points, reduced: false };
    const columns = new Map();
    for (const point of points) {
      if (!point) continue;
      const key = Math.floor(point[0]);
      const c = columns.get(key);
      if (c) {
        c.sum += point[1];
        c.count += 1;
        c.min = Math.min(c.min, point[1]);
        c.max = Math.max(c.max, point[1]);
      } else {
        columns.set(key, { x: key + 0.5, sum: point[1], count: 1, min: point[1], max: point[1] });
      }
    }
    const reduced = [...columns.values()].sort((a, b) => a.x - b.x);
    return { points: reduced.map((c) => [c.x, c.sum / c.count]), columns: reduced, reduced: true };
  }

  function polyline(points) {
    ctx.beginPath();
    let pen = false;
    for (const point of points) {
      if (!point) {
        pen = false;
        continue;
      }
      if (pen) ctx.lineTo(point[0], point[1]);
      else ctx.moveTo(point[0], point[1]);
      pen = true;
    }
    ctx.stroke();
  }

  function drawSeries(series, sx, sy, plot) {
    const { points, columns } = screenPoints(series, sx, sy, plot);
    if (!points.length) return;
    ctx.save();
    ctx.beginPath();
    ctx.rect(plot.left, plot.top, plot.width, plot.height);
    ctx.clip();
    if (series.envelope && columns?.length > 1) {
      ctx.beginPath();
      ctx.moveTo(columns[0].x, columns[0].min);
      for (const c of columns.slice(1)) ctx.lineTo(c.x, c.min);
      for (let k = columns.length - 1; k >= 0; k--) ctx.lineTo(columns[k].x, columns[k].max);
      ctx.closePath();
      ctx.fillStyle = series.color;
      ctx.globalAlpha = 0.16 * (series.alpha ?? 1);
      ctx.fill();
    }
    ctx.lineJoin = "round";
    ctx.lineCap = "round";
    strokeStyle(series);
    polyline(points);
    if (series.markers) {
      ctx.setLineDash([]);
      ctx.fillStyle = series.color;
      for (const point of points) {
        if (!point) continue;
        ctx.beginPath();
        ctx.arc(point[0], point[1], 2.6, 0, 2 * Math.PI);
        ctx.fill();
      }
    }
    ctx.restore();
  }

  function drawAxes(view, sx, sy, plot) {
    const { x, y } = view;
    const xTicks = x.ticks ?? niceTicks(x.min, x.max, Math.max(3, Math.floor(plot.width / 80)));
    const yTicks =
      y.ticks ?? (y.log ? logTicks(y.min, y.max) : niceTicks(y.min, y.max, Math.max(3, Math.floor(plot.height / 45))));
    const xFormat = x.format ?? defaultFormat;
    const yFormat = y.format ?? defaultFormat;
    ctx.font = SIZES.smallFont;
    ctx.fillStyle = COLORS.muted;
    ctx.strokeStyle = COLORS.grid;
    ctx.lineWidth = 1;
    ctx.textAlign = "right";
    ctx.textBaseline = "middle";
    for (const v of yTicks) {
      const py = Math.round(sy(v)) + 0.5;
      if (py < plot.top - 1 || py > plot.top + plot.height + 1) continue;
      ctx.beginPath();
      ctx.moveTo(plot.left, py);
      ctx.lineTo(plot.left + plot.width, py);
      ctx.stroke();
      ctx.fillText(yFormat(v), plot.left - 6, py);
    }
    ctx.textAlign = "center";
    ctx.textBaseline = "top";
    ctx.strokeStyle = COLORS.frame;
    for (const v of xTicks) {
      const px = Math.round(sx(v)) + 0.5;
      if (px < plot.left - 1 || px > plot.left + plot.width + 1) continue;
      ctx.beginPath();
      ctx.moveTo(px, plot.top + plot.height);
      ctx.lineTo(px, plot.top + plot.height + 4);
      ctx.stroke();
      ctx.fillText(xFormat(v), px, plot.top + plot.height + 6);
    }
    ctx.strokeStyle = COLORS.frame;
    ctx.beginPath();
    ctx.moveTo(plot.left + 0.5, plot.top);
    ctx.lineTo(plot.left + 0.5, plot.top + plot.height + 0.5);
    ctx.lineTo(plot.left + plot.width, plot.top + plot.height + 0.5);
    ctx.stroke();
    ctx.font = SIZES.font;
    ctx.fillStyle = COLORS.text;
    if (x.label) {
      ctx.textAlign = "center";
      ctx.textBaseline = "bottom";
      ctx.fillText(x.label, plot.left + plot.width / 2, box.height - 4);
    }
    if (y.label) {
      ctx.save();
      ctx.translate(14, plot.top + plot.height / 2);
      ctx.rotate(-Math.PI / 2);
      ctx.textAlign = "center";
      ctx.textBaseline = "middle";
      ctx.fillText(y.label, 0, 0);
      ctx.restore();
    }
  }

  function drawBands(bands, sx, plot) {
    for (const band of bands) {
      const left = Math.max(plot.left, sx(band.from));
      const right = Math.min(plot.left + plot.width, sx(band.to));
      if (right <= left) continue;
      ctx.fillStyle = band.color;
      ctx.fillRect(left, plot.top, right - left, plot.height);
      ctx.font = SIZES.smallFont;
      if (band.label && ctx.measureText(band.label).width + 6 <= right - left) {
        // Half way up, where lines near 0 or 1 do not cross it.
        ctx.fillStyle = COLORS.muted;
        ctx.textAlign = "center";
        ctx.textBaseline = "middle";
        ctx.fillText(band.label, (left + right) / 2, plot.top + plot.height * 0.55);
      }
    }
  }

  function drawLegend(placed) {
    ctx.font = SIZES.font;
    ctx.textBaseline = "middle";
    ctx.textAlign = "left";
    for (const { item, x, y } of placed) {
      ctx.save();
      if (item.fill) {
        ctx.fillStyle = item.fill;
        ctx.fillRect(x, y - 7, LEGEND_SAMPLE, 14);
      } else {
        strokeStyle({ width: 2.5, ...item });
        ctx.beginPath();
        ctx.moveTo(x, y);
        ctx.lineTo(x + LEGEND_SAMPLE, y);
        ctx.stroke();
      }
      ctx.restore();
      ctx.fillStyle = COLORS.text;
      ctx.fillText(item.label, x + LEGEND_SAMPLE + 6, y);
    }
  }

  function render(view) {
    lastView = view;
    box.resize();
    if (!box.width) return;
    const { bands = [], series = [], legend = [], empty } = view;
    ctx.setLineDash([]);
    ctx.globalAlpha = 1;
    ctx.fillStyle = COLORS.background;
    ctx.fillRect(0, 0, box.width, box.height);
    const { placed, height: legendHeight } = layoutLegend(legend);
    const plot = {
      left: MARGIN.left,
      top: MARGIN.top + legendHeight,
      width: Math.max(10, box.width - MARGIN.left - MARGIN.right),
      height: Math.max(10, box.height - MARGIN.top - legendHeight - MARGIN.bottom),
    };
    const sx = scaler(view.x, plot.left, plot.left + plot.width);
    const sy = scaler(view.y, plot.top + plot.height, plot.top);
    drawBands(bands, sx, plot);
    drawAxes(view, sx, sy, plot);
    for (const s of series) drawSeries(s, sx, sy, plot);
    drawLegend(placed);
    const hasPoints = series.some((s) => s.xs.length > 0);
    if (empty && !hasPoints) {
      ctx.font = SIZES.font;
      ctx.fillStyle = COLORS.muted;
      centredLines(ctx, empty, plot.left + plot.width / 2, plot.top + plot.height / 2, plot.width - 16, 18);
    }
  }

  // Re-render at the new size when the layout changes.
  followLayout(canvas, box.resize, () => lastView && render(lastView));

  return { canvas, render };
}
