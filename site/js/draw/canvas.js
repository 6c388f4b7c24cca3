// What every drawing module does with its canvases: create one with its accessible name, give
// it a backing store in device pixels (drawing stays in CSS pixels), follow its layout size,
// and map the unit square shown on it to pixels and back.
import { afterResize } from "../ui/resize.js";

export function createCanvas(el, { className, label, role = "img", focusable = false, aspect = null }) {
  const canvas = document.createElement("canvas");
  canvas.className = className;
  if (focusable) canvas.tabIndex = 0;
  canvas.setAttribute("role", role);
  canvas.setAttribute("aria-label", label);
  if (aspect) canvas.style.aspectRatio = String(1 / aspect); // CSSOM, allowed by the pages' CSP
  el?.append(canvas);
  return { canvas, ctx: canvas.getContext("2d") };
}

// A backing store of width × height CSS pixels at the screen's pixel ratio, so lines stay sharp.
export function sizeCanvas(canvas, ctx, width, height) {
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(height * ratio);
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
}

// The canvas sized to the box the page lays it out in: box.width and box.height in CSS pixels;
// box.resize() says whether they changed (false too while the canvas is not laid out).
export function layoutBox(canvas, ctx) {
  const box = {
    width: 0,
    height: 0,
    resize() {
      const rect = canvas.getBoundingClientRect();
      const [width, height] = [Math.round(rect.width), Math.round(rect.height)];
      if ((width === box.width && height === box.height) || !width || !height) return false;
      Object.assign(box, { width, height });
      sizeCanvas(canvas, ctx, width, height);
      return true;
    },
  };
  return box;
}

// A canvas as tall as it is wide, `side` CSS pixels, showing the unit square inset by padding:
// viewport() is that square's [left, top, width, height], also kept in data-viewport for tests
// and pointer input; resize() as for layoutBox.
export function paddedSquare(canvas, ctx, padding) {
  const square = {
    side: 0,
    viewport: () => [padding, padding, square.side - 2 * padding, square.side - 2 * padding],
    resize() {
      const side = Math.round(canvas.getBoundingClientRect().width);
      if (side === square.side || side === 0) return false;
      square.side = side;
      sizeCanvas(canvas, ctx, side, side);
      canvas.dataset.viewport = JSON.stringify(square.viewport());
      return true;
    },
  };
  return square;
}

// resize() sizes the canvas for its current layout and says whether anything changed; it runs
// now and whenever the layout changes (a phone rotated, a column narrowed), then redraw().
export function followLayout(canvas, resize, redraw) {
  afterResize(canvas, () => {
    if (resize()) redraw();
  });
  resize();
}

// The unit square (y up) drawn at viewport() = [left, top, width, height] CSS pixels of the canvas.
export function unitSquare(canvas, viewport) {
  return {
    toPixel([x, y]) {
      const [left, top, width, height] = viewport();
      return [left + x * width, top + (1 - y) * height];
    },
    toUnit(clientX, clientY) {
      const rect = canvas.getBoundingClientRect();
      const [left, top, width, height] = viewport();
      return [(clientX - rect.left - left) / width, 1 - (clientY - rect.top - top) / height];
    },
  };
}

// Text with a pale halo, legible on top of lines and shapes; ctx's font and alignment as set.
export function haloText(ctx, text, x, y, color) {
  ctx.lineJoin = "round";
  ctx.lineWidth = 3.5;
  ctx.strokeStyle = "rgba(251, 250, 247, 0.92)"; // the page's paper colour
  ctx.strokeText(text, x, y);
  ctx.fillStyle = color;
  ctx.fillText(text, x, y);
}

// Grid lines across the box [left, top, width, height]: vertical ones at the x pixels, horizontal at the y pixels.
export function gridLines(ctx, [left, top, width, height], xs, ys) {
  ctx.beginPath();
  for (const gx of xs) {
    ctx.moveTo(gx, top);
    ctx.lineTo(gx, top + height);
  }
  for (const gy of ys) {
    ctx.moveTo(left, gy);
    ctx.lineTo(left + width, gy);
  }
  ctx.stroke();
}

// Lines of text centred on (x, y), broken at spaces so that none is wider than maxWidth (a narrow phone plot).
export function centredLines(ctx, text, x, y, maxWidth, lineHeight) {
  const lines = [];
  for (const word of text.split(" ")) {
    const joined = lines.length ? `${lines[lines.length - 1]} ${word}` : word;
    if (lines.length && ctx.measureText(joined).width <= maxWidth) lines[lines.length - 1] = joined;
    else lines.push(word);
  }
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  lines.forEach((line, k) => {
    ctx.fillText(line, x, y + (k - (lines.length - 1) / 2) * lineHeight);
  });
}
