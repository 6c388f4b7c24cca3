// Companion demo [ptrnet-trainer]: the reader trains the paper's LSTM Ptr-Net on convex hulls of
// 5–10 points, from scratch, in the page's worker. Training is a job of the demo's request loop
// (chunks sized to ~30 ms, as in demo 5 and the NPLM), with a snapshot every second so that a new
// worker resumes bit for bit. Every few seconds Python measures exact-match accuracy on fixed
// validation sets at n = 5, 10 and 20; every reply carries the model's answer on the reader's
// points. The weights go out and come back as a .npz in the shipped format.
// One worker, not a second one on the other core: the chunks wait while the reader drags anywhere on
// the page (Runtime.interactionPause), so a drag answers as fast as with nothing training; a training-only
// worker would cost a second Pyodide's memory and start-up and, on two cores, slowed the drags
// (tests/bench/bench_ptrnet_trainer.py measures both).
import { LIMITS } from "../config.js";
import { PY } from "../generated/constants.js";
import { instanceOf } from "../runtime/callers.js";
import { choiceField, integerField, pointsField } from "../ui/fields.js";
import { redrawer } from "../ui/frame.js";
import { urlStore } from "../ui/permalink.js";
import { attach } from "../ui/point-editor.js";
import { boundedSeries } from "../ui/bounded-series.js";
import { trainingJob } from "../ui/request-loop.js";
import {
  button,
  element,
  labelled,
  MAX_SEED,
  messageLine,
  output,
  permalinkButton,
  select,
  stat,
  trainerControls,
  trainingSeedInput,
} from "./common.js";
import { accuracyPanel, answerPanel, lossPanel, stepPanel } from "./ptrnet-trainer-panels.js";
import { downloadNpz, readNpz } from "./ptrnet-trainer-files.js";

const ID = "ptrnet-trainer";
const CHUNK = { min: 1, max: PY.trainer.maxChunk, first: 2, targetMs: 30 }; // updates per train request
const EVALUATE_EVERY_MS = 4000; // accuracy on the validation sets while training
const MAX_CURVE_POINTS = 2000; // the curves keep every k-th chunk past this (memory stays flat)
const HIDDEN = PY.trainer.hidden.map(String);

export const SCHEMA = {
  seed: integerField({ label: "시드", min: 0, max: MAX_SEED, fallback: 0 }),
  hidden: choiceField({ label: "은닉 크기", options: HIDDEN, fallback: HIDDEN[0] }),
  points: pointsField(LIMITS.maxModelPoints, PY.referencePoints, LIMITS.minModelPoints),
};

export function mount(root, runtime, store = urlStore) {
  const { state, warnings } = store.load(ID, SCHEMA);
  const save = () => store.save(ID, SCHEMA, state);
  const python = instanceOf(runtime, root);

  let summary = null;
  let step = 1;
  let selected = -1;
  let evaluatedAt = 0;
  let evaluateWanted = false;
  const losses = boundedSeries(MAX_CURVE_POINTS);
  const shares = Object.fromEntries(PY.trainer.valNs.map((n) => [n, boundedSeries(MAX_CURVE_POINTS)]));
  const curves = [losses, ...Object.values(shares)];

  // --- controls, and the request loop: explicit operations first, then training chunks, then the accuracy
  const message = messageLine(retry);
  const training = trainingJob(CHUNK, applySummary);
  const { loop, train, pause } = trainerControls({
    job: training,
    root,
    runtime,
    python,
    id: ID,
    message,
    resetParams: () => ({ seed: state.seed, hidden: Number(state.hidden), points: state.points }),
    series: {
      trimAfter(k) {
        for (const curve of curves) curve.trimAfter(k);
      },
    },
    applySummary,
    followUp: {
      // A measurement goes a chunk of sets per request until done, so a drag is answered in between.
      due: () =>
        evaluateWanted || summary?.evaluating || (loop.running && performance.now() - evaluatedAt >= EVALUATE_EVERY_MS),
      async run() {
        if (!summary?.evaluating) evaluatedAt = performance.now();
        evaluateWanted = false;
        applySummary(await python.call(ID, "evaluate", {}));
      },
    },
    onStart: () => {
      evaluatedAt = performance.now();
    },
    onPause: () => {
      evaluateWanted = true; // paused, the model is measured once more: the shares shown are the paused model's
    },
  });
  const seedBox = trainingSeedInput(state.seed, message, {
    loop,
    model: () => summary,
    onSeed(seed) {
      state.seed = seed;
      save();
    },
    reset,
  });
  const hiddenBox = select(
    "hidden",
    HIDDEN.map((h) => [h, h]),
    state.hidden,
  );
  const fileInput = element("input", { type: "file", accept: ".npz", "data-control": "import", class: "file-input" });
  const toolbar = element("div", { class: "demo-toolbar" }, [
    train,
    pause,
    button("초기화", "reset", () => reset()),
    labelled("시드", seedBox),
    labelled("은닉 크기", hiddenBox),
    button("가중치 내보내기 (.npz)", "export", exportWeights),
    labelled("가중치 가져오기", fileInput),
    permalinkButton(() => store.link(ID, SCHEMA, state), message, "시드·은닉 크기·점 배치"),
  ]);

  // --- displays
  const iteration = stat("iteration", "반복", "Adam 갱신 횟수");
  const loss = stat("loss", "손실", "마지막 학습 배치의 교차 엔트로피");
  const accuracy = stat("accuracy", "정확히 맞힌 비율 (n = 5 / 10 / 20)", "고정된 검증 세트에서 몇 초마다 잼");
  const model = output("model", "모델 설정");
  const lossChart = lossPanel();
  const accuracyChart = accuracyPanel();
  const answer = answerPanel();
  const steps = stepPanel((k) => {
    step = k;
    markDirty();
  });
  root.replaceChildren(
    toolbar,
    element("div", { class: "stat-row" }, [iteration.box, loss.box, accuracy.box]),
    element("div", { class: "panels panels-two" }, [answer.node, steps.node]),
    element("div", { class: "panels panels-two" }, [lossChart.node, accuracyChart.node]),
    element("p", { class: "out-minor model-line" }, [element("span", { text: "모델: " }), model.node]),
    message.node,
  );
  const markDirty = redrawer(() => {
    lossChart.draw(losses);
    accuracyChart.draw(shares);
    answer.draw(state.points, summary?.answer, selected);
    step = steps.draw(summary?.answer, step);
  });

  // --- replies
  function applySummary(reply) {
    summary = reply;
    iteration.set(reply.iteration, reply.text.iteration);
    loss.set(reply.loss, reply.text.loss);
    if (reply.accuracy) {
      const text = PY.trainer.valNs.map((n) => reply.text.accuracy[n]).join(" / ");
      accuracy.set(reply.accuracy, text);
      for (const n of PY.trainer.valNs)
        if (shares[n].last !== reply.accuracy_at) shares[n].push(reply.accuracy_at, reply.accuracy[n]);
    } else accuracy.clear("—");
    if (reply.loss !== null && losses.last !== reply.iteration) losses.push(reply.iteration, reply.loss);
    const origin = reply.imported ? "가져온 가중치" : `시드 ${reply.seed}`;
    model.set(
      { seed: reply.seed, hidden: reply.hidden, imported: reply.imported },
      `${origin} · 은닉 크기 ${reply.hidden} · 학습률 ${reply.text.lr}`,
    );
    answer.show(reply.answer);
    markDirty();
  }

  function clearCurves() {
    for (const curve of curves) curve.clear();
  }

  // --- user actions
  function reset() {
    message.clear();
    const apply = (reply) => {
      clearCurves();
      training.reset();
      applySummary(reply);
    };
    const params = () => ({ seed: state.seed, hidden: Number(state.hidden), points: state.points });
    loop.enqueue({ fn: "reset", params, apply }, { stop: true });
  }

  function retry() {
    message.clear();
    loop.retry();
  }

  function exportWeights() {
    const name = `ptrnet-hull-h${summary?.hidden ?? state.hidden}-${summary?.iteration ?? 0}.npz`;
    loop.enqueue({ fn: "export", params: () => ({}), apply: (reply) => downloadNpz(reply.npz, name) });
  }

  // A bad file is answered with Python's Korean message; the model in memory stays.
  fileInput.addEventListener("change", async () => {
    const file = fileInput.files[0];
    fileInput.value = "";
    if (!file) return;
    const npz = await readNpz(file);
    loop.enqueue(
      {
        send: (call) => call("import", { npz }).catch((err) => ({ refused: err.message })),
        apply(reply) {
          if (reply.refused) {
            message.show(reply.refused);
            return;
          }
          clearCurves();
          training.reset();
          applySummary(reply);
          message.show(`‘${file.name}’의 가중치(은닉 크기 ${reply.hidden})를 가져왔습니다.`);
        },
      },
      { stop: true },
    );
  });

  hiddenBox.addEventListener("change", () => {
    state.hidden = hiddenBox.value;
    save();
    reset();
    message.show(`은닉 크기 ${state.hidden}인 새 모델을 만들었습니다. ‘학습 시작’으로 학습하세요.`);
  });

  function setPoints(points, { dragging = false } = {}) {
    state.points = points;
    if (!dragging) save();
    loop.enqueue({ key: "points", fn: "view", params: () => ({ points: state.points }), apply: applySummary });
    markDirty();
  }

  attach(answer.drawing, {
    getPoints: () => state.points,
    setPoints,
    onDragEnd: save,
    minPoints: LIMITS.minModelPoints,
    maxPoints: LIMITS.maxModelPoints,
    onLimit: () => message.show(`점은 ${LIMITS.maxModelPoints}개까지만 놓을 수 있습니다.`),
    onMinimum: () => message.show(`볼록 껍질에는 점이 ${LIMITS.minModelPoints}개 이상 있어야 합니다.`),
    onSelect: (index) => {
      selected = index;
      markDirty();
    },
  });

  // --- start: a fresh model from the URL's seed and width
  markDirty();
  reset();
  if (warnings.length) message.show(warnings.join(" "));
}
