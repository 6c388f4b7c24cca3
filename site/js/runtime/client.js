// The page side of the Python worker: one runtime per page, shared by every demo.
import { moduleWorker } from "./module-worker.js";
import { CHANNEL, ERROR_KIND, STAGES } from "./protocol.js";
import { whenQuiet } from "./quiet.js";

const WORKER_URL = new URL("./worker.js", import.meta.url);
const HEARTBEAT_MS = 250; // while requests are pending, ask the worker if it is alive this often
// A worker that is not inside a call answers a ping at once, even on a slow phone: silent this
// long while calls wait and none has started, it has died without an error event.
const SILENT_BETWEEN_CALLS_MS = 5_000;
// A worker inside a call cannot answer (Python runs on its thread), so a long call is never taken
// for a dead worker. Only one call that outlasts this budget counts as stuck (tests set it shorter).
const CALL_BUDGET_MS = globalThis.PTRNET_CALL_BUDGET_MS ?? 90_000;
// After this long inside one call the reader is told that Python is still computing.
const SLOW_CALL_MS = 3_000;
const MAX_AUTO_RESTARTS = 3; // within RESTART_WINDOW_MS; past that the reader decides
const RESTART_WINDOW_MS = 60_000;
// A start-up stage that takes longer than this counts as a dead worker (a test may set
// globalThis.PTRNET_START_STALL_MS shorter, read at each check, and lift it again).
const START_STALL_MS = 45_000;
// A drag sends its next request within a frame or two of the last reply: background work (a trainer's
// chunks, a runner's sets) waits until no interactive call has been pending for this long, so that a
// drag's requests never queue behind it in the worker.
const INTERACTION_GRACE_MS = 100;

class RuntimeError extends Error {
  constructor({ kind, message }) {
    super(message);
    this.kind = kind;
  }
}

class Runtime {
  constructor() {
    this.listeners = new Set();
    this.activityListeners = new Set();
    this.status = STAGES[0];
    this.restarts = [];
    this.starts = 0; // workers made so far: 1 unless one died or the reader retried
    this.pending = new Map();
    this.lastBusy = performance.now(); // when a call was last sent or answered
    this.interactions = 0; // interactive calls pending (see call)
    this.interactedAt = Number.NEGATIVE_INFINITY; // when the last one settled
    // Resolves the first time Python is ready, whichever start (or retry) got there.
    this.firstReady = new Promise((resolve) => (this.resolveFirstReady = resolve));
    this.heartbeat = setInterval(() => this.checkAlive(), HEARTBEAT_MS);
    this.start();
  }

  // (Re)creates the worker; `ready` resolves when Python can take requests.
  start() {
    this.nextId = 1;
    this.starts++;
    this.lastHeard = performance.now();
    this.lastStage = performance.now();
    this.running = null; // {id, since}: the call the worker said it entered, until it answers or pongs
    this.worker = moduleWorker(WORKER_URL);
    this.ready = new Promise((resolve, reject) => {
      this.resolveReady = resolve;
      this.rejectReady = reject;
    });
    this.ready.catch(() => {}); // failures are reported through status listeners
    this.worker.onmessage = (event) => this.receive(event.data);
    this.worker.onerror = (event) => {
      event.preventDefault?.();
      if (this.status.stage === "ready")
        this.recover(`파이썬 작업자가 멈췄습니다 (${event.message || "알 수 없는 오류"}).`);
      else
        this.setStatus({
          stage: "error",
          progress: 0,
          message: `파이썬 작업자를 시작하지 못했습니다: ${event.message || "알 수 없는 오류"}`,
        });
    };
    this.worker.onmessageerror = () => this.recover("파이썬 작업자의 답을 읽지 못했습니다.");
    this.setStatus(STAGES[0]);
  }

  // Settles every pending call with an error: no call is ever left waiting.
  failAll(kind, message) {
    const pending = [...this.pending.values()];
    this.pending = new Map();
    for (const { reject } of pending) reject(new RuntimeError({ kind, message }));
  }

  // A fresh worker (also the reader's retry after a failed start); whatever was pending fails
  // and the demos send their state again once it is ready.
  restart() {
    clearInterval(this.heartbeat);
    this.heartbeat = setInterval(() => this.checkAlive(), HEARTBEAT_MS);
    this.worker.terminate();
    this.failAll(ERROR_KIND.restarted, "파이썬 런타임을 다시 시작했습니다.");
    this.setRunning(null);
    this.start();
  }

  // The worker died while serving (terminated, out of memory): restart it by itself, unless
  // it keeps dying, in which case the reader gets the error and a retry button.
  recover(reason) {
    const now = performance.now();
    this.restarts = this.restarts.filter((t) => now - t < RESTART_WINDOW_MS);
    if (this.restarts.length >= MAX_AUTO_RESTARTS) {
      this.worker.terminate();
      this.setStatus({
        stage: "error",
        progress: 0,
        message: `${reason} 계속 멈추어 자동으로 다시 시작하지 않습니다. 위의 ‘다시 시도’를 눌러 주세요.`,
      });
      return;
    }
    this.restarts.push(now);
    this.notice = `${reason} 파이썬을 다시 시작했습니다. 중단된 계산만 다시 합니다.`;
    this.restart();
  }

  // A worker is dead only when it says so or stops showing signs of life: a start-up stage that does
  // not advance, silence between calls (a ping goes unanswered), or one call past its budget. A call
  // that merely takes long, on a slow device, is shown as still computing.
  checkAlive() {
    if (this.status.stage === "error") return;
    const now = performance.now();
    // While this thread was busy (a slow phone laying out a long page), the worker's answers to earlier
    // pings waited unread: silence counts only over time this thread was free to hear them.
    const blocked = now - (this.lastTick ?? now) - HEARTBEAT_MS;
    this.lastTick = now;
    if (blocked > HEARTBEAT_MS) this.lastHeard += blocked;
    if (this.status.stage !== "ready") {
      const stallMs = globalThis.PTRNET_START_STALL_MS ?? START_STALL_MS;
      if (now - this.lastStage > stallMs) this.recover("파이썬을 불러오는 단계가 멈췄습니다.");
      return;
    }
    if (this.pending.size === 0) {
      this.lastHeard = now;
      return;
    }
    if (this.running) {
      const ms = now - this.running.since;
      if (ms > CALL_BUDGET_MS)
        this.recover(`파이썬 계산 하나가 ${Math.round(CALL_BUDGET_MS / 1000)}초 안에 끝나지 않았습니다.`);
      else if (ms > SLOW_CALL_MS) this.emitActivity({ computing: true, seconds: Math.floor(ms / 1000) });
      return;
    }
    if (now - this.lastHeard > SILENT_BETWEEN_CALLS_MS) this.recover("파이썬 작업자가 응답하지 않습니다.");
    else this.worker.postMessage({ channel: CHANNEL.ping });
  }

  // The worker is inside call `id` since now, or (null) between calls.
  setRunning(id) {
    if (this.running && id === null) this.emitActivity({ computing: false, seconds: 0 });
    this.running = id === null ? null : { id, since: performance.now() };
  }

  emitActivity(activity) {
    for (const listener of this.activityListeners) listener(activity);
  }

  // Whether Python has been busy with one call for long: {computing, seconds}, for the banner.
  onActivity(listener) {
    this.activityListeners.add(listener);
    return () => this.activityListeners.delete(listener);
  }

  receive(message) {
    this.lastHeard = performance.now();
    if (message.channel === CHANNEL.started) return this.setRunning(message.id);
    if (message.channel === CHANNEL.pong) return this.setRunning(null);
    if (message.channel === CHANNEL.fatal) return this.recover(`파이썬 런타임이 멈췄습니다 (${message.message}).`);
    if (message.channel === CHANNEL.status) return this.setStatus(message);
    if (this.running?.id === message.id) this.setRunning(null);
    const entry = this.pending.get(message.id);
    if (!entry) return;
    this.pending.delete(message.id);
    this.lastBusy = performance.now();
    if (message.ok) entry.resolve(message.result);
    else entry.reject(new RuntimeError(message.error));
  }

  setStatus(status) {
    if (status.stage === "ready" && this.notice) {
      status = { ...status, notice: this.notice };
      this.notice = null;
    }
    this.status = status;
    this.lastStage = performance.now();
    if (status.stage === "ready") {
      this.resolveReady();
      this.resolveFirstReady();
    }
    if (status.stage === "error") {
      this.rejectReady(new RuntimeError({ kind: ERROR_KIND.protocol, message: status.message }));
      this.failAll(ERROR_KIND.unavailable, `파이썬을 쓸 수 없어 계산하지 못했습니다: ${status.message}`);
    }
    for (const listener of this.listeners) listener(status);
  }

  onStatus(listener) {
    this.listeners.add(listener);
    listener(this.status);
    return () => this.listeners.delete(listener);
  }

  // Resolves at the first pause in this page's calls (see quiet.js), or after atMostMs.
  quiet(atMostMs) {
    return whenQuiet({ pending: () => this.pending.size, lastBusy: () => this.lastBusy }, atMostMs);
  }

  // Resolves once the reader is not interacting: no interactive call pending, and none settled within
  // INTERACTION_GRACE_MS. Background work awaits it before each request it sends.
  async interactionPause() {
    for (;;) {
      const since = performance.now() - this.interactedAt;
      const waitMs = this.interactions > 0 ? INTERACTION_GRACE_MS : INTERACTION_GRACE_MS - since;
      if (waitMs <= 0) return;
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  }

  // Calls ptrnet.api.dispatch(demo, fn, params) in the worker. The promise always settles:
  // with the result, or with a RuntimeError whose message is Korean. An interactive call (a drag's,
  // see callers.latestCaller) holds background work back while it is pending and INTERACTION_GRACE_MS after.
  call(demo, fn, params, { interactive = false } = {}) {
    if (!interactive) return this.send(demo, fn, params);
    this.interactions++;
    return this.send(demo, fn, params).finally(() => {
      this.interactions--;
      this.interactedAt = performance.now();
    });
  }

  send(demo, fn, params) {
    if (this.status.stage === "error") {
      return Promise.reject(
        new RuntimeError({
          kind: ERROR_KIND.unavailable,
          message: `파이썬을 쓸 수 없어 계산하지 못했습니다: ${this.status.message}`,
        }),
      );
    }
    const id = this.nextId++;
    this.lastBusy = performance.now();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ channel: CHANNEL.rpc, id, demo, fn, params });
    });
  }
}

// The page's one runtime, shared by all demos on it (and by every <ptr-demo> of an embed).
let shared = null;
export function getRuntime() {
  if (!shared) shared = new Runtime();
  return shared;
}

// On our own pages, <html data-python="loading|ready|error"> follows the runtime, data-python-start
// says how the ready runtime began (the fast start's "snapshot" or "fresh", or "plain": see worker.js),
// and data-python-starts how many workers the page has made.
export function reflectOnDocument(runtime) {
  runtime.onStatus(({ stage, start }) => {
    const html = document.documentElement;
    html.dataset.python = stage === "ready" || stage === "error" ? stage : "loading";
    html.dataset.pythonStarts = String(runtime.starts);
    if (start) html.dataset.pythonStart = start;
  });
}

export { RuntimeError };
