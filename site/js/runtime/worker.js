// The Python worker: one Pyodide runtime, loaded once, serving every demo on the page.
// This file and protocol.js are the only Python↔JS boundary; `toPython` and `toJavaScript`
// below are the only places where values cross it.
import { loadPyodide } from "../../pyodide/pyodide.mjs";
import { CHANNEL, ERROR_KIND, READY, STAGES } from "./protocol.js";

const PYODIDE_URL = new URL("../../pyodide/", import.meta.url).href;

function postStatus(status) {
  self.postMessage({ channel: CHANNEL.status, ...status });
}

async function start() {
  postStatus(STAGES[0]);
  const pyodide = await loadPyodide({ indexURL: PYODIDE_URL, fullStdLib: false });
  postStatus(STAGES[1]);
  // Our wheel is in the site's pyodide-lock.json with numpy as its dependency.
  await pyodide.loadPackage("ptrnet", { messageCallback: () => {}, errorCallback: console.warn });
  postStatus(STAGES[2]);
  const api = pyodide.pyimport("ptrnet.api");
  postStatus(READY);
  return { pyodide, api };
}

const runtime = start().catch((err) => {
  postStatus({ stage: "error", progress: 0, message: `파이썬을 불러오지 못했습니다: ${err.message}` });
  throw err;
});

function toPython(pyodide, params) {
  return pyodide.toPy(params ?? {});
}

// Converts a Python result to plain JS data and lists the typed arrays to transfer.
function toJavaScript(pyResult) {
  const result = pyResult.toJs({ dict_converter: Object.fromEntries, create_pyproxies: false });
  const transfer = [];
  const collect = (value) => {
    if (ArrayBuffer.isView(value)) transfer.push(value.buffer);
    else if (Array.isArray(value)) value.forEach(collect);
    else if (value && typeof value === "object") Object.values(value).forEach(collect);
  };
  collect(result);
  return { result, transfer };
}

// PythonError.message is the whole traceback; the reader needs its last line only.
function describePythonError(err) {
  const text = String(err.message).trim().split("\n").pop().replace(/^[\w.]+:\s*/, "");
  if (err.type === "InputError") return { kind: ERROR_KIND.input, message: text };
  return { kind: ERROR_KIND.python, message: `파이썬 계산 중 예상하지 못한 오류(${err.type})가 났습니다: ${text}` };
}

async function handleCall({ id, demo, fn, params }) {
  let pyParams, pyResult;
  try {
    const { pyodide, api } = await runtime;
    pyParams = toPython(pyodide, params);
    pyResult = api.dispatch(demo, fn, pyParams);
    const { result, transfer } = toJavaScript(pyResult);
    self.postMessage({ channel: CHANNEL.rpc, id, ok: true, result }, transfer);
  } catch (err) {
    const error = err && err.type ? describePythonError(err) : { kind: ERROR_KIND.protocol, message: String(err && err.message || err) };
    self.postMessage({ channel: CHANNEL.rpc, id, ok: false, error });
  } finally {
    pyParams?.destroy?.();
    pyResult?.destroy?.();
  }
}

// Requests run one at a time, in arrival order: Python is single-threaded anyway, and a
// strict order lets the page reason about which reply is the newest.
let queue = Promise.resolve();
self.onmessage = (event) => {
  const message = event.data;
  if (message?.channel === CHANNEL.ping) return self.postMessage({ channel: CHANNEL.pong });
  if (!message || message.channel !== CHANNEL.rpc) return;
  queue = queue.then(() => handleCall(message));
};
