// Demo 6 [length-eval]: a sorter (the model of the demo 5 that last reported on this page, else
// this element's own untrained one) evaluated on every length
// 5–50, 150 seeded sequences each, greedy, with the model's own mask setting. A run is a job of
// the demo's request loop, one request per few lengths, so progress streams, cancel stops it
// between requests and retry continues from the failed request; finished runs stay on the chart
// as faint lines.
import { PY } from "../generated/constants.js";
import { percent } from "../ui/format.js";
import { COLORS } from "../config.js";
import * as lineChart from "../draw/linechart.js";
import { redrawer } from "../ui/frame.js";
import { button, element, formatCount, messageLine, onOff, output } from "./common.js";
import { instanceOf } from "../runtime/callers.js";
import { requestLoop } from "../ui/request-loop.js";
import { MODEL_EVENT } from "./sort-trainer.js";

const ID = "length-eval";
const LENGTHS = PY.sorter.evalLengths;
const TRAIN_LENGTHS = PY.sorter.trainLengths;
const COUNT = PY.sorter.evalCount; // sequences per length
const EVAL_SEED = PY.sorter.evalSeed; // each request adds its first length, so each length has its own sequences
const CHUNK_COST = 2600; // Σ n(n+1) of the lengths in one request: about 50 ms in Pyodide
const MAX_FAINT = 12; // older runs beyond this are dropped from the chart

// Consecutive lengths grouped so that each request costs about the same.
function chunksOf(lengths) {
  const chunks = [];
  let current = [];
  let cost = 0;
  for (const n of lengths) {
    const c = n * (n + 1);
    if (current.length && cost + c > CHUNK_COST) {
      chunks.push(current);
      current = [];
      cost = 0;
    }
    current.push(n);
    cost += c;
  }
  if (current.length) chunks.push(current);
  return chunks;
}
const CHUNKS = chunksOf(LENGTHS);

function describeModel(run) {
  const [first, last] = run.iterations;
  const when =
    first === last
      ? `반복 ${formatCount(last)}회`
      : `반복 ${formatCount(first)}–${formatCount(last)}회 (평가하는 동안에도 학습이 계속됨)`;
  const mask = run.masks.size > 1 ? "마스크 도중에 바뀜" : `마스크 ${onOff([...run.masks][0])}`;
  return `${when} · ${mask}`;
}

export function mount(root, runtime) {
  const own = instanceOf(runtime, root);
  const runs = []; // finished runs, oldest first; the last one is drawn in full colour
  let current = null; // the run being streamed
  let liveModel = null; // demo 5's latest summary, if demo 5 is on the page

  const evaluateButton = button("평가", "evaluate", evaluate);
  evaluateButton.classList.add("is-primary");
  const cancelButton = button("취소", "cancel", cancel);
  const clearButton = button("지난 결과 지우기", "clear", clearFaint);
  const bar = element("progress", { max: LENGTHS.length, value: 0, class: "eval-progress", "aria-label": "평가 진행" });
  const progress = output("progress", "평가한 길이 수");
  progress.set(0, `0/${LENGTHS.length}`);
  const faintCount = output("faint_runs", "흐리게 남은 이전 평가 수");
  faintCount.set(0, "");
  const toolbar = element("div", { class: "demo-toolbar" }, [
    evaluateButton,
    cancelButton,
    clearButton,
    bar,
    progress.node,
  ]);

  const figure = element("div", { class: "eval-figure" });
  const chart = lineChart.create(figure, {
    label: "길이별 정확도 그래프: 가로축은 입력 길이 n, 세로축은 비율",
    aspect: 0.46,
  });
  const curves = output("curves", "평가 결과 요약");
  curves.clear("아직 평가하지 않았습니다.");
  const evaluated = output("model", "평가한 모델");
  evaluated.clear("—");
  const live = element("span", { class: "out-minor" });
  const outputs = element("div", { class: "eval-outputs" }, [
    element("p", {}, [element("span", { class: "stat-label", text: "평가한 모델: " }), evaluated.node]),
    element("p", { class: "out-minor" }, [live]),
    element("p", {}, [element("span", { class: "stat-label", text: "마지막 평가 요약: " }), curves.node]),
    element("p", { class: "out-minor" }, [faintCount.node]),
  ]);
  const message = messageLine(() => {
    message.clear();
    loop.retry();
  });
  root.replaceChildren(toolbar, figure, outputs, message.node);
  root.dataset.state = "idle";

  function lines(run, faint) {
    const xs = run.lengths;
    const alpha = faint ? 0.22 : 1;
    return [
      { xs, ys: run.invalid, color: COLORS.invalid, width: faint ? 1.3 : 2.2, dash: [7, 5], alpha, markers: !faint },
      {
        xs,
        ys: run.pos_acc,
        color: COLORS.posAcc,
        width: faint ? 1.3 : 4.5,
        alpha: faint ? alpha : 0.75,
        markers: false,
      },
      { xs, ys: run.seq_acc, color: COLORS.seqAcc, width: faint ? 1.3 : 2.2, alpha, markers: !faint },
    ];
  }

  const markDirty = redrawer(() => {
    const bold = current ?? runs[runs.length - 1] ?? null;
    const faint = runs.filter((run) => run !== bold);
    chart.render({
      x: { min: 3.5, max: 51, ticks: [5, 10, 15, 20, 25, 30, 35, 40, 45, 50], label: "입력 길이 n" },
      y: { min: -0.03, max: 1.03, ticks: [0, 0.25, 0.5, 0.75, 1], format: (p) => percent(p, 0), label: "비율" },
      bands: [{ from: TRAIN_LENGTHS[0], to: TRAIN_LENGTHS[1], color: COLORS.trainBand }], // named in the legend
      series: [...faint.flatMap((run) => lines(run, true)), ...(bold ? lines(bold, false) : [])],
      legend: [
        { label: "수열 정확도", color: COLORS.seqAcc },
        { label: "위치별 정확도", color: COLORS.posAcc, width: 4.5, alpha: 0.75 },
        { label: "잘못된 출력(순열 아님)", color: COLORS.invalid, dash: [7, 5] },
        { label: `학습 길이 ${TRAIN_LENGTHS[0]}–${TRAIN_LENGTHS[1]}`, fill: COLORS.trainBand },
        ...(faint.length ? [{ label: "이전 평가(흐린 선)", color: COLORS.muted, width: 1.3, alpha: 0.45 }] : []),
      ],
      empty: "‘평가’를 누르면 길이 5–50의 결과가 여기에 그려집니다",
    });
  });

  function updateControls() {
    const running = current !== null;
    evaluateButton.disabled = running;
    cancelButton.disabled = !running;
    const faint = current ? runs.length : Math.max(0, runs.length - 1);
    clearButton.disabled = faint === 0;
    faintCount.set(faint, faint ? `흐린 선: 이전 평가 ${faint}번` : "");
  }

  function showLiveModel() {
    if (!liveModel) return;
    const last = runs[runs.length - 1];
    const changed =
      last && (last.iterations[1] !== liveModel.iteration || !last.masks.has(liveModel.mask) || last.masks.size > 1);
    live.textContent = `지금 데모 5의 모델: 반복 ${formatCount(liveModel.iteration)}회 · 마스크 ${onOff(liveModel.mask)}${changed ? " (평가한 뒤에 바뀌었습니다. 다시 평가해 보세요)" : ""}`;
  }

  const loop = requestLoop({
    root,
    runtime,
    call: (fn, params) => runtime.call(ID, fn, params),
    resend: false, // demo 5's model may not be back in a restarted worker yet
    onError(text) {
      message.show(`평가하지 못했습니다: ${text}`, { error: true });
      updateControls();
    },
    onChange: updateControls,
  });

  // One request: a few lengths of the run's model (demo 5's when there is one).
  function chunkOperation(run, lengths) {
    const params = () => ({
      lengths,
      count: COUNT,
      seed: EVAL_SEED + lengths[0],
      instance: liveModel?.instance ?? own.id,
    });
    return {
      fn: "evaluate",
      params,
      apply(reply) {
        if (run !== current) return; // cancelled meanwhile
        for (const key of ["lengths", "seq_acc", "pos_acc", "invalid"]) run[key].push(...reply[key]);
        for (const key of ["seq_acc", "pos_acc", "invalid"]) run.text[key].push(...reply.text[key]);
        run.iterations = [run.iterations[0] ?? reply.iteration, reply.iteration];
        run.masks.add(reply.mask);
        bar.value = run.lengths.length;
        progress.set(run.lengths.length, `${run.lengths.length}/${LENGTHS.length}`);
        evaluated.set({ iteration: reply.iteration, mask: reply.mask, done: false }, `${describeModel(run)} (평가 중)`);
        markDirty();
      },
    };
  }

  function evaluate() {
    if (current) return;
    const run = {
      lengths: [],
      seq_acc: [],
      pos_acc: [],
      invalid: [],
      text: { seq_acc: [], pos_acc: [], invalid: [] }, // as Python wrote each share
      iterations: [null, null],
      masks: new Set(),
    };
    current = run;
    message.clear();
    bar.value = 0;
    progress.set(0, `0/${LENGTHS.length}`);
    evaluated.clear("평가하는 중…");
    let k = 0;
    loop.run({ next: () => (k < CHUNKS.length ? chunkOperation(run, CHUNKS[k++]) : null), done: () => finish(run) });
    markDirty();
  }

  function finish(run) {
    current = null;
    runs.push(run);
    if (runs.length > MAX_FAINT + 1) runs.splice(0, runs.length - MAX_FAINT - 1);
    const { lengths, seq_acc, pos_acc, invalid, text } = run;
    const at = (written, n) => written[lengths.indexOf(n)];
    const worst = invalid.indexOf(Math.max(...invalid));
    curves.set(
      { lengths, seq_acc, pos_acc, invalid },
      `수열 정확도 n = 10: ${at(text.seq_acc, 10)}, n = 50: ${at(text.seq_acc, 50)} · 위치별 정확도 n = 50: ${at(text.pos_acc, 50)} · 잘못된 출력 최대 ${text.invalid[worst]}`,
    );
    showEvaluated();
    if (run.iterations[1] === 0)
      message.show("아직 학습하지 않은 모델(반복 0회)을 평가했습니다. 위의 데모 5에서 먼저 학습시켜 보세요.");
    showLiveModel();
    updateControls();
    markDirty();
  }

  // Which model the latest finished run evaluated (its mask is null if it changed mid-run).
  function showEvaluated() {
    const run = runs[runs.length - 1];
    if (!run) return evaluated.clear("—");
    const mask = run.masks.size === 1 ? [...run.masks][0] : null;
    evaluated.set({ iteration: run.iterations[1], iterations: run.iterations, mask }, describeModel(run));
  }

  function cancel() {
    if (!current) return;
    const done = current.lengths.length;
    current = null; // the reply in flight is dropped and no further request is sent
    loop.stop();
    bar.value = 0;
    progress.set(done, `취소됨 (${done}/${LENGTHS.length})`);
    showEvaluated();
    message.show(`평가를 취소했습니다. 길이 ${LENGTHS.length}개 가운데 ${done}개까지 계산했고, 그 결과는 버렸습니다.`);
    updateControls();
    markDirty();
  }

  function clearFaint() {
    runs.splice(0, Math.max(0, runs.length - 1));
    message.clear();
    updateControls();
    markDirty();
  }

  document.addEventListener(MODEL_EVENT, (event) => {
    liveModel = event.detail;
    showLiveModel();
  });

  updateControls();
  markDirty();
}
