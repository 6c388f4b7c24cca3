// The Python worker: one Pyodide runtime, loaded once, serving every demo on the page.
// This file and protocol.js are the only Python↔JS boundary; `toPython` and `toJavaScript`
// below are the only places where values cross it.
import { loadPyodide } from "../../pyodide/pyodide.mjs";
import { CHANNEL, ERROR_KIND, READY, STAGES } from "./protocol.js";

const PYODIDE_URL = new URL("../../pyodide/", import.meta.url).href;
const MODELS_URL = new URL("../../models/", import.meta.url).href;
// Our stdlib zip holds only the modules the site imports, precompiled (see build.py); the
// official one is fetched the first time Python imports anything else.
const FULL_STDLIB = { url: `${PYODIDE_URL}python_stdlib_full.zip`, path: "/lib/python_stdlib_full.zip" };
// Modules our zip lacks are looked up in the full one, also submodules of packages that came
// from our zip (those search only their own __path__), so the finder goes last on meta_path.
const ADD_FULL_STDLIB = `
import sys, zipimport

class FullStdlibFinder:
    @staticmethod
    def find_spec(name, path=None, target=None):
        folder = "/".join(name.split(".")[:-1])
        try:
            return zipimport.zipimporter(f"${FULL_STDLIB.path}/{folder}" if folder else "${FULL_STDLIB.path}").find_spec(name)
        except zipimport.ZipImportError:
            return None

sys.meta_path.append(FullStdlibFinder)
`;

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
function lastLine(err) {
  return String(err.message).trim().split("\n").pop().replace(/^[\w.]+:\s*/, "");
}

function describePythonError(err) {
  const text = lastLine(err);
  if (err.type === "InputError") return { kind: ERROR_KIND.input, message: text };
  return { kind: ERROR_KIND.python, message: `파이썬 계산 중 예상하지 못한 오류(${err.type})가 났습니다: ${text}` };
}

async function fetchBytes(url) {
  const file = url.split("/").pop();
  const response = await fetch(url).catch(() => {
    throw new Error(`${file} 파일을 내려받지 못했습니다. 네트워크 연결을 확인한 뒤 다시 시도해 주세요.`);
  });
  if (!response.ok) throw new Error(`${file} 파일을 내려받지 못했습니다 (HTTP ${response.status}).`);
  return new Uint8Array(await response.arrayBuffer());
}

// Fetches what a failed call lacked, if it is something we ship on demand; false otherwise.
async function fetchMissing(pyodide, err) {
  if (err?.type === "MissingData") {
    // The trained models' weights: Python names the file it wants at the path it reads.
    const path = lastLine(err);
    pyodide.FS.writeFile(path, await fetchBytes(MODELS_URL + path.split("/").pop()));
    return true;
  }
  if (err?.type === "ModuleNotFoundError" && !pyodide.FS.analyzePath(FULL_STDLIB.path).exists) {
    console.info(`${lastLine(err)}: 표준 라이브러리 전체를 내려받습니다.`);
    pyodide.FS.writeFile(FULL_STDLIB.path, await fetchBytes(FULL_STDLIB.url));
    pyodide.runPython(ADD_FULL_STDLIB);
    return true;
  }
  return false;
}

async function dispatchFetchingWhatIsMissing(pyodide, api, demo, fn, pyParams) {
  for (let attempt = 0; ; attempt++) {
    try {
      return api.dispatch(demo, fn, pyParams);
    } catch (err) {
      if (attempt >= 3 || !(await fetchMissing(pyodide, err))) throw err;
    }
  }
}

async function handleCall({ id, demo, fn, params }) {
  let pyParams, pyResult;
  try {
    const { pyodide, api } = await runtime;
    pyParams = toPython(pyodide, params);
    pyResult = await dispatchFetchingWhatIsMissing(pyodide, api, demo, fn, pyParams);
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
