// Companion page [experiments]: the paper's experiments rerun on fresh seeded point sets. The
// reader picks one of our models, sizes, sets per size, decoding and a seed; Python checks the
// settings and estimates the time (plan), measures the sets a chunk at a time with the offline
// evaluation's code (measure), and merges the chunks' sums into the table's rows and words
// (summarize); the run's bookkeeping is in experiments-run.js. This controller holds the settings
// and draws what Python wrote.
import { PY } from "../generated/constants.js";
import { choiceField, integerField, integerListField } from "../ui/fields.js";
import { redrawer } from "../ui/frame.js";
import { urlStore } from "../ui/permalink.js";
import { requestLoop } from "../ui/request-loop.js";
import { button, element, formatCount, labelled, MAX_SEED, messageLine, output, select } from "./common.js";
import { collinearityPanel, comparisonChart, failureGallery, resultsTable } from "./experiments-panels.js";
import { newRun, runJob, secondsLeft } from "./experiments-run.js";

const ID = "experiments";
const TRAINER = '[data-demo="ptrnet-trainer"]'; // the demo whose model the runner's "mine" measures
const RUNNER = PY.experiments;
const MODELS = RUNNER.models;
export const SCHEMA = {
  model: choiceField({ label: "모델", options: Object.keys(MODELS), fallback: "hull" }),
  sizes: integerListField({ label: "크기(n)", fallback: MODELS.hull.defaultSizes, max: RUNNER.maxSizes }),
  sets: integerField({ label: "세트 수", min: 1, max: RUNNER.maxSets, fallback: MODELS.hull.defaultSets }),
  decoding: choiceField({ label: "디코딩", options: Object.keys(RUNNER.decodings), fallback: "greedy" }),
  seed: integerField({ label: "시드", min: 0, max: MAX_SEED, fallback: RUNNER.referenceSeeds[0] }),
};
const seconds = (s) => (s < 1 ? "1초 미만" : s < 90 ? `약 ${Math.round(s)}초` : `약 ${Math.round(s / 60)}분`);

function sizesText(model) {
  const m = MODELS[model];
  const span = m.minN === m.maxN ? `${m.minN}` : `${m.minN}–${m.maxN}`;
  if (!m.extraSizes.length) return span;
  const seeds = RUNNER.referenceSeeds.join(", ");
  return `${span}, ${m.extraSizes.join(", ")} (n > ${RUNNER.heldKarpMax}인 크기는 시드 ${seeds}, 세트 ${RUNNER.referenceSets}개까지)`;
}

function numberInput(control, value, attrs) {
  return element("input", { type: "number", step: 1, value: String(value), "data-control": control, ...attrs });
}

export function mount(root, runtime, store = urlStore) {
  const { state, warnings } = store.load(ID, SCHEMA);
  let plan = null; // the checked settings of the current state (Python's plan), or null while invalid
  let run = null; // the run being measured, paused or finished last
  let planRefused = false; // the message line shows Python's reason for refusing the settings

  const modelSelect = select(
    "model",
    Object.entries(MODELS).map(([name, m]) => [name, m.label]),
    state.model,
  );
  const sizesInput = element("input", { type: "text", "data-control": "sizes", inputmode: "numeric" });
  const setsInput = numberInput("sets", state.sets, { min: 1, max: RUNNER.maxSets });
  const decodingSelect = select("decoding", Object.entries(RUNNER.decodings), state.decoding);
  const seedInput = numberInput("seed", state.seed, { min: 0, max: MAX_SEED });
  const sizesHint = element("span", { class: "stat-hint" });
  const runButton = button("실행", "run", start);
  runButton.classList.add("is-primary");
  const pauseButton = button("일시 정지", "pause", pause);
  const cancelButton = button("취소", "cancel", cancel);
  const bar = element("progress", { max: 1, value: 0, class: "eval-progress", "aria-label": "실험 진행" });
  const progress = output("progress", "잰 세트 수");
  progress.clear("");
  const estimate = element("p", { class: "out-minor", "data-out": "estimate" });
  const message = messageLine(() => {
    message.clear();
    loop.retry();
  });
  const modelControl = labelled("모델", modelSelect);
  modelControl.classList.add("is-wide");
  const controls = element("div", { class: "demo-controls experiment-controls" }, [
    modelControl,
    element("label", { class: "demo-control" }, [element("span", { text: "크기 n (쉼표로)" }), sizesInput, sizesHint]),
    labelled("크기마다 세트 수", setsInput),
    labelled("디코딩", decodingSelect),
    labelled("시드", seedInput),
  ]);
  const toolbar = element("div", { class: "demo-toolbar" }, [runButton, pauseButton, cancelButton, bar, progress.node]);
  const table = resultsTable();
  const chart = comparisonChart();
  const collinearity = collinearityPanel();
  const gallery = failureGallery();
  root.replaceChildren(
    controls,
    toolbar,
    estimate,
    message.node,
    table.node,
    chart.node,
    collinearity.node,
    gallery.node,
  );
  root.dataset.state = "idle";

  const results = output("results", "실험 결과");
  const paper = output("paper", "논문의 값");
  results.node.hidden = true;
  paper.node.hidden = true;
  root.append(results.node, paper.node);

  const markDirty = redrawer(() => {
    const rows = run ? run.rows : [];
    chart.render(state.model, rows, run?.paper ?? plan?.paper ?? []);
    collinearity.render(run?.collinearity ?? null, run?.text.collinearity);
  });

  function showState() {
    modelSelect.value = state.model;
    sizesInput.value = state.sizes.join(",");
    setsInput.value = String(state.sets);
    decodingSelect.value = state.decoding;
    seedInput.value = String(state.seed);
    sizesHint.textContent = `쓸 수 있는 n: ${sizesText(state.model)}`;
    decodingSelect.querySelector('option[value="beam"]').disabled = !MODELS[state.model].beam;
  }

  function updateControls() {
    const active = run !== null && !run.finished;
    const measuring = active && !run.paused;
    for (const input of [modelSelect, sizesInput, setsInput, decodingSelect, seedInput]) input.disabled = measuring;
    runButton.disabled = measuring || (!plan && !(active && run.paused));
    runButton.textContent = active && run.paused ? "이어서 실행" : "실행";
    pauseButton.disabled = !measuring;
    cancelButton.disabled = !active;
  }

  // Every settings change: saved to the URL, checked and estimated by Python.
  async function replan() {
    store.save(ID, SCHEMA, state);
    if (run?.paused) discard("설정을 바꿔 일시 정지한 실험을 버렸습니다.");
    plan = null;
    if (root.dataset.state !== "error") root.dataset.state = "busy"; // until the plan (so the run button) is back
    updateControls();
    const asked = JSON.stringify(state);
    try {
      const reply = await runtime.call(ID, "plan", { ...state });
      if (JSON.stringify(state) !== asked) return; // settings changed meanwhile
      plan = reply;
      estimate.textContent = `모두 ${formatCount(plan.sets * plan.sizes.length)}세트 · 예상 시간 ${seconds(plan.estimate_seconds)}`;
      if (planRefused) message.clear();
      planRefused = false;
    } catch (err) {
      if (JSON.stringify(state) !== asked) return;
      estimate.textContent = "";
      message.show(err.message);
      planRefused = true;
    }
    if (!loop.running && root.dataset.state === "busy") root.dataset.state = "idle";
    updateControls();
    markDirty();
  }

  function setFromInput(name, value) {
    if (JSON.stringify(state[name]) === JSON.stringify(value)) return; // e.g. a second change event on blur
    state[name] = value;
    replan();
  }

  modelSelect.addEventListener("change", () => {
    const m = MODELS[modelSelect.value];
    Object.assign(state, { model: modelSelect.value, sizes: [...m.defaultSizes], sets: m.defaultSets });
    if (!m.beam) state.decoding = "greedy";
    showState();
    replan();
  });
  sizesInput.addEventListener("change", () => {
    const parsed = SCHEMA.sizes.parse(sizesInput.value);
    if (parsed.warnings.length) message.show(parsed.warnings.join(" ").replaceAll("링크의", "입력한"));
    setFromInput("sizes", parsed.value);
    sizesInput.value = state.sizes.join(",");
  });
  for (const [name, input] of [
    ["sets", setsInput],
    ["seed", seedInput],
  ]) {
    input.addEventListener("change", () => {
      const parsed = SCHEMA[name].parse(input.value);
      if (parsed.warnings.length) message.show(parsed.warnings.join(" ").replaceAll("링크의", "입력한"));
      input.value = String(parsed.value);
      setFromInput(name, parsed.value);
    });
  }
  decodingSelect.addEventListener("change", () => setFromInput("decoding", decodingSelect.value));

  const loop = requestLoop({
    root,
    runtime,
    // "mine" measures the reader's model: the trainer demo's instance on this page.
    call: (fn, params) => runtime.call(ID, fn, { ...params, mine: document.querySelector(TRAINER)?.dataset.instance }),
    onError(text) {
      message.show(`실험을 잴 수 없었습니다: ${text}`, { error: true });
      updateControls();
    },
    onChange: updateControls,
  });

  const job = (r) =>
    runJob(r, {
      live: () => run === r,
      onMeasured() {
        showProgress(r);
        gallery.render(r.failures, r.settings.model);
      },
      onSummed() {
        showResults(r);
        markDirty();
      },
      onFinished() {
        estimate.textContent = "";
        const took = (performance.now() - r.startedAt) / 1000;
        message.show(`다 쟀습니다: ${formatCount(r.done)}세트, ${seconds(took)} 걸렸습니다.`);
        showResults(r);
        updateControls();
      },
    });

  function showProgress(r) {
    bar.max = r.total;
    bar.value = r.done;
    progress.set({ done: r.done, total: r.total }, `${formatCount(r.done)} / ${formatCount(r.total)}세트`);
    if (!r.finished) estimate.textContent = `남은 시간 ${seconds(secondsLeft(r))}`;
  }

  function showResults(r) {
    const value = {
      model: r.settings.model,
      decoding: r.settings.decoding,
      seed: r.settings.seed,
      rows: r.rows,
      complete: Boolean(r.finished),
    };
    results.set(value, `${MODELS[r.settings.model].label}: ${r.rows.length}개 크기`);
    paper.set(r.paper, "논문의 값");
    table.render(r.settings.model, r.text.table, r.finished);
  }

  function start() {
    if (run && !run.finished && run.paused) {
      run.paused = false;
      message.clear();
      loop.run(job(run));
      return;
    }
    if (!plan) return;
    run = newRun(plan);
    message.clear();
    results.clear("");
    gallery.render([], plan.model);
    collinearity.clear();
    table.render(plan.model, plan.text.table, false);
    showProgress(run);
    loop.run(job(run));
    markDirty();
  }

  function pause() {
    if (!run || run.finished || run.paused) return;
    run.paused = true;
    loop.stop();
    message.show(
      `일시 정지했습니다 (${formatCount(run.done)}/${formatCount(run.total)}세트). ‘이어서 실행’으로 계속합니다.`,
    );
    updateControls();
  }

  function discard(text) {
    run = null;
    loop.stop();
    bar.value = 0;
    progress.clear("");
    results.clear("");
    table.clear();
    gallery.render([], state.model);
    collinearity.clear();
    message.show(text);
    markDirty();
  }

  function cancel() {
    if (!run || run.finished) return;
    discard(`실험을 취소했습니다. ${formatCount(run.done)}세트까지 잰 결과는 버렸습니다.`);
    updateControls();
  }

  showState();
  if (warnings.length) message.show(warnings.join(" "));
  replan();
  markDirty();
}
