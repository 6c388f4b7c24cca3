// A heat map of a table of values in [0, 1] on a canvas: one shaded cell per row and column,
// a label above each column and left of each row, one outlined cell and one dot per row.
// Knows nothing of models: it draws the view it is given.
//
// view = {
//   values: rows × columns numbers in [0, 1] (the shade),
//   columnLabels, rowLabels, columnFooters?: strings,  columnTitle, rowTitle: strings,
//   outline: column per row to outline (or -1),
//   marks: {column, wrong} per row (or null): a dot, drawn in the warning colour when wrong,
//   empty?: text shown while there are no values,
// }
import { COLORS, SIZES } from "../config.js";
import { createCanvas, sizeCanvas } from "./canvas.js";
import { afterResize } from "../ui/resize.js";

const TITLE = 20; // CSS px for the column title (top) and the row title (left)
const FOOTER = 18; // CSS px for the column footers
const GAP = 6; // CSS px between labels and cells

function rgb(hex) {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

// The shade of a value in [0, 1], from COLORS.heatLow to COLORS.heatHigh.
export function shade(value) {
  const t = Math.min(1, Math.max(0, Number.isFinite(value) ? value : 0));
  const [low, high] = [rgb(COLORS.heatLow), rgb(COLORS.heatHigh)];
  return `rgb(${low.map((c, k) => Math.round(c + (high[k] - c) * t)).join(",")})`;
}

export function create(el, { label }) {
  const { canvas, ctx } = createCanvas(el, { className: "heatmap-canvas", label });
  let containerWidth = 0;
  let lastView = null;

  const font = (px) => `${px}px ${SIZES.fontFamily}`;

  // Cell size, label placement and the canvas size for a view at the current container width.
  function layout(view) {
    const rows = view.values.length;
    const cols = rows ? view.values[0].length : 0;
    const labelPx = 13;
    ctx.font = font(labelPx);
    const rowLabelWidth = Math.max(0, ...view.rowLabels.map((t) => ctx.measureText(t).width));
    const left = TITLE + rowLabelWidth + GAP;
    const right = 8;
    const room = containerWidth - left - right;
    const cell = Math.max(SIZES.heatMinCell, Math.min(SIZES.heatMaxCell, Math.floor(room / Math.max(1, cols))));
    const columnPx = Math.max(9, Math.min(13, Math.round(cell * 0.62)));
    ctx.font = font(columnPx);
    const textWidth = Math.max(0, ...view.columnLabels.map((t) => ctx.measureText(t).width));
    const rotated = textWidth + 4 > cell;
    const labelsHeight = (rotated ? textWidth : columnPx) + GAP + 2;
    const top = TITLE + labelsHeight;
    const gridWidth = cell * cols;
    const width = Math.max(containerWidth, left + gridWidth + right);
    const offset = left + Math.max(0, Math.floor((width - left - right - gridWidth) / 2));
    const height = top + cell * rows + (view.columnFooters ? FOOTER : 0) + 4;
    return { rows, cols, cell, left: offset, top, width, height, rotated, columnPx, rowLabelWidth };
  }

  function size(width, height) {
    canvas.style.width = `${width}px`; // CSSOM, allowed by the pages' CSP
    canvas.style.height = `${height}px`;
    sizeCanvas(canvas, ctx, width, height);
  }

  function drawLabels(view, g) {
    const { cell, left, top, rows, cols } = g;
    ctx.fillStyle = COLORS.text;
    ctx.font = font(g.columnPx);
    // Rotated labels need a line height each; on very narrow cells only every k-th fits.
    const every = g.rotated ? Math.max(1, Math.ceil((g.columnPx + 1) / cell)) : 1;
    for (let j = 0; j < cols; j++) {
      if (j % every) continue;
      const cx = left + (j + 0.5) * cell;
      if (g.rotated) {
        ctx.save();
        ctx.translate(cx, top - GAP);
        ctx.rotate(-Math.PI / 2);
        ctx.textAlign = "left";
        ctx.textBaseline = "middle";
        ctx.fillText(view.columnLabels[j], 0, 0);
        ctx.restore();
      } else {
        ctx.textAlign = "center";
        ctx.textBaseline = "bottom";
        ctx.fillText(view.columnLabels[j], cx, top - GAP);
      }
    }
    // Row labels: every row when they fit, else every fifth (and the first).
    ctx.font = font(Math.max(9, Math.min(13, Math.round(cell * 0.7))));
    ctx.textAlign = "right";
    ctx.textBaseline = "middle";
    ctx.fillStyle = COLORS.muted;
    const everyRow = cell >= 13;
    for (let i = 0; i < rows; i++) {
      if (everyRow || i === 0 || (i + 1) % 5 === 0) ctx.fillText(view.rowLabels[i], left - GAP, top + (i + 0.5) * cell);
    }
    if (view.columnFooters) {
      ctx.textAlign = "center";
      ctx.textBaseline = "top";
      ctx.font = font(Math.max(9, Math.min(12, Math.round(cell * 0.6))));
      const everyColumn = cell >= 18;
      for (let j = 0; j < cols; j++) {
        if (everyColumn || j === 0 || (j + 1) % 5 === 0)
          ctx.fillText(view.columnFooters[j], left + (j + 0.5) * cell, top + rows * cell + 3);
      }
    }
    ctx.font = SIZES.font;
    ctx.fillStyle = COLORS.text;
    if (view.columnTitle) {
      ctx.textAlign = "left";
      ctx.textBaseline = "top";
      ctx.fillText(view.columnTitle, Math.max(TITLE, left - g.rowLabelWidth - GAP), 2);
    }
    if (view.rowTitle) {
      ctx.save();
      ctx.translate(TITLE / 2 + 1, top + (rows * cell) / 2);
      ctx.rotate(-Math.PI / 2);
      ctx.textAlign = "center";
      ctx.textBaseline = "middle";
      ctx.fillText(view.rowTitle, 0, 0);
      ctx.restore();
    }
  }

  function drawCells(view, g) {
    const { cell, left, top, rows, cols } = g;
    for (let i = 0; i < rows; i++) {
      for (let j = 0; j < cols; j++) {
        ctx.fillStyle = shade(view.values[i][j]);
        ctx.fillRect(left + j * cell, top + i * cell, cell, cell);
      }
    }
    if (cell >= 10) {
      // Hairlines between cells keep neighbouring shades apart.
      ctx.strokeStyle = "rgba(255, 255, 255, 0.7)";
      ctx.lineWidth = 1;
      ctx.beginPath();
      for (let j = 1; j < cols; j++) {
        ctx.moveTo(left + j * cell + 0.5, top);
        ctx.lineTo(left + j * cell + 0.5, top + rows * cell);
      }
      for (let i = 1; i < rows; i++) {
        ctx.moveTo(left, top + i * cell + 0.5);
        ctx.lineTo(left + cols * cell, top + i * cell + 0.5);
      }
      ctx.stroke();
    }
    ctx.strokeStyle = COLORS.frame;
    ctx.strokeRect(left - 0.5, top - 0.5, cols * cell + 1, rows * cell + 1);
  }

  function drawMarks(view, g) {
    const { cell, left, top } = g;
    const outlineWidth = cell >= 14 ? 2.5 : 1.5;
    ctx.lineWidth = outlineWidth;
    ctx.strokeStyle = COLORS.correct;
    (view.outline ?? []).forEach((j, i) => {
      if (j < 0) return;
      const inset = outlineWidth / 2;
      ctx.strokeRect(left + j * cell + inset, top + i * cell + inset, cell - 2 * inset, cell - 2 * inset);
    });
    const radius = Math.max(2.2, cell * 0.17);
    (view.marks ?? []).forEach((mark, i) => {
      if (!mark) return;
      ctx.beginPath();
      ctx.arc(left + (mark.column + 0.5) * cell, top + (i + 0.5) * cell, radius, 0, 2 * Math.PI);
      ctx.fillStyle = mark.wrong ? COLORS.wrong : COLORS.choice;
      ctx.fill();
      ctx.lineWidth = cell >= 14 ? 1.5 : 1;
      ctx.strokeStyle = mark.wrong ? COLORS.choice : COLORS.choiceEdge;
      ctx.stroke();
    });
  }

  function render(view) {
    lastView = view;
    containerWidth = Math.round(el.getBoundingClientRect().width);
    if (!containerWidth) return;
    if (!view.values.length) {
      size(containerWidth, 120);
      ctx.fillStyle = COLORS.background;
      ctx.fillRect(0, 0, containerWidth, 120);
      ctx.font = SIZES.font;
      ctx.fillStyle = COLORS.muted;
      ctx.textAlign = "center";
      ctx.textBaseline = "middle";
      ctx.fillText(view.empty ?? "", containerWidth / 2, 60);
      return;
    }
    const g = layout(view);
    size(g.width, g.height);
    ctx.fillStyle = COLORS.background;
    ctx.fillRect(0, 0, g.width, g.height);
    drawLabels(view, g);
    drawCells(view, g);
    drawMarks(view, g);
  }

  // Re-render when the container's width changes (the height follows the view).
  afterResize(el, () => {
    const width = Math.round(el.getBoundingClientRect().width);
    if (width && width !== containerWidth && lastView) render(lastView);
  });

  return { canvas, render };
}
