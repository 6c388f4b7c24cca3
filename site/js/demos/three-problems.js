// Companion page [three-problems]: the 7-point example solved three ways side by side
// (convex hull, Delaunay triangulation, TSP); drag a point in any panel and all three update.
import { LIMITS } from "../config.js";
import * as pointsCanvas from "../draw/points.js";
import { redrawer } from "../ui/frame.js";
import { pointsField } from "../ui/fields.js";
import { urlStore } from "../ui/permalink.js";
import { attach } from "../ui/point-editor.js";
import { button, demoRequests, element, formatSequence, formatTriangles, messageLine, output, toZeroBased } from "./common.js";

const ID = "three-problems";
const REFERENCE_POINTS = [
  [0.45, 0.45], [0.6, 0.35], [0.15, 0.3], [0.85, 0.75], [0.3, 0.85], [0.8, 0.15], [0.5, 0.65],
];
const SCHEMA = { points: pointsField(LIMITS.maxPoints, REFERENCE_POINTS) };

const PANELS = [
  { name: "hull", title: "볼록 껍질", label: "볼록 껍질 캔버스: 점을 끌어 옮기세요" },
  { name: "delaunay", title: "들로네 삼각분할", label: "들로네 삼각분할 캔버스: 점을 끌어 옮기세요" },
  { name: "tsp", title: "외판원 문제", label: "외판원 순회 캔버스: 점을 끌어 옮기세요" },
];

export function mount(root, runtime, store = urlStore) {
  const { state, warnings } = store.load(ID, SCHEMA);
  let result = null;
  let selected = -1;

  const outputs = {
    hull: output("hull", "볼록 껍질 출력 순서"),
    delaunay: output("delaunay", "들로네 삼각형 목록"),
    tsp: output("tsp", "외판원 순회 출력 순서"),
  };
  const tspLength = output("tsp_length", "순회 길이");
  const panels = PANELS.map(({ name, title, label }) => {
    const figure = element("div", { class: "demo-figure" });
    const drawing = pointsCanvas.create(figure, { label });
    drawing.canvas.dataset.panel = name;
    const caption = element("div", { class: "panel-output" }, [outputs[name].node]);
    if (name === "tsp") caption.append(element("span", { class: "out-minor", text: " 길이 " }), tspLength.node);
    const panel = element("figure", { class: `panel panel-${name}` }, [element("figcaption", { text: title }), figure, caption]);
    return { name, drawing, panel };
  });
  const message = messageLine(() => compute());
  const toolbar = element("div", { class: "demo-toolbar" }, [
    button("예제로 되돌리기", "reset", () => setPoints(SCHEMA.points.default())),
  ]);
  root.replaceChildren(toolbar, element("div", { class: "panels" }, panels.map((p) => p.panel)), message.node);
  root.dataset.state = "busy";

  const markDirty = redrawer(() => {
    const points = state.points;
    const fresh = result && result.hull.every((k) => k <= points.length);
    for (const { name, drawing } of panels) {
      drawing.canvas.dataset.points = JSON.stringify(points);
      drawing.render({
        points,
        selected,
        hull: fresh && name === "hull" ? toZeroBased(result.hull) : [],
        tour: fresh && name === "tsp" ? toZeroBased(result.tsp) : [],
        triangles: fresh && name === "delaunay" ? result.delaunay.map(toZeroBased) : [],
      });
    }
  });

  const request = demoRequests(root, runtime, ID, "solve", message, {
    onAnswer(answer) {
      result = answer;
      outputs.hull.set(answer.hull, formatSequence(answer.hull));
      outputs.tsp.set(answer.tsp, formatSequence(answer.tsp));
      outputs.delaunay.set(answer.delaunay, formatTriangles(answer.delaunay));
      tspLength.set(answer.tsp_length, answer.tsp_length.toFixed(4));
      markDirty();
    },
  });

  function compute() {
    request({ points: state.points });
  }

  function setPoints(points, { dragging = false } = {}) {
    state.points = points;
    for (const { drawing } of panels) drawing.canvas.dataset.points = JSON.stringify(points);
    if (!dragging) store.save(ID, SCHEMA, state);
    compute();
    markDirty();
  }

  for (const { drawing } of panels) {
    attach(drawing, {
      getPoints: () => state.points,
      setPoints,
      onDragEnd: () => store.save(ID, SCHEMA, state),
      canAdd: false,
      canDelete: false,
      onLimit: () => {},
      onSelect: (index) => {
        selected = index;
        markDirty();
      },
    });
    drawing.canvas.dataset.points = JSON.stringify(state.points);
  }
  if (warnings.length) message.show(warnings.join(" "));
  compute();
  markDirty();
}
