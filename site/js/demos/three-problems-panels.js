// The companion page's three panels (hull, Delaunay, TSP): their canvases and answer lines, the
// TSP panel's lengths, heuristic and student tours, the hull panel's line for the reader's own
// model, filling them from an answer (in the words and
// numbers Python wrote: answer.text), and what each canvas draws. The controller
// (three-problems.js) owns the state and the requests.
import { COLORS } from "../config.js";
import * as pointsCanvas from "../draw/points.js";
import { PY } from "../generated/constants.js";
import { element, output, toZeroBased } from "./common.js";

const PANELS = [
  { name: "hull", title: "볼록 껍질", label: "볼록 껍질 캔버스: 점을 끌어 옮기세요" },
  { name: "delaunay", title: "들로네 삼각분할", label: "들로네 삼각분할 캔버스: 점을 끌어 옮기세요" },
  { name: "tsp", title: "외판원 문제", label: "외판원 순회 캔버스: 점을 끌어 옮기세요" },
];
export const BASELINES = [
  { name: "A1", control: "a1", label: "A1 최근접 이웃", color: COLORS.baselineA1 },
  { name: "A2", control: "a2", label: "A2 최원 삽입", color: COLORS.baselineA2 },
];
export const IMAGES = PY.symmetryImages; // the unit square's symmetries the vote asks about

function problemPanel({ name, title, label }) {
  const figure = element("div", { class: "demo-figure" });
  const drawing = pointsCanvas.create(figure, { label });
  drawing.canvas.dataset.panel = name;
  const exact = output(name, `${title} 정답`);
  const model = output(`model_${name}`, `${title}: 우리 Ptr-Net의 답`);
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
  return { name, drawing, panel, lines, exact, model, note, votes, voteLine };
}

// The TSP panel's extra lines: optimal and model lengths, the heuristics' lengths, and the tour
// of the Ptr-Net taught only by A1 beside A1's own (learning past the teacher; hidden until asked).
function tspLines() {
  const outputs = {
    tspLength: output("tsp_length", "최적 순회 길이"),
    modelLength: output("model_tsp_length", "모델 순회 길이"),
    ratio: output("tsp_ratio", "모델 길이 / 최적 길이"),
    baselines: Object.fromEntries(
      BASELINES.map(({ name }) => [name, output(`${name.toLowerCase()}_length`, `${name} 순회 길이`)]),
    ),
    a1Tour: output("a1_tour", "A1 순회"),
    studentTour: output("model_tsp_a1", "A1에게 배운 Ptr-Net의 순회"),
  };
  const studentLine = element("p", { class: "out-minor student-line", hidden: true }, [
    element("span", { class: "answer-tag", text: "A1에게 배운 모델" }),
    outputs.studentTour.node,
    element("br"),
    element("span", { text: "A1 순회 " }),
    outputs.a1Tour.node,
  ]);
  const nodes = [
    element("p", { class: "out-minor tsp-lengths" }, [
      element("span", { text: "길이: 최적 " }),
      outputs.tspLength.node,
      element("span", { text: " · 모델 " }),
      outputs.modelLength.node,
      element("span", { text: " · 비율 " }),
      outputs.ratio.node,
    ]),
    ...BASELINES.map(({ name, label }) =>
      element("p", { class: "out-minor baseline-length", "data-baseline": name }, [
        element("span", { text: `${label}: ` }),
        outputs.baselines[name].node,
      ]),
    ),
    studentLine,
  ];
  return { outputs, nodes, studentLine };
}

// The hull panel's line for the reader's own model (demo 8-2), shown while its toggle is on.
function mineLine() {
  const hull = output("model_mine", "볼록 껍질: 내가 학습시킨 모델의 답");
  const verdict = element("span", { class: "model-verdict" });
  const line = element("div", { class: "answer-mine", hidden: true }, [
    element("p", { class: "answer-line" }, [element("span", { class: "answer-tag", text: "내 모델" }), hull.node]),
    verdict,
  ]);
  return { hull, verdict, line };
}

// { panels: [{ name, drawing, panel, ... }], tsp: the TSP panel's extra outputs, student: the A1-taught model's
// line (shown while its toggle is on), mine: the reader's model's line }
export function problemPanels() {
  const panels = PANELS.map(problemPanel);
  const tsp = tspLines();
  const mine = mineLine();
  panels.find((p) => p.name === "tsp").lines.append(...tsp.nodes);
  panels.find((p) => p.name === "hull").lines.append(mine.line);
  return { panels, tsp: tsp.outputs, student: tsp.studentLine, mine };
}

// Every output line from one answer; true when some model's weights could not be fetched.
export function showAnswer({ panels, tsp, mine }, answer) {
  for (const { name, exact, model, note, votes, voteLine } of panels) {
    exact.set(answer[name], answer.text[name]);
    const mine = answer[`model_${name}`];
    if (mine) {
      model.set(mine, answer.text[`model_${name}`]);
      note.textContent = answer.text.verdicts[name];
    } else {
      model.clear(answer.model_notes[name] ?? "");
      note.textContent = "";
    }
    if (!votes) continue;
    const agreed = answer.model_votes[name]; // present only when the answer was voted
    if (agreed === undefined) votes.clear("");
    else votes.set(agreed, answer.text.votes[name]);
    voteLine.hidden = agreed === undefined;
  }
  const { text } = answer;
  tsp.tspLength.set(answer.tsp_length, text.tsp_length);
  if (answer.model_tsp) {
    tsp.modelLength.set(answer.model_tsp_length, text.model_tsp_length);
    tsp.ratio.set(answer.tsp_ratio, text.tsp_ratio);
  } else {
    tsp.modelLength.clear("—");
    tsp.ratio.clear("—");
  }
  for (const { name } of BASELINES)
    tsp.baselines[name].set(answer.baselines[name].length, text[`${name.toLowerCase()}_length`]);
  tsp.a1Tour.set(answer.a1_tour, text.a1_tour);
  if (answer.model_tsp_a1) tsp.studentTour.set(answer.model_tsp_a1, text.model_tsp_a1);
  else tsp.studentTour.clear(text.model_tsp_a1_note ?? "");
  if (answer.model_mine) {
    mine.hull.set(answer.model_mine, text.model_mine);
    mine.verdict.textContent = text.mine_verdict;
  } else {
    mine.hull.clear(text.mine_note ?? "");
    mine.verdict.textContent = "";
  }
  return Boolean(answer.model_unavailable);
}

// What one panel's canvas draws: the points, and with an answer that fits them, the exact answer
// under the model's (its mistakes marked) and, on the TSP panel, the tours switched on.
export function panelView(name, { points, selected, answer, shown }) {
  const view = { points, selected, hull: [], tour: [], triangles: [], over: null, extraTours: [] };
  if (!answer) return view;
  if (name === "hull") view.hull = toZeroBased(answer.hull);
  if (name === "tsp") view.tour = toZeroBased(answer.tsp);
  if (name === "delaunay") view.triangles = answer.delaunay.map(toZeroBased);
  const model = answer[`model_${name}`];
  if (model) {
    view.over = {
      hull: name === "hull" ? toZeroBased(model) : [],
      wrongEdges: name === "hull" ? answer.hull_wrong_edges.map(toZeroBased) : [],
      tour: name === "tsp" ? toZeroBased(model) : [],
      triangles: name === "delaunay" ? model.map(toZeroBased) : [],
      wrongTriangles: name === "delaunay" ? answer.delaunay_wrong.map(toZeroBased) : [],
    };
  }
  if (name === "tsp") {
    view.extraTours = BASELINES.filter(({ control }) => shown[control]).map(({ name: b, color }) => ({
      tour: toZeroBased(answer.baselines[b].tour),
      color,
    }));
    if (shown.student && answer.model_tsp_a1)
      view.extraTours.push({ tour: toZeroBased(answer.model_tsp_a1), color: COLORS.student });
  }
  if (name === "hull" && shown.mine && answer.model_mine)
    view.topTours = [{ tour: toZeroBased(answer.model_mine), color: COLORS.mine }];
  return view;
}
