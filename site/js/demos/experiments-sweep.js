// The main article's figures that rerun the paper's experiments [hull-sweep, tsp-sweep]: the
// experiment runner's own requests (plan, measure, summarize), run bookkeeping (experiments-run.js)
// and drawings (experiments-panels.js), with the fixed settings Python gives each figure
// (ptrnet.experiments.sweeps). A figure starts when it comes near the screen, and only once the
// calls already sent have been answered (the worker serves calls in order), so the demos above
// answer first; it then measures a chunk (about 120 ms) at a time, so a reader's request waits
// behind one chunk at most.
import { PY } from "../generated/constants.js";
import { redrawer } from "../ui/frame.js";
import { whenNearScreen } from "../ui/near-screen.js";
import { requestLoop } from "../ui/request-loop.js";
import { element, formatCount, messageLine, output } from "./common.js";
import { collinearityPanel, comparisonChart, resultsTable } from "./experiments-panels.js";
import { newRun, runJob } from "./experiments-run.js";

const FIRST_ANSWERS_AT_MOST_MS = 15_000; // a figure waits this long at most for the page's first answers

// chart: comparisonChart's options; collinearity: whether the figure adds the hull's error rate by
// near-collinearity (measured on the same sets).
export function mountSweep(root, runtime, id, { chart: chartOptions = {}, collinearity = false } = {}) {
  const settings = PY.sweeps[id];
  let run = null;
  let started = false;

  const chart = comparisonChart({ ...chartOptions, empty: "화면에 들어오면 잰 값이 크기별로 여기에 그려집니다" });
  const bars = collinearity ? collinearityPanel() : null;
  const table = resultsTable();
  const bar = element("progress", { max: 1, value: 0, class: "eval-progress", "aria-label": "측정 진행" });
  const progress = output("progress", "잰 세트 수");
  const results = output("results", "측정 결과");
  const paper = output("paper", "논문의 값");
  results.node.hidden = true;
  paper.node.hidden = true;
  const sets = `크기마다 세트 ${formatCount(settings.sets)}개, 시드 ${settings.seed}`;
  progress.clear(`n = ${settings.sizes.join(", ")} · ${sets}`);
  const message = messageLine(() => {
    message.clear();
    loop.retry();
  });
  const details = element("details", { class: "sweep-table" }, [
    element("summary", { text: "잰 값을 표로 보기" }),
    table.node,
  ]);
  root.replaceChildren(
    element("div", { class: "demo-toolbar" }, [bar, progress.node]),
    message.node,
    chart.node,
    ...(bars ? [bars.node] : []),
    details,
    results.node,
    paper.node,
  );
  root.dataset.state = "idle";

  const markDirty = redrawer(() => {
    chart.render(settings.model, run?.rows ?? [], run?.paper ?? []);
    if (bars && run?.collinearity) bars.render(run.collinearity, run.text.collinearity);
  });

  const loop = requestLoop({
    root,
    runtime,
    call: (fn, params) => runtime.call(id, fn, params),
    onError(text) {
      message.show(`실험을 잴 수 없었습니다: ${text}`, { error: true });
    },
  });

  function showResults(r) {
    const value = { ...settings, rows: r.rows, complete: r.finished };
    results.set(value, `${r.rows.length}개 크기`);
    paper.set(r.paper, "논문의 값");
    table.render(settings.model, r.text.table, r.finished);
    markDirty();
  }

  const callbacks = (r) => ({
    live: () => true,
    onMeasured() {
      bar.max = r.total;
      bar.value = r.done;
      progress.set({ done: r.done, total: r.total }, `${formatCount(r.done)} / ${formatCount(r.total)}세트 · ${sets}`);
    },
    onSummed: () => showResults(r),
    onFinished: () => showResults(r),
  });

  // The plan (Python checks the settings and gives each size's cost), then the runner's job.
  function sweepJob() {
    let measuring = null;
    const planOp = {
      fn: "plan",
      params: () => ({ ...settings }),
      apply(plan) {
        run = newRun(plan);
        measuring = runJob(run, callbacks(run));
      },
    };
    return {
      next: () => (measuring ? measuring.next() : planOp),
      done: () => measuring?.done(),
    };
  }

  async function start() {
    if (started) return;
    started = true;
    root.dataset.state = "busy";
    await runtime.quiet(FIRST_ANSWERS_AT_MOST_MS);
    loop.run(sweepJob());
  }

  whenNearScreen(root, start);
  markDirty();
}
