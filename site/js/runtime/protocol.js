// The one message protocol between a page and its Python worker.
//
// Page → worker
//   {channel: "rpc", id, demo, fn, params}      call ptrnet.api.dispatch(demo, fn, params)
// Worker → page
//   {channel: "rpc", id, ok: true, result}       the handler's return value (plain JSON-like data;
//                                                typed arrays inside are transferred, not copied)
//   {channel: "rpc", id, ok: false, error: {kind, message}}
//                                                kind: "input" (the request was bad, message is
//                                                Korean and meant for the reader), "python" (an
//                                                unexpected exception), "protocol" (the worker
//                                                itself failed, e.g. a download). Python builds
//                                                these as objects (ptrnet.api.call); no text is
//                                                parsed. The page adds "restarted" and
//                                                "unavailable" (see ERROR_KIND).
//   {channel: "status", stage, progress, message}
//                                                start-up: one message per named stage, then
//                                                stage "ready" (with start: "snapshot",
//                                                "fresh" or "plain") or stage "error"
//   {channel: "started", id}                     the worker is entering Python for call id: it
//                                                cannot answer anything until that call's reply
//   {channel: "fatal", message}                  Pyodide failed fatally: this worker is of no use
// Liveness (client.js): the page pings only while requests are pending and no call has started; a
// worker between calls answers at once, a dead one never does and is restarted by the page. A
// call that has started is given a generous budget instead, since Python holds the worker's thread.
//   page → worker {channel: "ping"}, worker → page {channel: "pong"}
//
// Start-up stages, in order. `progress` is the fraction of the whole start-up done when the
// stage begins, so the page can draw one honest progress bar.
export const STAGES = [
  { stage: "runtime", progress: 0.05, message: "파이썬 런타임(Pyodide)을 내려받는 중…" },
  { stage: "packages", progress: 0.6, message: "numpy와 ptrnet 패키지를 불러오는 중…" },
  { stage: "import", progress: 0.9, message: "파이썬 모듈을 준비하는 중…" },
];

export const READY = { stage: "ready", progress: 1, message: "파이썬 준비 완료" };

export const CHANNEL = {
  rpc: "rpc",
  status: "status",
  started: "started",
  fatal: "fatal",
  ping: "ping",
  pong: "pong",
};

// "restarted": the worker was replaced while the request was pending; send it again.
// "unavailable": Python could not start, or kept dying; the reader's retry starts it again.
export const ERROR_KIND = {
  input: "input",
  python: "python",
  protocol: "protocol",
  restarted: "restarted",
  unavailable: "unavailable",
};
