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

// Ours against the paper's by n (log scale): accuracy and area coverage for hull, accuracy and triangle
// coverage for Delaunay, tour length for TSP (or with tsp: "ratio", each tour over the reference tour).
// empty: what the plot says while nothing is measured.
export function comparisonChart({ tsp = "length", empty = "실행하면 크기별 결과가 여기에 그려집니다" } = {}) {
  const node = element("div", { class: "eval-figure" });
  const chart = lineChart.create(node, { label: "우리 모델과 논문의 값을 n에 따라 견준 그래프", aspect: 0.42 });
  const line = (rows, key, color, dash = []) => ({
    xs: rows.map((r) => r.n),
    ys: rows.map((r) => r[key] ?? null),
    color,
    width: 2.2,
    dash,
    markers: true,
  });
  return {
    node,
    render(model, rows, paper) {
      const task = MODELS[model].task;
      const ns = [...rows, ...paper].map((r) => r.n);
      const x = { min: Math.min(4, ...ns) * 0.9, max: Math.max(12, ...ns) * 1.1, log: true, label: "점의 수 n" };
      x.ticks = lineChart.logTicks(x.min, x.max);
      const theirs = paper.filter((p) => (task === "tsp" ? p.ptrnet : p.accuracy) !== undefined);
      if (task === "tsp" && tsp === "ratio") {
        const reported = paper.filter((p) => p.ratio !== undefined); // the paper's optimum: n ≤ 20 only
        const ys = [...rows.flatMap((r) => [r.ratio, r.a1_ratio]), ...reported.map((p) => p.ratio)];
        chart.render({
          x,
          y: { min: 0.98, max: Math.max(1.1, ...ys) * 1.02, label: "기준 해에 대한 길이 비" },
          series: [
            { xs: [x.min, x.max], ys: [1, 1], color: COLORS.muted, width: 1.5 },
            line(rows, "a1_ratio", COLORS.baselineA1),
            line(rows, "ratio", COLORS.tour),
            line(reported, "ratio", COLORS.tour, [6, 5]),
          ],
          legend: [
            { label: "우리 Ptr-Net", color: COLORS.tour },
            { label: "논문 Ptr-Net", color: COLORS.tour, dash: [6, 5] },
            { label: "A1", color: COLORS.baselineA1 },
            { label: "기준 해 = 1", color: COLORS.muted },
          ],
          empty,
        });
        return;
      }
      if (task === "tsp") {
        const ys = [...rows.flatMap((r) => [r.mean_length, r.a1]), ...theirs.map((p) => p.ptrnet)];
        chart.render({
          x,
          y: { min: 0, max: Math.max(2, ...ys) * 1.08, label: "평균 순회 길이" },
          series: [
            line(rows, "reference", COLORS.muted),
            line(rows, "a1", COLORS.baselineA1),
            line(rows, "mean_length", COLORS.tour),
            line(theirs, "ptrnet", COLORS.tour, [6, 5]),
          ],
          legend: [
            { label: "우리 Ptr-Net", color: COLORS.tour },
            { label: "논문 Ptr-Net", color: COLORS.tour, dash: [6, 5] },
            { label: "A1", color: COLORS.baselineA1 },
            { label: "기준 해", color: COLORS.muted },
          ],
          empty,
        });
        return;
      }
      // Hull: area coverage only where it counts (not FAIL: over 1 % of the outputs not simple polygons).
      const [extra, extraLabel] =
        task === "delaunay" ? ["triangle_coverage", "삼각형 포함률"] : ["area", "넓이 포함률"];
      const withArea = (r) => ({ ...r, area: r.area_fail ? Number.NaN : r.area_coverage }); // NaN: a gap
      const ours = task === "delaunay" ? rows : rows.map(withArea);
      const reported = task === "delaunay" ? theirs : theirs.map(withArea);
      chart.render({
        x,
        y: { min: 0, max: 1.02, ticks: [0, 0.25, 0.5, 0.75, 1], format: (v) => percent(v, 0), label: "비율" },
        series: [
          line(ours, "accuracy", COLORS.seqAcc),
          line(reported, "accuracy", COLORS.seqAcc, [6, 5]),
          line(ours, extra, COLORS.posAcc),
          line(reported, extra, COLORS.posAcc, [6, 5]),
        ],
        legend: [
          { label: "우리 정확도", color: COLORS.seqAcc },
          { label: "논문 정확도", color: COLORS.seqAcc, dash: [6, 5] },
          { label: `우리 ${extraLabel}`, color: COLORS.posAcc },
          { label: `논문 ${extraLabel}`, color: COLORS.posAcc, dash: [6, 5] },
        ],
        empty,
      });
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
