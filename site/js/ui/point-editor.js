// Mouse, touch and keyboard editing of the points on a points canvas.
// Pointer: click empty space to add, drag to move, double-click or right-click to delete.
// Keyboard (canvas focused): [ and ] pick a point, arrows move it (Shift: faster),
// Delete removes it, + adds one in the middle.
import { LIMITS, SIZES } from "../config.js";
import { element } from "./dom.js";

const round = (value) => Number(Math.min(1, Math.max(0, value)).toFixed(LIMITS.pointDecimals));

// How to edit, under the canvas (and as its accessible description), saying only what this demo allows.
function helpLine(canvas, { canAdd, canDelete, maxPoints }) {
  const id = `${canvas.closest("[data-demo]")?.dataset.demo ?? "points"}-help-${++helpCount}`;
  const keys = (names, what) => [...names.flatMap((name) => [element("kbd", { text: name }), " "]), what];
  const mouse = [
    canAdd && `빈 곳을 눌러 점 추가(${maxPoints}개까지)`,
    "끌어서 옮기기",
    canDelete && "두 번 또는 오른쪽 버튼으로 눌러 지우기",
  ].filter(Boolean);
  const keyboard = [
    keys(["[", "]"], "점 고르기"),
    [...keys(["←", "↑", "→", "↓"], "옮기기("), element("kbd", { text: "Shift" }), "와 함께: 크게)"],
    canAdd && keys(["+"], "추가"),
    canDelete && keys(["Delete"], "지우기"),
  ].filter(Boolean);
  canvas.setAttribute("aria-describedby", id);
  const listed = keyboard.flatMap((parts, k) => (k ? [", ", ...parts] : parts));
  return element("p", { class: "canvas-help", id }, [
    `${mouse.join(", ")}. 키보드(캔버스를 누른 뒤): `,
    ...listed,
    ".",
  ]);
}
let helpCount = 0;

// setPoints(points, { dragging }) is told whether a drag is under way, so the demo can leave its
// URL alone until onDragEnd(): a drag gives hundreds of positions, the link needs the last one.
// Deleting below minPoints calls onMinimum() instead.
export function attach(
  drawing,
  {
    getPoints,
    setPoints,
    canAdd = true,
    canDelete = true,
    minPoints = 0,
    maxPoints = LIMITS.maxPoints,
    onLimit,
    onMinimum = () => {},
    onSelect,
    onDragEnd = () => {},
  },
) {
  const { canvas } = drawing;
  canvas.after(helpLine(canvas, { canAdd, canDelete, maxPoints }));
  let dragIndex = -1;
  let selected = -1;

  function select(index) {
    selected = index;
    onSelect(index);
  }

  function hit(clientX, clientY) {
    const rect = canvas.getBoundingClientRect();
    let best = -1;
    let bestDistance = SIZES.hitRadius;
    getPoints().forEach((point, index) => {
      const [px, py] = drawing.toPixel(point);
      const distance = Math.hypot(px - (clientX - rect.left), py - (clientY - rect.top));
      if (distance <= bestDistance) {
        best = index;
        bestDistance = distance;
      }
    });
    return best;
  }

  function insideSquare([x, y]) {
    return x >= 0 && x <= 1 && y >= 0 && y <= 1;
  }

  function add(point) {
    const points = getPoints();
    if (points.length >= maxPoints) return onLimit();
    setPoints([...points, point.map(round)]);
    select(points.length);
  }

  function remove(index) {
    if (index < 0) return;
    if (getPoints().length <= minPoints) return onMinimum();
    setPoints(getPoints().filter((_, k) => k !== index));
    select(-1);
  }

  function move(index, point, dragging = false) {
    setPoints(
      getPoints().map((old, k) => (k === index ? point.map(round) : old)),
      { dragging },
    );
  }

  canvas.addEventListener("pointerdown", (event) => {
    if (event.button !== 0) return;
    const index = hit(event.clientX, event.clientY);
    if (index >= 0) {
      dragIndex = index;
      select(index);
      canvas.setPointerCapture(event.pointerId);
    } else if (canAdd) {
      const point = drawing.toUnit(event.clientX, event.clientY);
      if (insideSquare(point)) add(point);
    }
  });
  // Chromium fires pointerrawupdate as soon as the pointer moves; pointermove waits for the
  // next frame. Asking Python at once lets its answer be drawn in that very frame.
  const moveEvent = "onpointerrawupdate" in canvas ? "pointerrawupdate" : "pointermove";
  canvas.addEventListener(moveEvent, (event) => {
    if (dragIndex < 0) return;
    move(dragIndex, drawing.toUnit(event.clientX, event.clientY), true);
  });
  const endDrag = () => {
    if (dragIndex >= 0) onDragEnd();
    dragIndex = -1;
  };
  canvas.addEventListener("pointerup", endDrag);
  canvas.addEventListener("pointercancel", endDrag);
  canvas.addEventListener("dblclick", (event) => {
    if (canDelete) remove(hit(event.clientX, event.clientY));
  });
  canvas.addEventListener("contextmenu", (event) => {
    const index = hit(event.clientX, event.clientY);
    if (index < 0 || !canDelete) return;
    event.preventDefault();
    remove(index);
  });

  canvas.addEventListener("keydown", (event) => {
    const points = getPoints();
    const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
    if (event.key === "]" || event.key === "[") {
      if (!points.length) return;
      const delta = event.key === "]" ? 1 : -1;
      select((selected + delta + points.length) % points.length);
    } else if (steps[event.key] && selected >= 0) {
      const size = event.shiftKey ? 0.05 : 0.01;
      const [dx, dy] = steps[event.key];
      move(selected, [points[selected][0] + dx * size, points[selected][1] + dy * size]);
    } else if ((event.key === "Delete" || event.key === "Backspace") && canDelete && selected >= 0) {
      remove(selected);
    } else if (event.key === "+" && canAdd) {
      add([0.5, 0.5]);
    } else {
      return;
    }
    event.preventDefault();
  });

  return { select, selected: () => selected };
}
