// Matrices as proportional boxes: one small canvas per matrix, `rows × cols` cells of one
// common size, so a 1×V row really is V/H times as wide as a 1×H row. Cells are shaded by value;
// a matrix without values (a weight known only by its shape) is drawn as a hatched outline.
// Stages are rows of the pipeline (a title, a formula line and their matrices, with operator
// signs between them); the matrices wrap on narrow screens. Knows nothing of models: it draws
// the view it is given.
//
// view = {
//   stages: [{ name, title, formula, items: [
//     { name, label, shape: [rows, cols], values?: rows × cols numbers,
//       kind: "signed" (blue +, orange −, scaled by the largest |value|) | "unit" (0 → 1, or
//             0 → max with `max`) | "shape" (no values),
//       shapeText? (the caption's shape, e.g. "40" for a flat vector), max?,
//       mark?: column to outline, markRow?: row to outline,
//       segments?: [{from, to, label}] (column ranges named above the box), accent?: text drawn under the box with a bracket over its full width }
//     | { op: "×" | "+" | "→" …  (a sign between matrices) } ] }
//   or, for a product, { name, title, formula, rows: [[left, op, right], …] } (a grid of three
//   columns: row vectors, signs, matrices; null leaves a cell empty)],
//   empty?: text shown while there is nothing to draw,
// }
import { COLORS, SIZES } from "../config.js";
import { element } from "../ui/dom.js";
import { createCanvas, sizeCanvas } from "./canvas.js";
import { afterResize } from "../ui/resize.js";

const CELL = { min: 2, max: 12 }; // CSS px
const STAGE_PAD = 24; // CSS px of a stage's padding and border
const SIGN_ROOM = 44; // CSS px of a product's column of signs and its gaps
const SEGMENT_ROOM = 16; // CSS px above a box for its segment labels
const ACCENT_ROOM = 22; // CSS px under a box for its bracket and text

function rgb(hex) {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function mix(from, to, t) {
  const [a, b] = [rgb(from), rgb(to)];
  return `rgb(${a.map((c, k) => Math.round(c + (b[k] - c) * t)).join(",")})`;
}

// The fill of one cell: value v of a matrix whose scale is `scale` (> 0).
export function cellColor(kind, v, scale) {
  if (!Number.isFinite(v)) return COLORS.tensorEmpty;
  if (kind === "unit") return mix(COLORS.heatLow, COLORS.tensorUnit, Math.min(1, Math.max(0, v / scale)));
  const t = Math.min(1, Math.abs(v) / scale);
  return mix(COLORS.heatLow, v >= 0 ? COLORS.tensorPositive : COLORS.tensorNegative, t);
}

function scaleOf(item) {
  if (item.kind === "unit") return item.max ?? 1;
  let top = 0;
  for (const row of item.values ?? []) for (const v of row) if (Math.abs(v) > top) top = Math.abs(v);
  return top || 1;
}

export function create(el, { label }) {
  const node = element("div", { class: "tensor-stages", role: "group", "aria-label": label });
  el.append(node);
  let lastView = null;
  let lastWidth = 0;

  // One common cell size: every stage fits its column when it can, the widest matrix of a row of
  // items, and a product's widest row vector beside its widest matrix. The page's CSS may lay the
  // stages out in columns; the first column's width is read from the grid.
  function cellSize(view) {
    const track = parseFloat(getComputedStyle(node).gridTemplateColumns);
    const width = (track > 0 ? track : node.getBoundingClientRect().width || 320) - STAGE_PAD;
    const cols = (items) => Math.max(1, ...items.map((item) => item?.shape?.[1] ?? 0));
    let cell = CELL.max;
    for (const stage of view.stages) {
      const fit = stage.rows
        ? (width - SIGN_ROOM) / (cols(stage.rows.map((row) => row[0])) + cols(stage.rows.map((row) => row[2])))
        : width / cols(stage.items);
      cell = Math.min(cell, Math.floor(fit));
    }
    return Math.max(CELL.min, cell);
  }

  // A matrix's name and shape, e.g. "W_x (8×64)", for its caption and its canvas's label.
  const caption = (item) => `${item.label} (${item.shapeText ?? `${item.shape[0]}×${item.shape[1]}`})`;

  function drawItem(item, cell) {
    const [rows, cols] = item.shape;
    const top = item.segments ? SEGMENT_ROOM : 0;
    const boxW = cols * cell;
    const boxH = rows * cell;
    const width = Math.max(boxW, 1) + 2;
    const height = top + boxH + 2 + (item.accent ? ACCENT_ROOM : 0);
    const { canvas, ctx } = createCanvas(null, { className: "tensor-canvas", label: caption(item) });
    canvas.style.width = `${width}px`; // CSSOM, allowed by the pages' CSP
    canvas.style.height = `${height}px`;
    sizeCanvas(canvas, ctx, width, height);
    const x0 = 1;
    const y0 = top + 1;
    if (item.kind === "shape" || !item.values) {
      ctx.fillStyle = COLORS.tensorEmpty;
      ctx.fillRect(x0, y0, boxW, boxH);
      ctx.save();
      ctx.beginPath();
      ctx.rect(x0, y0, boxW, boxH);
      ctx.clip();
      ctx.strokeStyle = COLORS.grid;
      ctx.lineWidth = 1;
      ctx.beginPath();
      for (let d = -boxH; d < boxW; d += 8) {
        ctx.moveTo(x0 + d, y0 + boxH);
        ctx.lineTo(x0 + d + boxH, y0);
      }
      ctx.stroke();
      ctx.restore();
    } else {
      const scale = scaleOf(item);
      for (let r = 0; r < rows; r++) {
        for (let c = 0; c < cols; c++) {
          ctx.fillStyle = cellColor(item.kind, item.values[r]?.[c], scale);
          ctx.fillRect(x0 + c * cell, y0 + r * cell, cell, cell);
        }
      }
      if (cell >= 8) {
        // Hairlines keep neighbouring shades apart.
        ctx.strokeStyle = "rgba(255, 255, 255, 0.75)";
        ctx.lineWidth = 1;
        ctx.beginPath();
        for (let c = 1; c < cols; c++) {
          ctx.moveTo(x0 + c * cell + 0.5, y0);
          ctx.lineTo(x0 + c * cell + 0.5, y0 + boxH);
        }
        for (let r = 1; r < rows; r++) {
          ctx.moveTo(x0, y0 + r * cell + 0.5);
          ctx.lineTo(x0 + boxW, y0 + r * cell + 0.5);
        }
        ctx.stroke();
      }
    }
    ctx.strokeStyle = COLORS.frame;
    ctx.lineWidth = 1;
    ctx.strokeRect(x0 - 0.5, y0 - 0.5, boxW + 1, boxH + 1);
    for (const segment of item.segments ?? []) {
      const sx = x0 + segment.from * cell;
      const sw = (segment.to - segment.from) * cell;
      ctx.strokeStyle = COLORS.text;
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      ctx.moveTo(sx + 0.5, y0 - 4);
      ctx.lineTo(sx + 0.5, y0 + boxH);
      ctx.stroke();
      ctx.fillStyle = COLORS.text;
      ctx.font = SIZES.font;
      ctx.textAlign = "center";
      ctx.textBaseline = "bottom";
      ctx.fillText(segment.label, sx + sw / 2, y0 - 2);
    }
    if (item.mark !== undefined && item.mark >= 0) {
      ctx.strokeStyle = COLORS.selected;
      ctx.lineWidth = 2;
      const w = Math.max(cell, 3);
      ctx.strokeRect(x0 + item.mark * cell - (w - cell) / 2 - 1, y0 - 2, w + 2, boxH + 4);
    }
    if (item.markRow !== undefined && item.markRow >= 0) {
      ctx.strokeStyle = COLORS.pointer;
      ctx.lineWidth = 2;
      const h = Math.max(cell, 3);
      ctx.strokeRect(x0 - 2, y0 + item.markRow * cell - (h - cell) / 2 - 1, boxW + 4, h + 2);
    }
    if (item.accent) {
      const by = y0 + boxH + 5;
      ctx.strokeStyle = COLORS.accentV;
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      ctx.moveTo(x0, by - 3);
      ctx.lineTo(x0, by);
      ctx.lineTo(x0 + boxW, by);
      ctx.lineTo(x0 + boxW, by - 3);
      ctx.stroke();
      ctx.fillStyle = COLORS.accentV;
      ctx.font = `700 ${SIZES.font}`;
      ctx.textAlign = "center";
      ctx.textBaseline = "top";
      ctx.fillText(item.accent, x0 + boxW / 2, by + 2);
    }
    return canvas;
  }

  // One matrix (label and canvas) or one operator sign.
  function piece(item, cell) {
    if (item.op !== undefined) return element("span", { class: "tensor-op", "aria-hidden": "true", text: item.op });
    return element(
      "figure",
      { class: `tensor is-${item.kind}`, "data-tensor": item.name, "data-shape": JSON.stringify(item.shape) },
      [element("figcaption", { class: "tensor-label", text: caption(item) }), drawItem(item, cell)],
    );
  }

  function render(view) {
    lastView = view;
    lastWidth = node.getBoundingClientRect().width;
    if (!view.stages?.length) {
      node.replaceChildren(element("p", { class: "tensor-empty", text: view.empty ?? "" }));
      return;
    }
    const cell = cellSize(view);
    node.dataset.cell = String(cell);
    node.replaceChildren(
      ...view.stages.map((stage) => {
        const formula = stage.formula ? [element("span", { class: "tensor-formula", text: stage.formula })] : [];
        const head = element("p", { class: "tensor-stage-head" }, [
          element("span", { class: "tensor-stage-title", text: stage.title }),
          ...formula,
        ]);
        // A product is laid out as on paper: each row vector left of its matrix, the result under
        // the matrices, so equal widths line up.
        const row = stage.rows
          ? element(
              "div",
              { class: "tensor-matmul" },
              stage.rows.flat().map((item) => (item ? piece(item, cell) : element("span"))),
            )
          : element(
              "div",
              { class: "tensor-row" },
              stage.items.map((item) => piece(item, cell)),
            );
        return element("div", { class: "tensor-stage", ...(stage.name ? { "data-stage": stage.name } : {}) }, [
          head,
          row,
        ]);
      }),
    );
  }

  // Re-render at the new width when the layout changes.
  afterResize(node, () => {
    const width = node.getBoundingClientRect().width;
    if (lastView && Math.abs(width - lastWidth) >= 1) render(lastView);
  });

  return { node, render };
}
