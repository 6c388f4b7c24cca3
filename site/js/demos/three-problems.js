// Companion page [three-problems]: the paper's three problems on the same 3–12 draggable points
// (convex hull, Delaunay triangulation, TSP). Each panel draws the exact answer wide and pale
// and, over it, the answer of our own trained Ptr-Net with its mistakes in red; the TSP panel
// can add the A1 / A2 heuristic tours and the tour of the Ptr-Net taught only by A1. The symmetry
// vote asks the hull and Delaunay models about the points' 8 mirror and quarter-turn images and
// shows the majority answer and its share. The hull panel can add the hull of the reader's own
// model, trained in demo 8-2 on this page.
// Python computes everything, in one request per change.
import { LIMITS } from "../config.js";
import { toggle } from "../ui/controls.js";
import { redrawer } from "../ui/frame.js";
import { booleanField, pointsField } from "../ui/fields.js";
import { urlStore } from "../ui/permalink.js";
import { attach } from "../ui/point-editor.js";
import { PY } from "../generated/constants.js";
import { button, demoRequests, element, messageLine, notesLine } from "./common.js";
import { BASELINES, IMAGES, panelView, problemPanels, showAnswer } from "./three-problems-panels.js";

const ID = "three-problems";
export const SCHEMA = {
  points: pointsField(LIMITS.maxModelPoints, PY.referencePoints, LIMITS.minModelPoints),
  a1: booleanField({ label: "A1 순회", fallback: false }),
  a2: booleanField({ label: "A2 순회", fallback: false }),
  vote: booleanField({ label: "대칭 투표", fallback: false }),
  student: booleanField({ label: "A1에게 배운 모델의 순회", fallback: false }),
  mine: booleanField({ label: "내가 학습시킨 모델", fallback: false }),
};
const TRAINER = '[data-demo="ptrnet-trainer"]'; // the demo whose model the "mine" toggle shows

export function mount(root, runtime, store = urlStore) {
  const { state, warnings } = store.load(ID, SCHEMA);
  let result = null;
  let selected = -1;

  const parts = problemPanels();
  const { panels } = parts;

  const count = element("span", { class: "point-count", "aria-live": "polite" });
  // The toolbar's toggles, in order. Each saves its state in the link; then show: the layers it hides or shows,
  // ask: whether Python must answer again (the vote and the reader's model change the reply), draw: whether the
  // panels redraw.
  const toggles = [
    { control: "vote", label: `대칭 투표 (${IMAGES}방향)`, ask: true },
    ...BASELINES.map(({ control, label }) => ({ control, label: `${label} 순회`, show: showBaselines, draw: true })),
    { control: "student", label: "A1에게 배운 모델의 순회", show: showStudent, ask: true, draw: true },
    { control: "mine", label: "내가 학습시킨 모델", show: showMine, ask: true, draw: true },
  ].map(({ control, label, show, ask, draw }) =>
    toggle({
      control,
      label,
      checked: state[control],
      onChange(on) {
        state[control] = on;
        store.save(ID, SCHEMA, state);
        show?.();
        if (ask) compute();
        if (draw) markDirty();
      },
    }),
  );
  const message = messageLine(() => compute());
  const notes = notesLine();
  const toolbar = element("div", { class: "demo-toolbar" }, [
    button("예제로 되돌리기", "reset", () => setPoints(SCHEMA.points.default())),
    ...toggles.map((t) => t.node),
    count,
  ]);
  const mineLegend = element("span", {
    class: "legend-item legend-mine",
    text: "자주색 점선: 내가 학습시킨 모델의 껍질",
  });
  const legend = element("p", { class: "panel-legend" }, [
    element("span", { class: "legend-item legend-exact", text: "넓고 옅은 선: 정확한 답" }),
    element("span", { class: "legend-item legend-model", text: "진한 선: 우리가 학습한 Ptr-Net의 답" }),
    element("span", { class: "legend-item legend-wrong", text: "빨강: 모델이 틀린 변·삼각형" }),
    mineLegend,
  ]);
  const hint = element("p", {
    class: "demo-hint",
    text: `빈 곳을 누르면 점이 생기고, 두 번 누르거나 오른쪽 버튼을 누르면 지워집니다 (${LIMITS.minModelPoints}–${LIMITS.maxModelPoints}개).`,
  });
  root.replaceChildren(
    toolbar,
    hint,
    element(
      "div",
      { class: "panels" },
      panels.map((p) => p.panel),
    ),
    legend,
    notes.node,
    message.node,
  );
  root.dataset.state = "busy";

  function showMine() {
    parts.mine.line.hidden = !state.mine;
    mineLegend.hidden = !state.mine;
  }

  function showStudent() {
    parts.student.hidden = !state.student;
  }

  function showBaselines() {
    for (const { name, control } of BASELINES) {
      root.querySelector(`[data-baseline="${name}"]`).hidden = !state[control];
    }
  }

  // While a point is dragged the last answer is drawn on the moving points until the next one
  // arrives; after an added or deleted point its indices no longer fit and nothing is drawn.
  const current = () => result && result.points.length === state.points.length;

  const markDirty = redrawer(() => {
    const points = state.points;
    count.textContent = `점 ${points.length} / ${LIMITS.maxModelPoints}`;
    const answer = current() ? result : null;
    for (const { name, drawing } of panels) {
      drawing.canvas.dataset.points = JSON.stringify(points);
      drawing.render(panelView(name, { points, selected, answer, shown: state }));
    }
  });

  const request = demoRequests(root, runtime, ID, "solve", message, {
    onAnswer(answer) {
      result = answer;
      notes.set(answer.notes);
      if (showAnswer(parts, answer))
        message.show(
          "학습한 가중치를 내려받지 못해 일부 모델의 답이 빠졌습니다. ‘다시 시도’를 누르면 다시 내려받습니다.",
          { error: true },
        );
      markDirty();
    },
  });

  // With the toggle on, the trainer demo's instance names the reader's model ("" while it has none). The
  // A1-taught model runs only while its toggle is on: it would add a fifth to every drag's answer.
  function compute() {
    const mine = state.mine ? { mine: document.querySelector(TRAINER)?.dataset.instance ?? "" } : {};
    request({ points: state.points, vote: state.vote, student: state.student, ...mine });
  }

  function setPoints(points, { dragging = false } = {}) {
    state.points = points;
    for (const { drawing } of panels) drawing.canvas.dataset.points = JSON.stringify(points);
    if (!dragging) store.save(ID, SCHEMA, state);
    message.clear();
    compute();
    markDirty();
  }

  for (const { drawing } of panels) {
    attach(drawing, {
      getPoints: () => state.points,
      setPoints,
      onDragEnd: () => store.save(ID, SCHEMA, state),
      minPoints: LIMITS.minModelPoints,
      maxPoints: LIMITS.maxModelPoints,
      onLimit: () => message.show(`점은 ${LIMITS.maxModelPoints}개까지만 놓을 수 있습니다. 점을 지우거나 옮겨 보세요.`),
      onMinimum: () =>
        message.show(`세 문제를 비교하려면 점이 ${LIMITS.minModelPoints}개 이상 있어야 해서 더 지우지 않았습니다.`),
      onSelect: (index) => {
        selected = index;
        markDirty();
      },
    });
    drawing.canvas.dataset.points = JSON.stringify(state.points);
  }
  showBaselines();
  showStudent();
  showMine();
  if (warnings.length) message.show(warnings.join(" "));
  compute();
  markDirty();
}
