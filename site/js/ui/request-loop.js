// The request loop of a stateful demo (demo 5, demo 6, the LM and NPLM preludes): one request of
// the demo in flight at a time, in this order:
//   1. explicit operations (reset, set_mask, one step…), oldest first;
//   2. the running job's next request (training chunks, generation steps, evaluation chunks);
//   3. the demo's follow-up work (demo 5's heat map), when due;
//   4. a snapshot of the model, when it changed (demos whose model lives in the worker).
// The job's requests, the follow-up and snapshots are background work: each waits while the reader drags
// anywhere on the page (runtime.interactionPause), so that a drag's requests never queue behind them.
// Stop, reset and setting changes are therefore honoured within one request. A restarted worker
// gets the last snapshot back first (or the failed request is simply asked again), and a failed
// request stays first in line for the retry button. data-state on the demo element follows the loop:
// "idle" only once all of it is done, the snapshot of the last change included.
import { ERROR_KIND } from "../runtime/protocol.js";

const MAX_RESTARTS = 3; // in a row: a request that keeps killing the worker is an error

// An operation: { fn, params() (read when it is sent), apply(reply) }, or { send(call), apply(reply) }
// for a request that sends itself (a training chunk timing itself), with an optional `key`: a queued
// operation with the same key is replaced (a slider's newest value wins).
//
// A job: { next() → the next operation, or null when the job is done; done()?; delayMs? between
// operations }. Jobs run until done or stopped; a stopped job's reply in flight is still applied.
//
// root: the demo element; runtime: its restarts are watched; call(fn, params): one request;
// snapshots: optional { everyMs, afterRestart(snapshot) → the operation that puts the model back
// into a new worker }; followUp: optional { due(), run() }; resend: whether a request cut off by a
// worker restart is simply sent again (not where it reads another demo's model, which may not be
// back yet); onError(message); onChange(): the loop's state changed (update the buttons).
export function requestLoop({
  root,
  runtime,
  call,
  snapshots = null,
  followUp = null,
  resend = true,
  onError,
  onChange = () => {},
}) {
  const queue = [];
  let job = null;
  let jobOp = null; // the job's operation being sent (kept on failure, for the retry)
  let suspended = null; // a job stopped by an error, resumed by retry()
  let pumping = false;
  let sending = null; // the queued operation in flight: a newer one with its key waits behind it
  let restarts = 0;
  let snapshot = null;
  let snapshotAt = 0;
  let changed = false;

  function restoreFirst() {
    if (snapshots && !queue.some((op) => op.restores))
      queue.unshift({ ...snapshots.afterRestart(snapshot), restores: true });
  }

  function updateState() {
    if (root.dataset.state === "error" && !pumping) return;
    root.dataset.state = pumping || job ? "busy" : "idle";
  }

  const send = (op) => (op.send ? op.send(call) : call(op.fn, op.params()));

  async function takeSnapshot() {
    await runtime.interactionPause();
    changed = false;
    snapshotAt = performance.now();
    snapshot = await call("snapshot", {});
  }

  async function runFollowUp() {
    await runtime.interactionPause();
    await followUp.run();
  }

  // One unit of work; false when there is nothing left to do.
  async function work() {
    if (queue.length) {
      const op = queue[0]; // stays first in line until answered: a failure leaves it for the retry
      sending = op;
      const reply = await send(op).finally(() => {
        sending = null;
      });
      queue.splice(queue.indexOf(op), 1);
      op.apply(reply);
    } else if (job) {
      const running = job;
      jobOp ??= running.next();
      if (!jobOp) {
        job = null;
        running.done?.();
        return true;
      }
      if (running.delayMs) await new Promise((resolve) => setTimeout(resolve, running.delayMs));
      await runtime.interactionPause(); // a drag elsewhere on the page goes first
      if (job !== running) return true; // stopped during the pause: the operation is not sent
      const op = jobOp;
      const reply = await send(op);
      jobOp = null;
      op.apply(reply);
      if (followUp?.due()) await runFollowUp();
    } else if (followUp?.due()) {
      await runFollowUp();
      return true;
    } else if (snapshots && changed) {
      await takeSnapshot();
      return true;
    } else {
      return false;
    }
    changed = true;
    restarts = 0;
    if (snapshots && job && performance.now() - snapshotAt >= snapshots.everyMs) await takeSnapshot();
    return true;
  }

  async function pump() {
    if (pumping) return;
    pumping = true;
    updateState();
    try {
      while (root.isConnected && (await work()));
      if (!root.isConnected) job = null; // the demo left the page (an embed taken down): stop asking
    } catch (err) {
      if (err.kind === ERROR_KIND.restarted && resend && restarts < MAX_RESTARTS) {
        restarts += 1;
        restoreFirst(); // the failed operation stays in line and is sent again
      } else {
        suspended = job;
        job = null;
        root.dataset.state = "error";
        onError(err.message);
      }
    } finally {
      pumping = false;
      updateState();
      onChange();
    }
    if ((queue.length || job) && root.dataset.state !== "error") pump();
  }

  function clearError() {
    if (root.dataset.state === "error") root.dataset.state = "busy";
    suspended = null;
  }

  // A "ready" after the first one is a new worker, which knows nothing of this demo's model.
  let readyBefore = false;
  runtime.onStatus(({ stage }) => {
    if (stage !== "ready") return;
    if (readyBefore && root.isConnected && snapshots) {
      restoreFirst();
      pump();
    }
    readyBefore = true;
  });

  return {
    get running() {
      return job !== null;
    },
    // Queue an explicit operation; `stop` ends the running job first.
    enqueue(op, { stop = false } = {}) {
      if (stop) this.stop();
      clearError();
      const same = op.key === undefined ? -1 : queue.findIndex((queued) => queued.key === op.key && queued !== sending);
      if (same >= 0) queue[same] = op;
      else queue.push(op);
      onChange();
      pump();
    },
    // Start a job (a running one is replaced).
    run(newJob) {
      clearError();
      job = newJob;
      jobOp = null;
      onChange();
      pump();
    },
    // Stop the running job: its request in flight finishes, no further one is sent.
    stop() {
      suspended = null;
      if (!job) return;
      job = null;
      jobOp = null;
      onChange();
      pump(); // the follow-up (if due) catches up
    },
    // The follow-up became due (e.g. a slider moved): run it when the loop is free.
    poke() {
      pump();
    },
    retry() {
      const resumed = suspended;
      clearError();
      job = resumed;
      onChange();
      pump();
    },
  };
}

// A training job: endless chunks of "train" requests, each sized so that one takes about
// `targetMs` (small enough that pause and reset are honoured quickly, large enough that messaging
// costs little). apply(reply) gets each chunk's reply; reset() goes back to the first size.
export function trainingJob({ min, max, first, targetMs }, apply) {
  let size = first;
  const chunk = {
    async send(call) {
      const iterations = size;
      const started = performance.now();
      const reply = await call("train", { iterations });
      const fitted = (iterations * targetMs) / Math.max(1, performance.now() - started);
      size = Math.round(Math.min(max, Math.max(min, 0.5 * size + 0.5 * fitted)));
      return reply;
    },
    apply,
  };
  return {
    next: () => chunk,
    reset() {
      size = first;
    },
  };
}
