// Demo 5 [sort-trainer]: the 96-parameter pointer sorter, trained live in the worker. Training
// is a job of the demo's request loop (chunks sized to ~30 ms), so pause, reset and mask changes
// are honoured within one chunk. The worker keeps one sorter per demo element (its instance id);
// every new summary is announced on `document` as MODEL_EVENT with that id, so demo 6 evaluates
// this very model.
import { PY } from "../generated/constants.js";
import { instanceOf } from "../runtime/callers.js";
import { booleanField, integerField } from "../ui/fields.js";
import { redrawer } from "../ui/frame.js";
import { urlStore } from "../ui/permalink.js";
import { boundedSeries } from "../ui/bounded-series.js";
import {
  button,
  element,
  formatCount,
  labelled,
  MAX_SEED,
  messageLine,
  onOff,
  output,
  permalinkButton,
  stat,
  trainerControls,
  trainingSeedInput,
} from "./common.js";
import { trainingJob } from "../ui/request-loop.js";
import { heatPanel, lossPanel } from "./sort-trainer-panels.js";

const ID = "sort-trainer";
export const MODEL_EVENT = "ptrnet:sort-model";
const LENGTHS = { min: PY.sorter.testLengths[0], max: PY.sorter.testLengths[1] };
export const CHUNK = { min: 5, max: PY.sorter.maxChunk, first: 25, targetMs: 30 }; // iterations per train request
const VIEW_EVERY_MS = 150; // heat map refresh while training
const MAX_LOSS_POINTS = 4000; // the loss curve keeps every k-th iteration past this (memory stays flat)

export const SCHEMA = {
  seed: integerField({ label: "시드", min: 0, max: MAX_SEED, fallback: 0 }),
  mask: booleanField({ label: "마스크", fallback: true }),
  length: integerField({ label: "시험 길이", min: LENGTHS.min, max: LENGTHS.max, fallback: 8 }),
  sample: integerField({ label: "시험 수열 번호", min: 0, max: MAX_SEED, fallback: 0 }),
};

// `store` keeps the state: the URL on our pages, the element's attributes in an embed.
export function mount(root, runtime, store = urlStore) {
  const { state, warnings } = store.load(ID, SCHEMA);
  const save = () => store.save(ID, SCHEMA, state);
  const python = instanceOf(runtime, root);

  // --- model state as last reported by Python
  let summary = null;
  let heatmap = null; // the latest "view" reply's (it may be for an older slider value)
  const losses = boundedSeries(MAX_LOSS_POINTS); // the training loss per iteration since the last reset
  let lastViewAt = 0;
  let viewWanted = false;

  // --- controls, and the request loop: explicit operations, training chunks, then the heat map view
  const stepButton = button("한 번 반복", "step", step, "배치 하나로 가중치를 딱 한 번 고칩니다.");
  const maskBox = element("input", { type: "checkbox", checked: state.mask, "data-control": "mask" });
  const message = messageLine(retry);
  const training = trainingJob(CHUNK, applyTrained);
  const controls = trainerControls({
    job: training,
    blocked: () => Boolean(summary?.diverged),
    idleOnly: [stepButton],
    pauseTitle: "학습을 멈춥니다. 가중치는 그대로 남습니다.",
    onPause: () => {
      viewWanted = true; // the heat map catches up with the final weights
    },
    root,
    runtime,
    python,
    id: ID,
    message,
    resetParams: () => ({ seed: state.seed, mask: state.mask }),
    series: losses,
    applySummary,
    onRestart: () => {
      viewWanted = true; // a new worker: the heat map is asked for again
    },
    followUp: {
      due: () => viewWanted || (loop.running && performance.now() - lastViewAt >= VIEW_EVERY_MS),
      run: view,
    },
  });
  const { loop } = controls;
  const seedBox = trainingSeedInput(state.seed, message, {
    loop,
    model: () => summary,
    onSeed(seed) {
      state.seed = seed;
      save();
    },
    reset,
  });
  const lengthSlider = element("input", {
    type: "range",
    min: LENGTHS.min,
    max: LENGTHS.max,
    step: 1,
    value: String(state.length),
    "data-control": "test-length",
  });
  const lengthValue = element("output", { class: "slider-value", text: `n = ${state.length}` });
  const toolbar = element("div", { class: "demo-toolbar" }, [
    controls.train,
    controls.pause,
    stepButton,
    button("초기화", "reset", reset, "가중치를 시드에 맞춘 처음 값으로 되돌립니다."),
    labelled("마스크", maskBox),
    labelled("시드", seedBox),
    permalinkButton(() => store.link(ID, SCHEMA, state), message, "시드·마스크·시험 길이"),
  ]);

  // --- displays
  const iteration = stat("iteration", "반복", `학습 횟수 (배치 ${PY.sorter.batch}개씩)`);
  const loss = stat("loss", "손실", "교차 엔트로피, 이동 평균");
  const accuracy = stat("accuracy10", "n = 10 정확도", "150개 수열 중 끝까지 맞힌 비율");
  const model = output("model", "모델 설정");
  const heat = heatPanel({
    slider: lengthSlider,
    value: lengthValue,
    resample: button("다른 수열", "resample", resample, "히트맵에 보여 줄 시험 수열을 새로 뽑습니다."),
  });
  const lossChart = lossPanel(model.node);
  root.replaceChildren(
    toolbar,
    element("div", { class: "stat-row" }, [iteration.box, loss.box, accuracy.box]),
    element("div", { class: "trainer-body" }, [heat.node, lossChart.node]),
    message.node,
  );
  const markDirty = redrawer(() => {
    heat.draw(heatmap);
    lossChart.draw(losses);
  });

  // --- replies
  function applySummary(reply) {
    summary = reply;
    iteration.set(reply.iteration, formatCount(reply.iteration));
    loss.set(reply.loss, reply.text.loss);
    if ("accuracy10" in reply) {
      // train replies leave it out (a 150-sequence decode per chunk); the next view brings it
      accuracy.set(reply.accuracy10, reply.text.accuracy10);
    }
    model.set(
      { seed: reply.seed, mask: reply.mask, diverged: reply.diverged },
      `시드 ${reply.seed} · 마스크 ${onOff(reply.mask)}${reply.diverged ? " · 발산함" : ""}`,
    );
    if (reply.diverged) {
      loop.stop();
      message.show(
        "학습이 발산해 멈췄습니다: 손실이 유한한 수가 아니게 되었습니다. 마지막으로 멀쩡했던 가중치를 보여 줍니다. ‘초기화’로 다시 시작하세요.",
      );
    }
    document.dispatchEvent(new CustomEvent(MODEL_EVENT, { detail: { ...reply, instance: python.id } }));
    controls.update(); // a diverged model cannot train on
    markDirty();
  }

  function applyTrained(reply) {
    reply.losses.forEach((value, k) => {
      losses.push(reply.start + k + 1, value);
    });
    applySummary(reply);
  }

  async function view() {
    viewWanted = false;
    lastViewAt = performance.now();
    const length = state.length;
    const reply = await python.call(ID, "view", { length, sample_seed: state.sample });
    heatmap = reply.heatmap;
    applySummary(reply);
    heat.showOrders(reply.heatmap);
    if (state.length !== length) viewWanted = true;
  }

  function enqueue(op, options) {
    if (root.dataset.state === "error") message.clear();
    viewWanted = true;
    loop.enqueue(op, options);
  }

  // --- user actions
  function step() {
    if (loop.running || summary?.diverged) return;
    enqueue({ fn: "train", params: () => ({ iterations: 1 }), apply: applyTrained });
  }

  function reset() {
    message.clear();
    const params = () => ({ seed: state.seed, mask: state.mask });
    const apply = (reply) => {
      losses.clear();
      training.reset();
      applySummary(reply);
    };
    enqueue({ fn: "reset", params, apply }, { stop: true }); // sent after the chunk in flight
  }

  function retry() {
    message.clear();
    viewWanted = true;
    loop.retry();
  }

  maskBox.addEventListener("change", () => {
    state.mask = maskBox.checked;
    save();
    const trained = (summary?.iteration ?? 0) > 0;
    const apply = (reply) => {
      applySummary(reply);
      if (reply.diverged) return;
      const now = reply.mask ? "켰습니다" : "껐습니다";
      message.show(
        trained
          ? `가중치는 그대로 두고 마스크만 ${now}. 반복 ${formatCount(reply.iteration)}회까지 배운 모델이 이제 마스크 ${onOff(reply.mask)} 상태로 풀고, 계속 학습합니다. 마스크 ${onOff(reply.mask)} 상태로 처음부터 배우게 하려면 ‘초기화’를 누르세요.`
          : `마스크를 ${now}. 이 설정으로 학습합니다.`,
      );
    };
    enqueue({ fn: "set_mask", params: () => ({ mask: state.mask }), apply });
  });

  lengthSlider.addEventListener("input", () => {
    state.length = Number(lengthSlider.value);
    lengthValue.textContent = `n = ${state.length}`;
    save();
    viewWanted = true;
    loop.poke();
  });

  function resample() {
    state.sample = (state.sample + 1) % (MAX_SEED + 1);
    save();
    viewWanted = true;
    loop.poke();
  }

  // --- start: a fresh model from the URL's seed and mask
  markDirty();
  reset();
  if (warnings.length) message.show(warnings.join(" "));
}
