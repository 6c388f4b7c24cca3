// Article figure [tsp-student]: on the reader's 3–12 points, the tour of A1 (nearest neighbour)
// beside the tour of our Ptr-Net taught only by A1's tours, over the optimal tour (learning past
// the teacher). The companion page's TSP panel drawing (three-problems-panels.js) with both tours
// on; Python answers with the same words (views.companion). The model's weights wait until the
// figure comes near the screen.
import { COLORS, LIMITS } from "../config.js";
import * as pointsCanvas from "../draw/points.js";
import { PY } from "../generated/constants.js";
import { redrawer } from "../ui/frame.js";
import { pointsField } from "../ui/fields.js";
import { whenNearScreen } from "../ui/near-screen.js";
import { urlStore } from "../ui/permalink.js";
import { attach } from "../ui/point-editor.js";
import { button, demoRequests, element, messageLine, notesLine, output } from "./common.js";
import { panelView } from "./three-problems-panels.js";

const ID = "tsp-student";
const SHOWN = { a1: true, a2: false, student: true }; // the TSP panel's tours this figure draws
export const SCHEMA = {
  points: pointsField(LIMITS.maxModelPoints, PY.referencePoints, LIMITS.minModelPoints),
};

// One answer line: its tag, the tour in the notation with its length, and the line style drawn.
function answerLine(tag, color, dashed, out) {
  const key = element("span", { class: `legend-item${dashed ? " legend-dashed" : ""}`, "aria-hidden": "true" });
  key.style.color = color; // the drawing's colour (config.js), set through the CSSOM as the page's CSP allows
  return element("p", { class: "answer-line" }, [key, element("span", { class: "answer-tag", text: tag }), out.node]);
}

export function mount(root, runtime, store = urlStore) {
  const { state, warnings } = store.load(ID, SCHEMA);
  let result = null;
  let selected = -1;

  const figure = element("div", { class: "demo-figure" });
  const drawing = pointsCanvas.create(figure, { label: "외판원 순회 캔버스: 점을 끌어 옮기세요" });
  const optimal = output("tsp", "최적 순회");
  const a1 = output("a1_tour", "A1 순회");
  const student = output("model_tsp_a1", "A1에게 배운 Ptr-Net의 순회");
  const count = element("span", { class: "point-count", "aria-live": "polite" });
  const message = messageLine(() => compute());
  const notes = notesLine();
  root.replaceChildren(
    element("div", { class: "demo-toolbar" }, [
      button("예제로 되돌리기", "reset", () => setPoints(SCHEMA.points.default())),
      count,
    ]),
    element("p", {
      class: "demo-hint",
      text: `점을 끌어 옮기거나, 빈 곳을 눌러 더하고 두 번 눌러 지워 보세요 (${LIMITS.minModelPoints}–${LIMITS.maxModelPoints}개).`,
    }),
    element("div", { class: "panels panels-two" }, [
      figure,
      element("div", { class: "panel-output" }, [
        answerLine("최적", COLORS.tour, false, optimal),
        answerLine("A1", COLORS.baselineA1, true, a1),
        answerLine("A1에게 배운 모델", COLORS.student, true, student),
      ]),
    ]),
    notes.node,
    message.node,
  );

  const current = () => result && result.points.length === state.points.length;
  const markDirty = redrawer(() => {
    count.textContent = `점 ${state.points.length} / ${LIMITS.maxModelPoints}`;
    drawing.canvas.dataset.points = JSON.stringify(state.points);
    const answer = current() ? result : null;
    drawing.render(panelView("tsp", { points: state.points, selected, answer, shown: SHOWN }));
  });

  const request = demoRequests(root, runtime, ID, "solve", message, {
    onAnswer(answer) {
      result = answer;
      notes.set(answer.notes);
      const length = answer.text.tsp_length;
      optimal.set(answer.tsp, `${answer.text.tsp} (길이 ${length})`);
      a1.set(answer.a1_tour, answer.text.a1_tour);
      if (answer.model_tsp_a1) student.set(answer.model_tsp_a1, answer.text.model_tsp_a1);
      else student.clear(answer.text.model_tsp_a1_note);
      markDirty();
    },
  });

  function compute() {
    request({ points: state.points });
  }

  const nearScreen = whenNearScreen(root, compute);

  function setPoints(points, { dragging = false } = {}) {
    state.points = points;
    drawing.canvas.dataset.points = JSON.stringify(points);
    if (!dragging) store.save(ID, SCHEMA, state);
    message.clear();
    if (nearScreen.started()) compute();
    else nearScreen.now(); // used before it came into view (a link, the keyboard): start now
    markDirty();
  }

  attach(drawing, {
    getPoints: () => state.points,
    setPoints,
    onDragEnd: () => store.save(ID, SCHEMA, state),
    minPoints: LIMITS.minModelPoints,
    maxPoints: LIMITS.maxModelPoints,
    onLimit: () => message.show(`점은 ${LIMITS.maxModelPoints}개까지만 놓을 수 있습니다.`),
    onMinimum: () =>
      message.show(`순회를 견주려면 점이 ${LIMITS.minModelPoints}개 이상 있어야 해서 더 지우지 않았습니다.`),
    onSelect: (index) => {
      selected = index;
      markDirty();
    },
  });
  if (warnings.length) message.show(warnings.join(" "));
  markDirty();
}
