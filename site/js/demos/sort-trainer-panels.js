// Demo 5's two figures: the decoding heat map of one test sequence with the two orders under
// it, and the loss curve. Each is { node, render(data) }; the controller owns the state.
import { COLORS } from "../config.js";
import * as heatmapCanvas from "../draw/heatmap.js";
import * as lineChart from "../draw/linechart.js";
import { element, formatCount, labelled } from "./common.js";

const LEGEND = [
  ["swatch-scale", "확률 0 → 1"],
  ["swatch-correct", "정답 위치"],
  ["swatch-choice", "모델의 선택"],
  ["swatch-wrong", "틀린 선택"],
];

// controls: the test length slider, its value and the resample button (they live in the caption).
export function heatPanel(controls) {
  const figure = element("div", { class: "heat-figure", "data-out": "heatmap" });
  const drawing = heatmapCanvas.create(figure, {
    label: "확률 히트맵: 행은 디코딩 단계, 열은 입력 위치, 칸의 진하기는 그 단계에서 그 위치를 가리킬 확률",
  });
  const legend = element(
    "p",
    { class: "heat-legend" },
    LEGEND.flatMap(([swatch, text]) => [element("span", { class: `swatch ${swatch}` }), element("span", { text })]),
  );
  const order = element("div", { class: "order-lines", "data-out": "order" }); // not live: it changes every 150 ms while training
  const node = element("figure", { class: "panel trainer-heat" }, [
    element("figcaption", { text: "시험 수열 하나의 디코딩 확률" }),
    element("div", { class: "demo-toolbar trainer-length" }, [
      labelled("시험 길이", controls.slider),
      controls.value,
      controls.resample,
    ]),
    figure,
    legend,
    order,
  ]);

  function drawHeatmap(heatmap) {
    if (!heatmap) {
      drawing.render({ values: [], columnLabels: [], rowLabels: [], empty: "파이썬을 기다리는 중…" });
      return;
    }
    const { text, probs, correct, choices } = heatmap;
    drawing.render({
      values: probs,
      columnLabels: text.x,
      columnFooters: text.x.map((_, j) => String(j + 1)),
      rowLabels: probs.map((_, i) => String(i + 1)),
      columnTitle: "입력 위치 (위: 그 위치의 수, 아래: 위치 번호)",
      rowTitle: "디코딩 단계",
      outline: correct,
      marks: choices.map((j, i) => ({ column: j, wrong: j !== correct[i] })),
    });
  }

  // The correct order and the model's, as the values at those positions (as Python wrote them); wrong steps marked.
  function showOrders({ text, probs, correct, choices, solved, valid }) {
    const line = (title, positions, wrongAt) =>
      element("p", { class: "order-line" }, [
        element("span", { class: "order-title", text: title }),
        ...positions.flatMap((j, i) => [
          ...(i ? [element("span", { class: "order-arrow", text: " → " })] : []),
          element("span", { class: wrongAt(i) ? "order-item is-wrong" : "order-item", text: text.x[j] }),
        ]),
      ]);
    const wrong = choices.filter((j, i) => j !== correct[i]).length;
    const verdict = solved
      ? "정렬 성공"
      : !valid
        ? `같은 위치를 두 번 이상 가리켰습니다 (순열이 아님), 틀린 단계 ${wrong}곳`
        : `틀린 단계 ${wrong}곳`;
    order.dataset.value = JSON.stringify({ correct: correct.map((j) => j + 1), model: choices.map((j) => j + 1) });
    figure.dataset.value = JSON.stringify(probs); // rows = steps, columns = positions
    order.replaceChildren(
      line("정답 순서", correct, () => false),
      line("모델 출력", choices, (i) => choices[i] !== correct[i]),
      element("p", { class: solved ? "order-verdict is-solved" : "order-verdict", text: verdict }),
    );
  }

  return { node, draw: drawHeatmap, showOrders };
}

// The training loss per iteration on a log scale whose decades follow the data; model: an output's node.
export function lossPanel(model) {
  const figure = element("div", { class: "loss-figure" });
  const chart = lineChart.create(figure, {
    label: "손실 곡선: 가로축은 반복 횟수, 세로축은 손실(로그 눈금)",
    aspect: 0.62,
  });
  const node = element("figure", { class: "panel trainer-loss" }, [
    element("figcaption", { text: "손실 곡선" }),
    figure,
    element("p", { class: "out-minor model-line" }, [element("span", { text: "모델: " }), model]),
  ]);

  function draw(losses) {
    const positive = losses.ys.filter((v) => v > 0);
    const low = positive.length ? Math.min(...positive) : null;
    const high = losses.ys.length ? Math.max(...losses.ys) : null;
    const yMin = low === null ? 0.01 : 10 ** Math.floor(Math.log10(low));
    const yMax = high === null ? 10 : 10 ** Math.ceil(Math.log10(Math.max(high, yMin * 10)));
    chart.render({
      x: { min: 0, max: Math.max(100, losses.last ?? 0), label: "반복", format: formatCount },
      y: { min: yMin, max: yMax, log: true, label: "손실 (로그 눈금)" },
      series: [{ xs: losses.xs, ys: losses.ys, color: COLORS.loss, width: 1.8, envelope: true }],
      empty: "‘학습 시작’을 누르면 손실이 여기에 그려집니다",
    });
  }

  return { node, draw };
}
