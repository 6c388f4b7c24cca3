// Demo 5 [sort-trainer]: the 96-parameter pointer sorter, trained live in the worker.
// Training is a loop of chunked "train" requests driven from here: the next chunk is sent only
// after the previous reply, its size adapted so one chunk takes ~30 ms, so pause, reset and
// mask changes are honoured within one chunk. Demo 6 evaluates the same model (the worker holds
// one trainer per page); every new summary is announced on `document` as MODEL_EVENT.
import { COLORS } from "../config.js";
import { ERROR_KIND } from "../runtime/protocol.js";
import * as heatmapCanvas from "../draw/heatmap.js";
import * as lineChart from "../draw/linechart.js";
import { booleanField, integerField } from "../ui/fields.js";
import { redrawer } from "../ui/frame.js";
import { urlStore } from "../ui/permalink.js";
import { adaptiveChunks, button, element, formatCount, labelled, MAX_SEED, messageLine, onOff, output, seedInput, stat } from "./common.js";

const ID = "sort-trainer";
export const MODEL_EVENT = "ptrnet:sort-model";
const LENGTHS = { min: 2, max: 50 };
const CHUNK = { min: 5, max: 200, first: 25, targetMs: 30 }; // iterations per train request
const VIEW_EVERY_MS = 150; // heat map refresh while training
const SNAPSHOT_EVERY_MS = 1000; // how much training a worker restart can cost at most

const SCHEMA = {
  seed: integerField({ label: "시드", min: 0, max: MAX_SEED, fallback: 0 }),
  mask: booleanField({ label: "마스크", fallback: true }),
  length: integerField({ label: "시험 길이", min: LENGTHS.min, max: LENGTHS.max, fallback: 8 }),
  sample: integerField({ label: "시험 수열 번호", min: 0, max: MAX_SEED, fallback: 0 }),
};

const formatPercent = (p) => `${(100 * p).toFixed(1)}%`;



// `store` keeps the state: the URL on our pages, the element's attributes in an embed.
export function mount(root, runtime, store = urlStore) {
  const { state, warnings } = store.load(ID, SCHEMA);

  // --- model state as last reported by Python
  let summary = null;
  let heat = null; // the latest "view" reply (its heat map may be for an older slider value)
  const lossXs = []; // every training iteration's loss since the last reset
  const lossYs = [];

  // --- request scheduling (one request of this demo in flight at a time)
  let training = false;
  let pumping = false;
  let failed = null; // the operation that failed, for the retry button
  const chunks = adaptiveChunks(CHUNK);
  let lastViewAt = 0;
  let viewWanted = false;
  const queue = []; // explicit operations: reset, set_mask, step
  // The model lives in the worker; a copy kept here survives a worker restart.
  let snapshot = null;
  let snapshotAt = 0;
  let modelChanged = false;

  // --- controls
  const trainButton = button("학습 시작", "train", startTraining);
  const pauseButton = button("일시 정지", "pause", pause);
  const stepButton = button("한 걸음", "step", step);
  const resetButton = button("초기화", "reset", reset);
  const linkButton = button("링크 복사", "permalink", copyLink);
  trainButton.classList.add("is-primary");
  const maskBox = element("input", { type: "checkbox", checked: state.mask, "data-control": "mask" });
  const seedBox = seedInput(state.seed, (text) => message.show(text), (seed) => {
    state.seed = seed;
    store.save(ID, SCHEMA, state);
    if (!training && (summary?.iteration ?? 0) === 0) {
      reset(); // nothing learned yet: start from the new seed right away
    } else {
      message.show(`새 시드 ${seed}는 ‘초기화’를 누르면 적용됩니다. 지금 모델은 시드 ${summary.seed}에서 시작해 ${formatCount(summary.iteration)}회 학습한 상태입니다.`);
    }
  });
  const lengthSlider = element("input", { type: "range", min: LENGTHS.min, max: LENGTHS.max, step: 1, value: String(state.length), "data-control": "test-length" });
  const lengthValue = element("output", { class: "slider-value", text: `n = ${state.length}` });
  const resampleButton = button("다른 수열", "resample", resample);

  const toolbar = element("div", { class: "demo-toolbar" }, [
    trainButton, pauseButton, stepButton, resetButton,
    labelled("마스크", maskBox),
    labelled("시드", seedBox),
    linkButton,
  ]);

  // --- displays
  const iteration = stat("iteration", "반복", "학습 횟수 (배치 32개씩)");
  const loss = stat("loss", "손실", "교차 엔트로피, 이동 평균");
  const accuracy = stat("accuracy10", "n = 10 정확도", "150개 수열 중 끝까지 맞힌 비율");
  const model = output("model", "모델 설정");
  const stats = element("div", { class: "stat-row" }, [iteration.box, loss.box, accuracy.box]);

  const heatFigure = element("div", { class: "heat-figure", "data-out": "heatmap" });
  const heatDrawing = heatmapCanvas.create(heatFigure, { label: "확률 히트맵: 행은 디코딩 단계, 열은 입력 위치, 칸의 진하기는 그 단계에서 그 위치를 가리킬 확률" });
  const heatLegend = element("p", { class: "heat-legend" }, [
    element("span", { class: "swatch swatch-scale" }), element("span", { text: "확률 0 → 1" }),
    element("span", { class: "swatch swatch-correct" }), element("span", { text: "정답 위치" }),
    element("span", { class: "swatch swatch-choice" }), element("span", { text: "모델의 선택" }),
    element("span", { class: "swatch swatch-wrong" }), element("span", { text: "틀린 선택" }),
  ]);
  const order = element("div", { class: "order-lines", "data-out": "order" }); // not live: it changes every 150 ms while training
  const heatPanel = element("figure", { class: "panel trainer-heat" }, [
    element("figcaption", { text: "시험 수열 하나의 디코딩 확률" }),
    element("div", { class: "demo-toolbar trainer-length" }, [labelled("시험 길이", lengthSlider), lengthValue, resampleButton]),
    heatFigure, heatLegend, order,
  ]);

  const lossFigure = element("div", { class: "loss-figure" });
  const lossChart = lineChart.create(lossFigure, { label: "손실 곡선: 가로축은 반복 횟수, 세로축은 손실(로그 눈금)", aspect: 0.62 });
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
    const last = lossXs.length ? lossXs[lossXs.length - 1] : 0;
    let low = Infinity;
    let high = -Infinity;
    for (const v of lossYs) {
      if (v > 0 && v < low) low = v;
      if (v > high) high = v;
    }
    const yMin = Number.isFinite(low) ? 10 ** Math.floor(Math.log10(low)) : 0.01;
    const yMax = Number.isFinite(high) ? 10 ** Math.ceil(Math.log10(Math.max(high, yMin * 10))) : 10;
    lossChart.render({
      x: { min: 0, max: Math.max(100, last), label: "반복", format: formatCount },
      y: { min: yMin, max: yMax, log: true, label: "손실 (로그 눈금)" },
      series: [{ xs: lossXs, ys: lossYs, color: COLORS.loss, width: 1.8, envelope: true }],
      empty: "‘학습 시작’을 누르면 손실이 여기에 그려집니다",
    });
  }

  // --- replies
  function applySummary(reply) {
    summary = reply;
    iteration.set(reply.iteration, formatCount(reply.iteration));
    // Python's None arrives as undefined; the displays write it as null.
    const lossValue = reply.loss ?? null;
    const accuracyValue = reply.accuracy10 ?? null;
    loss.set(lossValue, lossValue === null ? "—" : lossValue.toFixed(4));
    accuracy.set(accuracyValue, accuracyValue === null ? "—" : formatPercent(accuracyValue));
    model.set({ seed: reply.seed, mask: reply.mask, diverged: reply.diverged }, `시드 ${reply.seed} · 마스크 ${onOff(reply.mask)}${reply.diverged ? " · 발산함" : ""}`);
    if (reply.diverged) {
      training = false;
      message.show("학습이 발산해 멈췄습니다: 손실이 유한한 수가 아니게 되었습니다. 마지막으로 멀쩡했던 가중치를 보여 줍니다. ‘초기화’로 다시 시작하세요.");
    }
    modelChanged = true;
    document.dispatchEvent(new CustomEvent(MODEL_EVENT, { detail: { ...reply } }));
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
    const verdict = solved ? "정렬 성공" : !valid ? `같은 위치를 두 번 이상 가리켰습니다 (순열이 아님), 틀린 단계 ${wrong}곳` : `틀린 단계 ${wrong}곳`;
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
      lossXs.push(reply.start + k + 1);
      lossYs.push(value);
    });
  }

  // --- the request pump: explicit operations first, then training chunks, then a heat map view
  const call = (fn, params) => runtime.call(ID, fn, params);

  async function trainChunk() {
    const reply = await chunks.train((iterations) => call("train", { iterations }));
    appendLosses(reply);
    applySummary(reply);
  }

  async function view() {
    viewWanted = false;
    lastViewAt = performance.now();
    const length = state.length;
    applyView(await call("view", { length, sample_seed: state.sample }));
    if (state.length !== length) viewWanted = true;
  }

  async function pump() {
    if (pumping) return;
    pumping = true;
    updateState();
    try {
      for (;;) {
        if (queue.length) {
          const op = queue[0];
          failed = op;
          op.apply(await call(op.fn, op.params()));
          queue.shift();
        } else if (training) {
          failed = { retry: "train" };
          await trainChunk();
          if (viewWanted || performance.now() - lastViewAt >= VIEW_EVERY_MS) await view();
        } else if (viewWanted) {
          failed = { retry: "view" };
          await view();
        } else if (modelChanged) {
          await takeSnapshot();
        } else {
          break;
        }
        if (training && modelChanged && performance.now() - snapshotAt >= SNAPSHOT_EVERY_MS) await takeSnapshot();
      }
      failed = null;
    } catch (err) {
      if (err.kind === ERROR_KIND.restarted) {
        resumeAfterRestart();
      } else {
        training = false; // a failed operation stays first in the queue for the retry button
        root.dataset.state = "error";
        message.show(`모델 계산이 실패했습니다: ${err.message}`, { error: true });
      }
    } finally {
      pumping = false;
      updateState();
      updateControls();
    }
    if (queue.length && root.dataset.state !== "error") pump();
  }

  async function takeSnapshot() {
    modelChanged = false;
    snapshotAt = performance.now();
    snapshot = await call("snapshot", {});
  }

  // The worker was replaced (it crashed or stopped answering): put the last snapshot of the
  // model into the new one, drop the losses after it, and carry on as before.
  function resumeAfterRestart() {
    const wasTraining = training || failed?.retry === "train";
    const restored = snapshot;
    queue.unshift({
      fn: restored ? "restore" : "reset",
      params: () => (restored ? { snapshot: restored } : { seed: state.seed, mask: state.mask }),
      apply(reply) {
        const keep = lossXs.findIndex((x) => x > reply.iteration);
        if (keep >= 0) {
          lossXs.length = keep;
          lossYs.length = keep;
        }
        applySummary(reply);
        message.show(`파이썬이 다시 시작되어 반복 ${formatCount(reply.iteration)}에 저장해 둔 모델에서 이어 갑니다.`);
      },
    });
    training = wasTraining;
    viewWanted = true;
  }

  function updateState() {
    if (root.dataset.state === "error" && !pumping) return;
    root.dataset.state = pumping || training ? "busy" : "idle";
  }

  function updateControls() {
    const diverged = Boolean(summary?.diverged);
    trainButton.disabled = training || diverged;
    pauseButton.disabled = !training;
    stepButton.disabled = training || diverged;
  }

  function enqueue(op) {
    if (root.dataset.state === "error") clearError();
    queue.push(op);
    viewWanted = true;
    pump();
  }

  function clearError() {
    message.clear();
    root.dataset.state = "busy";
  }

  // --- user actions
  function startTraining() {
    if (training || summary?.diverged) return;
    if (root.dataset.state === "error") clearError();
    training = true;
    updateControls();
    updateState();
    pump();
  }

  function pause() {
    if (!training) return;
    training = false; // the chunk in flight finishes; no further chunk is sent
    viewWanted = true; // then the heat map catches up with the final weights
    updateControls();
    pump();
  }

  function step() {
    if (training || summary?.diverged) return;
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
    training = false; // stop first: the reset is sent after the chunk in flight
    message.clear();
    enqueue({
      fn: "reset",
      params: () => ({ seed: state.seed, mask: state.mask }),
      apply(reply) {
        lossXs.length = 0;
        lossYs.length = 0;
        chunks.reset();
        applySummary(reply);
      },
    });
    updateControls();
  }

  function retry() {
    message.clear();
    root.dataset.state = "busy";
    if (failed?.retry === "train") training = true;
    viewWanted = true;
    pump();
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
    pump();
  });

  function resample() {
    state.sample = (state.sample + 1) % (MAX_SEED + 1);
    store.save(ID, SCHEMA, state);
    viewWanted = true;
    pump();
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
