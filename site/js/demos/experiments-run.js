// One run of the experiment runner as plain data, and the request-loop job that measures it: the
// next chunk holds as many sets as fit in TARGET_MS at the speed measured so far, and the rows are
// summed up by Python after each size (and at most every SUMMARY_EVERY_MS in between). Nothing
// here scores or adds: a chunk's reply carries its own sums (counts and totals), which are kept,
// unread, beside the size's total so far until the next summary sends both back; Python merges
// them (metrics.merge_sums), returns the new totals and makes the rows from them. So no request
// carries more than the sizes' totals and the chunks since the last summary, however long the run.
import { PY } from "../generated/constants.js";

const TARGET_MS = 120; // one measure request: progress at least twice a second, cancel within 200 ms
const MAX_COUNT = PY.experiments.maxChunkSets; // sets per request (Python's own cap)
const SUMMARY_EVERY_MS = 400;

// Work units of the whole run (Python's cost per set, summed over the sizes, times the sets).
const totalCost = (plan) => plan.sets * plan.sizes.reduce((sum, n) => sum + plan.cost[String(n)], 0);

export function newRun(plan) {
  const settings = { model: plan.model, sizes: plan.sizes, sets: plan.sets, decoding: plan.decoding, seed: plan.seed };
  return {
    settings,
    plan,
    size: 0, // index of the size being measured
    start: 0, // its next set
    done: 0,
    total: plan.sets * plan.sizes.length,
    sums: {}, // n → [Python's merged total so far, then the sums of the chunks since], unread here
    failures: [],
    rows: [],
    paper: plan.paper,
    collinearity: null,
    text: plan.text, // Python's words for the table and the chart
    msPerUnit: (plan.estimate_seconds * 1000) / totalCost(plan),
    summaryDue: false,
    summaryAt: performance.now(),
    startedAt: performance.now(),
    paused: false,
    finished: false,
  };
}

// Seconds left at the speed measured so far.
export const secondsLeft = (r) => (r.msPerUnit * totalCost(r.plan) * (1 - r.done / r.total)) / 1000;

// The job of a run; live() says whether the run is still the demo's (not cancelled);
// onMeasured(), onSummed() and onFinished() update the page.
export function runJob(r, { live, onMeasured, onSummed, onFinished }) {
  function measureOp() {
    const n = r.plan.sizes[r.size];
    const cost = r.plan.cost[String(n)];
    const count = Math.max(1, Math.min(MAX_COUNT, r.plan.sets - r.start, Math.round(TARGET_MS / (cost * r.msPerUnit))));
    const params = { ...r.settings, n, start: r.start, count };
    return {
      async send(call) {
        const started = performance.now();
        const reply = await call("measure", params);
        const ms = performance.now() - started;
        if (reply.count > 1 || ms > TARGET_MS) r.msPerUnit = 0.5 * r.msPerUnit + (0.5 * ms) / (reply.count * cost);
        return reply;
      },
      apply(reply) {
        if (!live()) return;
        r.sums[n] = [...(r.sums[n] ?? []), reply.sums];
        for (const failure of reply.failures)
          if (r.failures.length < PY.experiments.maxFailures) r.failures.push(failure);
        r.done += reply.count;
        r.start += reply.count;
        if (r.start >= r.plan.sets) {
          r.size += 1;
          r.start = 0;
          r.summaryDue = true;
        } else if (performance.now() - r.summaryAt > SUMMARY_EVERY_MS) r.summaryDue = true;
        onMeasured();
      },
    };
  }

  function summarizeOp() {
    r.summaryDue = false;
    r.summaryAt = performance.now();
    let sent = {}; // n → how many of its parts the request carried (later chunks stay for the next one)
    return {
      fn: "summarize",
      params() {
        sent = Object.fromEntries(Object.entries(r.sums).map(([n, parts]) => [n, parts.length]));
        return {
          model: r.settings.model,
          sums: Object.fromEntries(Object.entries(r.sums).map(([n, p]) => [n, [...p]])),
        };
      },
      apply(reply) {
        if (!live()) return;
        for (const [n, total] of Object.entries(reply.sums)) r.sums[n] = [total, ...r.sums[n].slice(sent[n])];
        r.rows = reply.rows;
        r.paper = reply.paper;
        r.collinearity = reply.collinearity ?? null;
        r.text = reply.text;
        onSummed();
      },
    };
  }

  return {
    next: () => (r.summaryDue ? summarizeOp() : r.size < r.plan.sizes.length && !r.paused ? measureOp() : null),
    done() {
      if (!live() || r.paused) return;
      r.finished = true;
      onFinished();
    },
  };
}
