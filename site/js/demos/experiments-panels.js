// The experiment runner's panels: the results table beside the paper's numbers, a chart of ours
// against the paper's by n, the hull's error rate by near-collinearity, and the failure gallery
// (thumbnails; one opened large, the model's answer over the exact one with its mistakes in red).
import { COLORS } from "../config.js";
import * as bars from "../draw/bars.js";
import * as lineChart from "../draw/linechart.js";
import * as pointsCanvas from "../draw/points.js";
import { PY } from "../generated/constants.js";
import { pointsField } from "../ui/fields.js";
import { percent } from "../ui/format.js";
import { element, output, toZeroBased } from "./common.js";

const MODELS = PY.experiments.models;
const COMPACT_ABOVE = 20; // the large drawing labels its points up to this many
const demoLink = pointsField(PY.points.maxModel, []);

// The results table as Python wrote it (views.experiments.table): its heading row, then a row per
// size whose first cell (n) heads the row. Cleared, it has neither.
export function resultsTable() {
  const body = element("tbody");
  const head = element("thead");
  const caption = element("caption", { text: "직접 잰 결과" });
  const node = element("div", { class: "table-scroll experiment-table" }, [
    element("table", { class: "data-table" }, [caption, head, body]),
  ]);
  function render(model, table, finished) {
    const columns = table.head.map((text) => element("th", { text, scope: "col" }));
    head.replaceChildren(...(columns.length ? [element("tr", {}, columns)] : []));
    body.replaceChildren(
      ...table.rows.map(([n, ...cells]) =>
        element("tr", {}, [element("th", { text: n, scope: "row" }), ...cells.map((text) => element("td", { text }))]),
      ),
    );
    caption.textContent = table.rows.length
      ? `${MODELS[model].label}${finished ? "" : " (재는 중)"} · 논문 값이 없는 칸은 –`
      : "아직 잰 결과가 없습니다. ‘실행’을 누르세요.";
  }
  return { node, render, clear: () => render(null, { head: [], rows: [] }, false) };
}

const PAPER_DASH = [6, 5]; // the paper's lines are dashed
const SHARE_AXIS = { min: 0, max: 1.02, ticks: [0, 0.25, 0.5, 0.75, 1], format: (v) => percent(v, 0), label: "비율" };
// Hull: area coverage only where it counts (not FAIL: over 1 % of the outputs not simple polygons); NaN: a gap.
const withArea = (r) => ({ ...r, area: r.area_fail ? Number.NaN : r.area_coverage });

// The comparison charts. measures: each drawn for our rows (solid) and the paper's (dashed; its rows that give the
// first measure), named "우리 …" / "논문 …" in the legend; beside: lines of ours alone, drawn under the measures (the
// first listed on top) and listed after them (level: a flat line at that value); y: the axis, given every plotted
// value; row: how a result row becomes the values drawn.
const CHARTS = {
  ratio: {
    y: (values) => ({ min: 0.98, max: Math.max(1.1, ...values) * 1.02, label: "기준 해에 대한 길이 비" }),
    measures: [{ key: "ratio", name: "Ptr-Net", color: COLORS.tour }],
    beside: [
      { key: "a1_ratio", label: "A1", color: COLORS.baselineA1 },
      { level: 1, label: "기준 해 = 1", color: COLORS.muted },
    ],
  },
  length: {
    y: (values) => ({ min: 0, max: Math.max(2, ...values) * 1.08, label: "평균 순회 길이" }),
    measures: [{ key: "mean_length", paperKey: "ptrnet", name: "Ptr-Net", color: COLORS.tour }],
    beside: [
      { key: "a1", label: "A1", color: COLORS.baselineA1 },
      { key: "reference", label: "기준 해", color: COLORS.muted },
    ],
  },
  hull: {
    y: () => SHARE_AXIS,
    measures: [
      { key: "accuracy", name: "정확도", color: COLORS.seqAcc },
      { key: "area", name: "넓이 포함률", color: COLORS.posAcc },
    ],
    row: withArea,
  },
  delaunay: {
    y: () => SHARE_AXIS,
    measures: [
      { key: "accuracy", name: "정확도", color: COLORS.seqAcc },
      { key: "triangle_coverage", name: "삼각형 포함률", color: COLORS.posAcc },
    ],
  },
};

// A line through rows' values of key, with a marker at each.
const line = (rows, key, color, dash = []) => ({
  xs: rows.map((r) => r.n),
  ys: rows.map((r) => r[key] ?? null),
  color,
  width: 2.2,
  dash,
  markers: true,
});

// One chart's series and legend from its description, our rows and the paper's.
function chartLines({ measures, beside = [], row = (r) => r }, rows, paper, x) {
  const ours = rows.map(row);
  const first = measures[0].paperKey ?? measures[0].key;
  const theirs = paper.filter((p) => p[first] !== undefined).map(row);
  const under = beside.map(({ key, level, color }) =>
    level === undefined ? line(ours, key, color) : { xs: [x.min, x.max], ys: [level, level], color, width: 1.5 },
  );
  return {
    series: [
      ...under.reverse(),
      ...measures.flatMap(({ key, paperKey = key, color }) => [
        line(ours, key, color),
        line(theirs, paperKey, color, PAPER_DASH),
      ]),
    ],
    legend: [
      ...measures.flatMap(({ name, color }) => [
        { label: `우리 ${name}`, color },
        { label: `논문 ${name}`, color, dash: PAPER_DASH },
      ]),
      ...beside.map(({ label, color }) => ({ label, color })),
    ],
  };
}

// Ours against the paper's by n (log scale): accuracy and area coverage for hull, accuracy and triangle
// coverage for Delaunay, tour length for TSP (or with tsp: "ratio", each tour over the reference tour).
// empty: what the plot says while nothing is measured.
export function comparisonChart({ tsp = "length", empty = "실행하면 크기별 결과가 여기에 그려집니다" } = {}) {
  const node = element("div", { class: "eval-figure" });
  const chart = lineChart.create(node, { label: "우리 모델과 논문의 값을 n에 따라 견준 그래프", aspect: 0.42 });
  return {
    node,
    render(model, rows, paper) {
      const task = MODELS[model].task;
      const description = CHARTS[task === "tsp" ? tsp : task];
      const ns = [...rows, ...paper].map((r) => r.n);
      const x = { min: Math.min(4, ...ns) * 0.9, max: Math.max(12, ...ns) * 1.1, log: true, label: "점의 수 n" };
      x.ticks = lineChart.logTicks(x.min, x.max);
      const { series, legend } = chartLines(description, rows, paper, x);
      const values = series.flatMap((s) => s.ys).filter((v) => v !== null);
      chart.render({ x, y: description.y(values), series, legend, empty });
    },
  };
}

// The hull models' error rate by how nearly collinear each set was (Python's bins).
export function collinearityPanel() {
  const value = output("collinearity", "거의 일직선인 정도에 따른 오답률");
  const figure = element("div", { class: "collinearity-figure" });
  const chart = bars.create(figure, { label: "거의 일직선인 정도에 따른 오답률", valueWidth: 64 });
  const node = element("div", { class: "collinearity-panel" }, [
    element("h4", { text: "어디서 틀리나: 거의 일직선인 점들" }),
    element("p", {
      class: "out-minor",
      text: "가로줄 하나가 한 구간입니다. 점 하나가 자기가 끝점이 아닌 껍질 변의 직선에 얼마나 가까운지(가장 가까운 거리)로 세트를 나누고, 구간마다 틀린 비율을 그렸습니다.",
    }),
    figure,
    value.node,
  ]);
  node.hidden = true;
  return {
    node,
    clear() {
      node.hidden = true;
      value.clear("");
    },
    // data: Python's bins, sets and error rates; text: its words for them (views.experiments.collinearity).
    render(data, text) {
      if (!data) return;
      node.hidden = false;
      value.set(data, text.total);
      const written = new Map(data.error_rate.map((rate, k) => [rate, text.error_rate[k]])); // equal rates, equal words
      chart.render({
        bars: data.bins.map((_, k) => ({ label: text.bins[k], value: data.error_rate[k], color: COLORS.invalid })),
        format: (rate) => written.get(rate),
      });
    },
  };
}

// The view that draws one failure: the exact answer pale, the model's dark, its mistakes red.
function failureView(task, failure, compact) {
  const view = { points: failure.points, compact };
  if (task === "delaunay") {
    view.triangles = failure.truth.map(toZeroBased);
    view.over = { triangles: failure.model.map(toZeroBased), wrongTriangles: failure.wrong.map(toZeroBased) };
  } else if (task === "tsp") {
    view.tour = toZeroBased(failure.truth);
    view.over = { tour: toZeroBased(failure.model), wrongEdges: failure.wrong.map(toZeroBased) };
  } else {
    view.hull = toZeroBased(failure.truth);
    view.over = { hull: toZeroBased(failure.model), wrongEdges: failure.wrong.map(toZeroBased) };
  }
  return view;
}

export function failureGallery() {
  const value = output("failures", "틀린 세트 목록");
  value.clear("");
  const grid = element("div", { class: "failure-grid" });
  const detailFigure = element("div", { class: "demo-figure failure-figure" });
  const detail = pointsCanvas.create(detailFigure, { label: "고른 실패 사례", interactive: false });
  const detailText = element("div", { class: "failure-text" });
  const detailBox = element("div", { class: "failure-detail" }, [detailFigure, detailText]);
  detailBox.hidden = true;
  const heading = element("h4", { text: "틀린 사례" });
  const node = element("div", { class: "failure-gallery" }, [heading, value.node, grid, detailBox]);
  let shown = [];
  let task = "hull";

  function open(k) {
    const failure = shown[k];
    detailBox.hidden = false;
    detail.render(failureView(task, failure, failure.n > COMPACT_ABOVE));
    const parts = [
      element("p", { text: `n = ${failure.n}, ${failure.index + 1}번째 세트` }),
      element("p", { text: `정답: ${failure.text.truth}` }),
      element("p", { text: `모델: ${failure.text.model}` }),
    ];
    if (failure.n <= PY.points.maxModel) {
      const href = `three-problems.html#three-problems.points=${demoLink.format(failure.points)}`;
      parts.push(
        element("p", {}, [
          element("a", { href, target: "_blank", text: "이 점들을 위의 ‘직접 움직여 보기’ 데모에서 열기" }),
        ]),
      );
    }
    detailText.replaceChildren(...parts);
    for (const [j, thumb] of [...grid.children].entries()) thumb.setAttribute("aria-pressed", String(j === k));
  }

  return {
    node,
    render(failures, model) {
      task = MODELS[model].task;
      if (failures.length === shown.length && failures.every((f, k) => f === shown[k])) return;
      const keep = failures.length >= shown.length && shown.every((f, k) => f === failures[k]);
      const first = keep ? shown.length : 0;
      if (!keep) {
        grid.replaceChildren();
        detailBox.hidden = true;
      }
      shown = [...failures];
      for (let k = first; k < shown.length; k++) {
        const thumb = element("button", { type: "button", class: "failure-thumb", "aria-pressed": "false" });
        thumb.setAttribute("aria-label", `틀린 사례 ${k + 1}: n = ${shown[k].n}`);
        const drawing = pointsCanvas.create(thumb, { label: `틀린 사례 ${k + 1}`, padding: 6, interactive: false });
        thumb.addEventListener("click", () => open(k));
        grid.append(thumb);
        requestAnimationFrame(() => drawing.render(failureView(task, shown[k], true)));
      }
      const data = shown.map(({ n, points, truth, model: answer }) => ({ n, points, truth, model: answer }));
      if (shown.length) value.set(data, `${shown.length}개 (처음 ${PY.experiments.maxFailures}개까지)`);
      else value.clear("아직 틀린 사례가 없습니다.");
    },
  };
}
