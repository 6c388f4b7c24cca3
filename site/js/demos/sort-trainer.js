// Demo 5 [sort-trainer]: the 96-parameter pointer sorter, trained live in the worker.
// Training is a loop of chunked "train" requests driven from here: the next chunk is sent only
// after the previous reply, its size adapted so one chunk takes ~30 ms, so pause, reset and
// mask changes are honoured within one chunk. The worker keeps one sorter per demo element
// (its instance id); every new summary is announced on `document` as MODEL_EVENT with that id,
// so demo 6 evaluates this very model.
import { PY } from "../generated/constants.js";
import { percent } from "../ui/format.js";
import { COLORS } from "../config.js";
import { instanceOf } from "../runtime/client.js";
import * as heatmapCanvas from "../draw/heatmap.js";
import * as lineChart from "../draw/linechart.js";
import { booleanField, integerField } from "../ui/fields.js";
import { redrawer } from "../ui/frame.js";
import { urlStore } from "../ui/permalink.js";
import {
  button,
  element,
  formatCount,
  labelled,
  MAX_SEED,
  messageLine,
  onOff,
  output,
  seedInput,
  stat,
} from "./common.js";
import { boundedSeries, trainingLoop } from "./training-loop.js";

const ID = "sort-trainer";
export const MODEL_EVENT = "ptrnet:sort-model";
const LENGTHS = { min: PY.sorter.testLengths[0], max: PY.sorter.testLengths[1] };
const CHUNK = { min: 5, max: 200, first: 25, targetMs: 30 }; // iterations per train request
const VIEW_EVERY_MS = 150; // heat map refresh while training
const SNAPSHOT_EVERY_MS = 1000; // how much training a worker restart can cost at most
const MAX_LOSS_POINTS = 4000; // the loss curve keeps every k-th iteration past this (memory stays flat)

const SCHEMA = {
  seed: integerField({ label: "시드", min: 0, max: MAX_SEED, fallback: 0 }),
  mask: booleanField({ label: "마스크", fallback: true }),
  length: integerField({ label: "시험 길이", min: LENGTHS.min, max: LENGTHS.max, fallback: 8 }),
  sample: integerField({ label: "시험 수열 번호", min: 0, max: MAX_SEED, fallback: 0 }),
};

// `store` keeps the state: the URL on our pages, the element's attributes in an embed.
export function mount(root, runtime, store = urlStore) {
  const { state, warnings } = store.load(ID, SCHEMA);
  const python = instanceOf(runtime, root);

  // --- model state as last reported by Python
  let summary = null;
  let heat = null; // the latest "view" reply (its heat map may be for an older slider value)
  const losses = boundedSeries(MAX_LOSS_POINTS); // the training loss per iteration since the last reset
  let lastViewAt = 0;
  let viewWanted = false;

  // --- controls
  const trainButton = button("학습 시작", "train", startTraining);
  const pauseButton = button("일시 정지", "pause", pause);
  const stepButton = button("한 걸음", "step", step);
  const resetButton = button("초기화", "reset", reset);
  const linkButton = button("링크 복사", "permalink", copyLink);
  trainButton.classList.add("is-primary");
  const maskBox = element("input", { type: "checkbox", checked: state.mask, "data-control": "mask" });
  const seedBox = seedInput(
    state.seed,
    (text) => message.show(text),
    (seed) => {
      state.seed = seed;
      store.save(ID, SCHEMA, state);
      if (!loop.training && (summary?.iteration ?? 0) === 0) {
        reset(); // nothing learned yet: start from the new seed right away
      } else {
        const now = summary
          ? ` 지금 모델은 시드 ${summary.seed}에서 시작해 ${formatCount(summary.iteration)}회 학습한 상태입니다.`
          : "";
        message.show(`새 시드 ${seed}는 ‘초기화’를 누르면 적용됩니다.${now}`);
      }
    },
  );
  const lengthSlider = element("input", {
    type: "range",
    min: LENGTHS.min,
    max: LENGTHS.max,
    step: 1,
    value: String(state.length),
    "data-control": "test-length",
  });
  const lengthValue = element("output", { class: "slider-value", text: `n = ${state.length}` });
  const resampleButton = button("다른 수열", "resample", resample);

  const toolbar = element("div", { class: "demo-toolbar" }, [
    trainButton,
    pauseButton,
    stepButton,
    resetButton,
    labelled("마스크", maskBox),
    labelled("시드", seedBox),
    linkButton,
  ]);

  // --- displays
  const iteration = stat("iteration", "반복", `학습 횟수 (배치 ${PY.sorter.batch}개씩)`);
  const loss = stat("loss", "손실", "교차 엔트로피, 이동 평균");
  const accuracy = stat("accuracy10", "n = 10 정확도", "150개 수열 중 끝까지 맞힌 비율");
  const model = output("model", "모델 설정");
  const stats = element("div", { class: "stat-row" }, [iteration.box, loss.box, accuracy.box]);

  const heatFigure = element("div", { class: "heat-figure", "data-out": "heatmap" });
  const heatDrawing = heatmapCanvas.create(heatFigure, {
    label: "확률 히트맵: 행은 디코딩 단계, 열은 입력 위치, 칸의 진하기는 그 단계에서 그 위치를 가리킬 확률",
  });
  const heatLegend = element("p", { class: "heat-legend" }, [
    element("span", { class: "swatch swatch-scale" }),
    element("span", { text: "확률 0 → 1" }),
    element("span", { class: "swatch swatch-correct" }),
    element("span", { text: "정답 위치" }),
    element("span", { class: "swatch swatch-choice" }),
    element("span", { text: "모델의 선택" }),
    element("span", { class: "swatch swatch-wrong" }),
    element("span", { text: "틀린 선택" }),
  ]);
  const order = element("div", { class: "order-lines", "data-out": "order" }); // not live: it changes every 150 ms while training
  const heatPanel = element("figure", { class: "panel trainer-heat" }, [
    element("figcaption", { text: "시험 수열 하나의 디코딩 확률" }),
    element("div", { class: "demo-toolbar trainer-length" }, [
      labelled("시험 길이", lengthSlider),
      lengthValue,
      resampleButton,
    ]),
    heatFigure,
    heatLegend,
    order,
  ]);

  const lossFigure = element("div", { class: "loss-figure" });
  const lossChart = lineChart.create(lossFigure, {
    label: "손실 곡선: 가로축은 반복 횟수, 세로축은 손실(로그 눈금)",
    aspect: 0.62,
  });
  const lossPanel = element("figure", { class: "panel trainer-loss" }, [
    element("figcaption", { text: "손실 곡선" }),
    lossFigure,
    element("p", { class: "out-minor model-line" }, [element("span", { text: "모델: " }), model.node]),
  ]);

  const message = messageLine(retry);
  root.replaceChildren(toolbar, stats, element("div", { class: "trainer-body" }, [heatPanel, lossPanel]), message.node);

  // --- drawing (on the next animation frame, only when something changed)
  const markDirty = redrawer(() => {
    drawHeatmap();
    drawLoss();
  });

  function drawHeatmap() {
    if (!heat) {
      heatDrawing.render({ values: [], columnLabels: [], rowLabels: [], empty: "파이썬을 기다리는 중…" });
      return;
    }
    const { x, probs, correct, choices } = heat.heatmap;
    heatDrawing.render({
      values: probs,
      columnLabels: x.map((v) => v.toFixed(2)),
      columnFooters: x.map((_, j) => String(j + 1)),
      rowLabels: probs.map((_, i) => String(i + 1)),
      columnTitle: "입력 위치 (위: 그 위치의 수, 아래: 위치 번호)",
      rowTitle: "디코딩 단계",
      outline: correct,
      marks: choices.map((j, i) => ({ column: j, wrong: j !== correct[i] })),
    });
  }

  function drawLoss() {
    const last = losses.last ?? 0;
    let low = Infinity;
    let high = -Infinity;
    for (const v of losses.ys) {
      if (v > 0 && v < low) low = v;
      if (v > high) high = v;
    }
    const yMin = Number.isFinite(low) ? 10 ** Math.floor(Math.log10(low)) : 0.01;
    const yMax = Number.isFinite(high) ? 10 ** Math.ceil(Math.log10(Math.max(high, yMin * 10))) : 10;
    lossChart.render({
      x: { min: 0, max: Math.max(100, last), label: "반복", format: formatCount },
      y: { min: yMin, max: yMax, log: true, label: "손실 (로그 눈금)" },
      series: [{ xs: losses.xs, ys: losses.ys, color: COLORS.loss, width: 1.8, envelope: true }],
      empty: "‘학습 시작’을 누르면 손실이 여기에 그려집니다",
    });
  }

  // --- replies
  function applySummary(reply) {
    summary = reply;
    iteration.set(reply.iteration, formatCount(reply.iteration));
    const lossValue = reply.loss;
    const accuracyValue = reply.accuracy10;
    loss.set(lossValue, lossValue === null ? "—" : lossValue.toFixed(4));
    accuracy.set(accuracyValue, accuracyValue === null ? "—" : percent(accuracyValue));
    model.set(
      { seed: reply.seed, mask: reply.mask, diverged: reply.diverged },
      `시드 ${reply.seed} · 마스크 ${onOff(reply.mask)}${reply.diverged ? " · 발산함" : ""}`,
    );
    if (reply.diverged) {
      loop.pause();
      message.show(
        "학습이 발산해 멈췄습니다: 손실이 유한한 수가 아니게 되었습니다. 마지막으로 멀쩡했던 가중치를 보여 줍니다. ‘초기화’로 다시 시작하세요.",
      );
    }
    document.dispatchEvent(new CustomEvent(MODEL_EVENT, { detail: { ...reply, instance: python.id } }));
    updateControls();
    markDirty();
  }

  function applyView(reply) {
    heat = reply;
    applySummary(reply);
    const { x, correct, choices, solved, valid } = reply.heatmap;
    const values = (positions) => positions.map((j) => x[j].toFixed(2));
    const line = (title, positions, wrongAt) =>
      element("p", { class: "order-line" }, [
        element("span", { class: "order-title", text: title }),
        ...values(positions).flatMap((v, i) => [
          ...(i ? [element("span", { class: "order-arrow", text: " → " })] : []),
          element("span", { class: wrongAt(i) ? "order-item is-wrong" : "order-item", text: v }),
        ]),
      ]);
    const wrong = choices.filter((j, i) => j !== correct[i]).length;
    const verdict = solved
      ? "정렬 성공"
      : !valid
        ? `같은 위치를 두 번 이상 가리켰습니다 (순열이 아님), 틀린 단계 ${wrong}곳`
        : `틀린 단계 ${wrong}곳`;
    order.dataset.value = JSON.stringify({ correct: correct.map((j) => j + 1), model: choices.map((j) => j + 1) });
    heatFigure.dataset.value = JSON.stringify(reply.heatmap.probs); // rows = steps, columns = positions
    order.replaceChildren(
      line("정답 순서", correct, () => false),
      line("모델 출력", choices, (i) => choices[i] !== correct[i]),
      element("p", { class: solved ? "order-verdict is-solved" : "order-verdict", text: verdict }),
    );
  }

  function appendLosses(reply) {
    reply.losses.forEach((value, k) => {
      losses.push(reply.start + k + 1, value);
    });
  }

  // --- the request loop: explicit operations, training chunks, then the heat map view
  const loop = trainingLoop({
    root,
    runtime,
    call: (fn, params) => python.call(ID, fn, params),
    chunk: CHUNK,
    snapshotEveryMs: SNAPSHOT_EVERY_MS,
    onTrained(reply) {
      appendLosses(reply);
      applySummary(reply);
    },
    followUp: {
      due: () => viewWanted || (loop.training && performance.now() - lastViewAt >= VIEW_EVERY_MS),
      run: view,
    },
    // The worker was replaced (it crashed or stopped answering): put the last snapshot of the
    // model into the new one, drop the losses after it, and carry on as before.
    afterRestart(snapshot) {
      viewWanted = true;
      return {
        fn: snapshot ? "restore" : "reset",
        params: () => (snapshot ? { snapshot } : { seed: state.seed, mask: state.mask }),
        apply(reply) {
          losses.trimAfter(reply.iteration);
          applySummary(reply);
          message.show(`파이썬이 다시 시작되어 반복 ${formatCount(reply.iteration)}에 저장해 둔 모델에서 이어 갑니다.`);
        },
      };
    },
    onError: (text) => message.show(`모델 계산이 실패했습니다: ${text}`, { error: true }),
    onChange: updateControls,
  });

  async function view() {
    viewWanted = false;
    lastViewAt = performance.now();
    const length = state.length;
    applyView(await python.call(ID, "view", { length, sample_seed: state.sample }));
    if (state.length !== length) viewWanted = true;
  }

  function updateControls() {
    const diverged = Boolean(summary?.diverged);
    trainButton.disabled = loop.training || diverged;
    pauseButton.disabled = !loop.training;
    stepButton.disabled = loop.training || diverged;
  }

  function enqueue(op, options) {
    if (root.dataset.state === "error") message.clear();
    viewWanted = true;
    loop.enqueue(op, options);
  }

  // --- user actions
  function startTraining() {
    if (summary?.diverged) return;
    if (root.dataset.state === "error") message.clear();
    loop.start();
  }

  function pause() {
    viewWanted = true; // the heat map catches up with the final weights
    loop.pause();
  }

  function step() {
    if (loop.training || summary?.diverged) return;
    enqueue({
      fn: "train",
      params: () => ({ iterations: 1 }),
      apply(reply) {
        appendLosses(reply);
        applySummary(reply);
      },
    });
  }

  function reset() {
    message.clear();
    enqueue(
      {
        fn: "reset",
        params: () => ({ seed: state.seed, mask: state.mask }),
        apply(reply) {
          losses.clear();
          loop.resetChunks();
          applySummary(reply);
        },
      },
      { stop: true }, // stop first: the reset is sent after the chunk in flight
    );
  }

  function retry() {
    message.clear();
    viewWanted = true;
    loop.retry();
  }

  maskBox.addEventListener("change", () => {
    state.mask = maskBox.checked;
    store.save(ID, SCHEMA, state);
    const trained = (summary?.iteration ?? 0) > 0;
    enqueue({
      fn: "set_mask",
      params: () => ({ mask: state.mask }),
      apply(reply) {
        applySummary(reply);
        if (reply.diverged) return;
        message.show(
          trained
            ? `가중치는 그대로 두고 마스크만 ${reply.mask ? "켰습니다" : "껐습니다"}. 반복 ${formatCount(reply.iteration)}회까지 배운 모델이 이제 마스크 ${onOff(reply.mask)} 상태로 풀고, 계속 학습합니다. 마스크 ${onOff(reply.mask)} 상태로 처음부터 배우게 하려면 ‘초기화’를 누르세요.`
            : `마스크를 ${reply.mask ? "켰습니다" : "껐습니다"}. 이 설정으로 학습합니다.`,
        );
      },
    });
  });

  lengthSlider.addEventListener("input", () => {
    state.length = Number(lengthSlider.value);
    lengthValue.textContent = `n = ${state.length}`;
    store.save(ID, SCHEMA, state);
    viewWanted = true;
    loop.poke();
  });

  function resample() {
    state.sample = (state.sample + 1) % (MAX_SEED + 1);
    store.save(ID, SCHEMA, state);
    viewWanted = true;
    loop.poke();
  }

  async function copyLink() {
    const url = store.link(ID, SCHEMA, state);
    try {
      await navigator.clipboard.writeText(url);
      message.show("시드·마스크·시험 길이를 담은 링크를 복사했습니다.");
    } catch {
      message.show(`링크: ${url}`);
    }
  }

  // --- start: a fresh model from the URL's seed and mask
  updateControls();
  markDirty();
  reset();
  if (warnings.length) message.show(warnings.join(" "));
}
