// The reader's Ptr-Net's figures: the loss and accuracy curves, its answer on the reader's points
// over the exact hull (demo 8's drawing), and the pointer distribution of one decoding step (demo
// 4's candidates view). Each is { node, draw(…) }; the controller owns the state and the requests.
import { COLORS } from "../config.js";
import * as candidates from "../draw/candidates.js";
import * as lineChart from "../draw/linechart.js";
import * as pointsCanvas from "../draw/points.js";
import { PY } from "../generated/constants.js";
import { slider } from "../ui/controls.js";
import { element, formatCount, output, pointIndex, pointsNamed, slotColumn, toZeroBased } from "./common.js";

const SIZE_COLORS = [COLORS.seqAcc, COLORS.posAcc, COLORS.loss]; // one per validation size

export function lossPanel() {
  const figure = element("div", { class: "loss-figure" });
  const chart = lineChart.create(figure, {
    label: "손실 곡선: 가로축은 반복(Adam 갱신), 세로축은 학습 배치의 교차 엔트로피",
    aspect: 0.55,
  });
  const node = element("figure", { class: "panel trainer-loss" }, [
    element("figcaption", { text: "학습 손실" }),
    figure,
  ]);
  function draw(losses) {
    const right = Math.max(100, losses.last ?? 0);
    chart.render({
      x: { min: 0, max: right, label: "반복", format: formatCount },
      y: { min: 0, max: Math.max(0.5, ...losses.ys) * 1.05, label: "교차 엔트로피" },
      series: [{ xs: losses.xs, ys: losses.ys, color: COLORS.loss, width: 2 }],
      empty: "‘학습 시작’을 누르면 곡선이 그려집니다",
    });
  }
  return { node, draw };
}

// curves: { n: boundedSeries } of exact-match shares, measured every few seconds.
export function accuracyPanel() {
  const figure = element("div", { class: "loss-figure" });
  const chart = lineChart.create(figure, {
    label: "정확도 곡선: 가로축은 반복, 세로축은 고정된 검증 세트에서 정답과 똑같은 껍질을 낸 비율, 선마다 점 개수 n",
    aspect: 0.55,
  });
  const node = element("figure", { class: "panel trainer-accuracy" }, [
    element("figcaption", { text: "정확히 맞힌 비율 (검증 세트)" }),
    figure,
  ]);
  function draw(curves) {
    const sizes = PY.trainer.valNs;
    const right = Math.max(100, ...sizes.map((n) => curves[n].last ?? 0));
    chart.render({
      x: { min: 0, max: right, label: "반복", format: formatCount },
      y: { min: 0, max: 1, label: "정확히 맞힌 비율", format: (v) => `${Math.round(v * 100)}%` },
      series: sizes.map((n, k) => ({ xs: curves[n].xs, ys: curves[n].ys, color: SIZE_COLORS[k], width: 2 })),
      legend: sizes.map((n, k) => ({ label: `n = ${n}`, color: SIZE_COLORS[k] })),
      empty: "학습을 시작하면 몇 초마다 잽니다",
    });
  }
  return { node, draw };
}

// The model's answer on the reader's points: exact hull wide and pale, the model's over it.
export function answerPanel() {
  const figure = element("div", { class: "demo-figure" });
  const drawing = pointsCanvas.create(figure, { label: "내 모델의 볼록 껍질 캔버스: 점을 끌어 옮기세요" });
  const exact = output("exact", "정확한 볼록 껍질");
  const model = output("answer", "내 모델의 답");
  const verdict = element("span", { class: "model-verdict" });
  const node = element("figure", { class: "panel panel-hull" }, [
    element("figcaption", { text: "내 점에서의 답" }),
    figure,
    element("div", { class: "panel-output" }, [
      element("p", { class: "answer-line" }, [element("span", { class: "answer-tag", text: "정답" }), exact.node]),
      element("p", { class: "answer-line answer-model" }, [
        element("span", { class: "answer-tag", text: "내 모델" }),
        model.node,
      ]),
      verdict,
    ]),
  ]);
  function show(answer) {
    exact.set(answer.exact, answer.text.exact);
    model.set(answer.output, answer.text.output);
    verdict.textContent = answer.text.verdict;
  }
  // answer: the last one, drawn only while it is for these very points.
  function draw(points, answer, selected) {
    drawing.canvas.dataset.points = JSON.stringify(points);
    const fits = answer && JSON.stringify(answer.points) === JSON.stringify(points);
    drawing.render({
      points,
      selected,
      hull: fits ? toZeroBased(answer.exact) : [],
      over: fits ? { hull: toZeroBased(answer.output), wrongEdges: answer.wrong_edges.map(toZeroBased) } : null,
    });
  }
  return { node, drawing, show, draw };
}

// One decoding step's pointer distribution over the points and ⇐; onStep(k) when the slider moves.
export function stepPanel(onStep) {
  const figure = element("div", { class: "demo-figure" });
  const drawing = candidates.create(figure, {
    label: "한 단계의 포인터 분포: 동그라미의 넓이가 그 점(또는 끝 ⇐)을 가리킬 확률",
  });
  const stepSlider = slider({ control: "step", label: "단계", min: 1, max: 1, value: 1, onInput: onStep });
  const line = output("step_text", "그 단계까지의 출력");
  const node = element("figure", { class: "panel trainer-step" }, [
    element("figcaption", { text: "한 단계의 포인터 분포" }),
    stepSlider.node,
    figure,
    element("p", { class: "out-minor" }, [line.node]),
  ]);
  // step: 1-based, clamped to the answer's steps; returns the step shown.
  function draw(answer, step) {
    if (!answer?.steps.length) {
      drawing.render({});
      line.clear("");
      return 1;
    }
    const k = Math.min(Math.max(step, 1), answer.steps.length);
    stepSlider.input.max = String(answer.steps.length);
    stepSlider.set(k);
    const shown = answer.steps[k - 1];
    const n = answer.points.length;
    drawing.render({
      points: answer.points,
      path: pointsNamed(shown.output, n),
      probs: shown.probs,
      labels: shown.text.probs,
      masked: shown.masked,
      chosen: slotColumn(shown.choice, n),
      input: pointIndex(shown.input, n),
    });
    line.set(shown.output, `단계 ${k}/${answer.steps.length}: ${shown.output_text}`);
    return k;
  }
  return { node, draw };
}
