// Companion page [three-problems]: the paper's three problems on the same 3–12 draggable points
// (convex hull, Delaunay triangulation, TSP). Each panel draws the exact answer wide and pale
// and, over it, the answer of our own trained Ptr-Net with its mistakes in red; the TSP panel
// can add the A1 / A2 heuristic tours. The symmetry vote asks the hull and Delaunay models about
// the points' 8 mirror and quarter-turn images and shows the majority answer and its share.
// Python computes everything, in one request per change.
import { COLORS, LIMITS } from "../config.js";
import * as pointsCanvas from "../draw/points.js";
import { toggle } from "../ui/controls.js";
import { redrawer } from "../ui/frame.js";
import { booleanField, pointsField } from "../ui/fields.js";
import { urlStore } from "../ui/permalink.js";
import { attach } from "../ui/point-editor.js";
import { PY } from "../generated/constants.js";
import { button, demoRequests, element, messageLine, output, toZeroBased } from "./common.js";

const ID = "three-problems";
const SCHEMA = {
  points: pointsField(LIMITS.maxModelPoints, PY.referencePoints, LIMITS.minModelPoints),
  a1: booleanField({ label: "A1 경로", fallback: false }),
  a2: booleanField({ label: "A2 경로", fallback: false }),
  vote: booleanField({ label: "대칭 투표", fallback: false }),
  student: booleanField({ label: "A1에게 배운 모델의 경로", fallback: false }),
};

const PANELS = [
  { name: "hull", title: "볼록 껍질", label: "볼록 껍질 캔버스: 점을 끌어 옮기세요" },
  { name: "delaunay", title: "들로네 삼각분할", label: "들로네 삼각분할 캔버스: 점을 끌어 옮기세요" },
  { name: "tsp", title: "외판원 문제", label: "외판원 순회 캔버스: 점을 끌어 옮기세요" },
];
const BASELINES = [
  { name: "A1", control: "a1", label: "A1 최근접 이웃", color: COLORS.baselineA1 },
  { name: "A2", control: "a2", label: "A2 가장 먼 점 삽입", color: COLORS.baselineA2 },
];
const IMAGES = PY.symmetryImages; // the unit square's symmetries the vote asks about

const fixed = (value, digits) => value.toFixed(digits);

// Python judges the answer (model_correct); this only puts its mistake lists into words.
function verdict(name, answer) {
  const correct = answer.model_correct[name];
  if (name === "hull") {
    const wrong = answer.hull_wrong_edges.length;
    return correct ? "정답과 같습니다" : wrong ? `정답에 없는 변 ${wrong}개` : "정답과 다릅니다";
  }
  if (name === "delaunay") {
    if (correct) return "정답과 같은 삼각형들입니다";
    return `틀린 삼각형 ${answer.delaunay_wrong.length}개, 빠뜨린 삼각형 ${answer.delaunay_missed.length}개`;
  }
  return correct ? "최적 경로입니다" : `최적보다 ${fixed(100 * (answer.tsp_ratio - 1), 1)} % 깁니다`;
}

export function mount(root, runtime, store = urlStore) {
  const { state, warnings } = store.load(ID, SCHEMA);
  let result = null;
  let selected = -1;

  const panels = PANELS.map(({ name, title, label }) => {
    const figure = element("div", { class: "demo-figure" });
    const drawing = pointsCanvas.create(figure, { label });
    drawing.canvas.dataset.panel = name;
    const exact = output(name, `${title} 정답`);
    const model = output(`model_${name}`, `${title}: 저희 Ptr-Net의 답`);
    const note = element("span", { class: "model-verdict" });
    const votes = name === "tsp" ? null : output(`model_${name}_votes`, `${title}: 같은 답을 낸 대칭 그림 수`);
    const voteLine = votes && element("p", { class: "out-minor vote-share", hidden: true }, [votes.node]);
    const lines = element("div", { class: "panel-output" }, [
      element("p", { class: "answer-line" }, [element("span", { class: "answer-tag", text: "정답" }), exact.node]),
      element("p", { class: "answer-line answer-model" }, [
        element("span", { class: "answer-tag", text: "모델" }),
        model.node,
      ]),
      note,
      ...(voteLine ? [voteLine] : []),
    ]);
    const panel = element("figure", { class: `panel panel-${name}` }, [
      element("figcaption", { text: title }),
      figure,
      lines,
    ]);
    return { name, drawing, panel, exact, model, note, votes, voteLine };
  });
  const tspLength = output("tsp_length", "최적 순회 길이");
  const modelLength = output("model_tsp_length", "모델 순회 길이");
  const ratio = output("tsp_ratio", "모델 길이 / 최적 길이");
  const baselineLengths = Object.fromEntries(
    BASELINES.map(({ name }) => [name, output(`${name.toLowerCase()}_length`, `${name} 순회 길이`)]),
  );
  // Learning past the teacher: A1's tour, the tour of the Ptr-Net taught only by A1, the optimum.
  const a1Tour = output("a1_tour", "A1 순회");
  const studentTour = output("model_tsp_a1", "A1에게 배운 Ptr-Net의 순회");
  const studentLine = element("p", { class: "out-minor student-line" }, [
    element("span", { class: "answer-tag", text: "A1에게 배운 모델" }),
    studentTour.node,
    element("br"),
    element("span", { text: "A1 순회 " }),
    a1Tour.node,
  ]);
  const tspPanel = panels.find((p) => p.name === "tsp");
  tspPanel.panel
    .querySelector(".panel-output")
    .append(
      element("p", { class: "out-minor tsp-lengths" }, [
        element("span", { text: "길이: 최적 " }),
        tspLength.node,
        element("span", { text: " · 모델 " }),
        modelLength.node,
        element("span", { text: " · 비율 " }),
        ratio.node,
      ]),
      ...BASELINES.map(({ name, label }) =>
        element("p", { class: "out-minor baseline-length", "data-baseline": name }, [
          element("span", { text: `${label}: ` }),
          baselineLengths[name].node,
        ]),
      ),
      studentLine,
    );

  const count = element("span", { class: "point-count", "aria-live": "polite" });
  const toggles = BASELINES.map(({ control, label }) =>
    toggle({
      control,
      label: `${label} 경로`,
      checked: state[control],
      onChange(on) {
        state[control] = on;
        store.save(ID, SCHEMA, state);
        showBaselines();
        markDirty();
      },
    }),
  );
  const studentToggle = toggle({
    control: "student",
    label: "A1에게 배운 모델의 경로",
    checked: state.student,
    onChange(on) {
      state.student = on;
      store.save(ID, SCHEMA, state);
      markDirty();
    },
  });
  const voteToggle = toggle({
    control: "vote",
    label: `대칭 투표 (${IMAGES}방향)`,
    checked: state.vote,
    onChange(on) {
      state.vote = on;
      store.save(ID, SCHEMA, state);
      compute();
    },
  });
  const message = messageLine(() => compute());
  const toolbar = element("div", { class: "demo-toolbar" }, [
    button("예제로 되돌리기", "reset", () => setPoints(SCHEMA.points.default())),
    voteToggle.node,
    ...toggles.map((t) => t.node),
    studentToggle.node,
    count,
  ]);
  const legend = element("p", { class: "panel-legend" }, [
    element("span", { class: "legend-item legend-exact", text: "넓고 옅은 선: 정확한 답" }),
    element("span", { class: "legend-item legend-model", text: "진한 선: 저희가 학습한 Ptr-Net의 답" }),
    element("span", { class: "legend-item legend-wrong", text: "빨강: 모델이 틀린 변·삼각형" }),
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
    message.node,
  );
  root.dataset.state = "busy";

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
    const fresh = current();
    for (const { name, drawing } of panels) {
      drawing.canvas.dataset.points = JSON.stringify(points);
      const view = { points, selected, hull: [], tour: [], triangles: [], over: null, extraTours: [] };
      if (fresh) {
        if (name === "hull") view.hull = toZeroBased(result.hull);
        if (name === "tsp") view.tour = toZeroBased(result.tsp);
        if (name === "delaunay") view.triangles = result.delaunay.map(toZeroBased);
        const model = result[`model_${name}`];
        if (model) {
          view.over = {
            hull: name === "hull" ? toZeroBased(model) : [],
            wrongEdges: name === "hull" ? result.hull_wrong_edges.map(toZeroBased) : [],
            tour: name === "tsp" ? toZeroBased(model) : [],
            triangles: name === "delaunay" ? model.map(toZeroBased) : [],
            wrongTriangles: name === "delaunay" ? result.delaunay_wrong.map(toZeroBased) : [],
          };
        }
        if (name === "tsp") {
          view.extraTours = BASELINES.filter(({ control }) => state[control]).map(({ name: b, color }) => ({
            tour: toZeroBased(result.baselines[b].tour),
            color,
          }));
          if (state.student && result.model_tsp_a1)
            view.extraTours.push({ tour: toZeroBased(result.model_tsp_a1), color: COLORS.student });
        }
      }
      drawing.render(view);
    }
  });

  const request = demoRequests(root, runtime, ID, "solve", message, {
    onAnswer(answer) {
      result = answer;
      for (const { name, exact, model, note, votes, voteLine } of panels) {
        exact.set(answer[name], answer.text[name]);
        const mine = answer[`model_${name}`];
        if (mine) {
          model.set(mine, answer.text[`model_${name}`]);
          note.textContent = verdict(name, answer);
        } else {
          model.clear(answer.model_notes[name] ?? "");
          note.textContent = "";
        }
        if (!votes) continue;
        const agreed = answer.model_votes[name]; // present only when the answer was voted
        if (agreed === undefined) votes.clear("");
        else votes.set(agreed, `대칭 그림 ${IMAGES}개 중 ${agreed}개가 낸 답`);
        voteLine.hidden = agreed === undefined;
      }
      if (answer.model_unavailable)
        message.show(
          "학습한 가중치를 내려받지 못해 일부 모델의 답이 빠졌습니다. ‘다시 시도’를 누르면 다시 내려받습니다.",
          {
            error: true,
          },
        );
      tspLength.set(answer.tsp_length, fixed(answer.tsp_length, 4));
      if (answer.model_tsp) {
        modelLength.set(answer.model_tsp_length, fixed(answer.model_tsp_length, 4));
        ratio.set(answer.tsp_ratio, fixed(answer.tsp_ratio, 3));
      } else {
        modelLength.clear("—");
        ratio.clear("—");
      }
      for (const { name } of BASELINES)
        baselineLengths[name].set(answer.baselines[name].length, fixed(answer.baselines[name].length, 4));
      a1Tour.set(answer.a1_tour, `${answer.text.a1_tour} (길이 ${fixed(answer.baselines.A1.length, 4)})`);
      if (answer.model_tsp_a1)
        studentTour.set(
          answer.model_tsp_a1,
          `${answer.text.model_tsp_a1} (길이 ${fixed(answer.model_tsp_a1_length, 4)}, 최적의 ${fixed(answer.model_tsp_a1_length / answer.tsp_length, 3)}배)`,
        );
      else studentTour.clear("가중치를 내려받지 못했습니다.");
      markDirty();
    },
  });

  function compute() {
    request({ points: state.points, vote: state.vote });
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
  if (warnings.length) message.show(warnings.join(" "));
  compute();
  markDirty();
}
