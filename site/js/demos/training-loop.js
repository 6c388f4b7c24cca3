// The request loop of a demo that trains a model in the worker (demo 5, the NPLM prelude): explicit
// operations first (reset, set_mask, one step…), then training chunks sized to ~30 ms, then the
// demo's own follow-up work (demo 5's heat map); one request of the demo in flight at a time, so
// pause and reset are honoured within one chunk. It keeps a snapshot of the model (at most
// `snapshotEveryMs` old while training) so that a restarted worker continues from it, and leaves a
// failed operation first in line for the retry button. Controls may change at any moment.
import { ERROR_KIND } from "../runtime/protocol.js";
import { adaptiveChunks } from "./common.js";

// root: the demo element (data-state follows the loop); runtime: its restarts are watched, so
// even an idle demo puts its model back into a new worker; call(fn, params): one request;
// chunk: adaptiveChunks' sizes; onTrained(reply): a training chunk's reply; followUp: optional
// { due(), run() } work after operations and chunks; afterRestart(snapshot): the operation that
// puts the model back into a new worker (restore, or reset when nothing was saved yet);
// onError(message); onChange(): the loop's state changed (update the buttons).
export function trainingLoop({
  root,
  runtime,
  call,
  chunk,
  snapshotEveryMs,
  onTrained,
  followUp = null,
  afterRestart,
  onError,
  onChange,
}) {
  const chunks = adaptiveChunks(chunk);
  const queue = [];
  let training = false;
  let pumping = false;
  let failed = null; // "train", "follow-up" or the failed operation (still first in the queue)
  let snapshot = null;
  let snapshotAt = 0;
  let changed = false;

  // The model must go back into a new worker before anything else is asked of it (once).
  function restoreFirst() {
    if (!queue.some((op) => op.restores)) queue.unshift({ ...afterRestart(snapshot), restores: true });
  }

  function updateState() {
    if (root.dataset.state === "error" && !pumping) return;
    root.dataset.state = pumping || training ? "busy" : "idle";
  }

  async function takeSnapshot() {
    changed = false;
    snapshotAt = performance.now();
    snapshot = await call("snapshot", {});
  }

  async function pump() {
    if (pumping) return;
    pumping = true;
    updateState();
    try {
      for (;;) {
        if (!root.isConnected) {
          training = false; // the demo left the page (an embed taken down): stop asking
          break;
        }
        if (queue.length) {
          failed = queue[0];
          queue[0].apply(await call(queue[0].fn, queue[0].params()));
          queue.shift();
          changed = true;
        } else if (training) {
          failed = "train";
          onTrained(await chunks.train((iterations) => call("train", { iterations })));
          changed = true;
          if (followUp?.due()) await followUp.run();
        } else if (followUp?.due()) {
          failed = "follow-up";
          await followUp.run();
        } else if (changed) {
          await takeSnapshot();
        } else {
          break;
        }
        if (training && changed && performance.now() - snapshotAt >= snapshotEveryMs) await takeSnapshot();
      }
      failed = null;
    } catch (err) {
      if (err.kind === ERROR_KIND.restarted) {
        const wasTraining = training || failed === "train";
        restoreFirst();
        training = wasTraining;
      } else {
        training = false; // a failed operation stays first in the queue for the retry button
        root.dataset.state = "error";
        onError(err.message);
      }
    } finally {
      pumping = false;
      updateState();
      onChange();
    }
    if ((queue.length || training) && root.dataset.state !== "error") pump();
  }

  function clearError() {
    if (root.dataset.state === "error") root.dataset.state = "busy";
  }

  // A "ready" after the first one is a new worker, which knows nothing of this demo's model.
  let readyBefore = false;
  runtime.onStatus(({ stage }) => {
    if (stage !== "ready") return;
    if (readyBefore && root.isConnected) {
      restoreFirst();
      pump();
    }
    readyBefore = true;
  });

  return {
    get training() {
      return training;
    },
    // Queue an explicit operation {fn, params(), apply(reply)}; `stop` ends training first.
    enqueue(op, { stop = false } = {}) {
      if (stop) training = false;
      clearError();
      queue.push(op);
      onChange();
      pump();
    },
    start() {
      if (training) return;
      clearError();
      training = true;
      onChange();
      pump();
    },
    pause() {
      if (!training) return;
      training = false; // the chunk in flight finishes; no further chunk is sent
      onChange();
      pump(); // the follow-up (if due) catches up with the final weights
    },
    // The follow-up became due (e.g. a slider moved): run it when the loop is free.
    poke() {
      pump();
    },
    retry() {
      clearError();
      if (failed === "train") training = true;
      onChange();
      pump();
    },
    resetChunks() {
      chunks.reset();
    },
  };
}

// A history of (x, y) points for a curve that may grow for hours: past `max` points it keeps
// every second one, so memory stays flat and the curve keeps its shape.
export function boundedSeries(max) {
  const xs = [];
  const ys = [];
  let stride = 1; // points are kept at x multiples of this many pushes
  let pushes = 0;
  return {
    xs,
    ys,
    push(x, y) {
      pushes += 1;
      if ((pushes - 1) % stride !== 0) return;
      xs.push(x);
      ys.push(y);
      if (xs.length > max) {
        stride *= 2;
        const keep = xs.map((_, k) => k % 2 === 0);
        const kx = xs.filter((_, k) => keep[k]);
        const ky = ys.filter((_, k) => keep[k]);
        xs.length = 0;
        ys.length = 0;
        xs.push(...kx);
        ys.push(...ky);
      }
    },
    // Drop the points after x (a restarted worker continues from an earlier snapshot).
    trimAfter(x) {
      const keep = xs.findIndex((v) => v > x);
      if (keep >= 0) {
        xs.length = keep;
        ys.length = keep;
      }
    },
    clear() {
      xs.length = 0;
      ys.length = 0;
      stride = 1;
      pushes = 0;
    },
    get last() {
      return xs.length ? xs[xs.length - 1] : null;
    },
  };
}
