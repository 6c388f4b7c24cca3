// The Python worker: one Pyodide runtime, loaded once, serving every demo on the page.
// This file and protocol.js are the only Python↔JS boundary; `toPython` and `toJavaScript`
// below are the only places where values cross it, and Python's errors arrive as objects.
import { loadPyodide, version } from "../../pyodide/pyodide.mjs";
import { fetchBytes, fetchResponse } from "./fetching.js";
import { CHANNEL, ERROR_KIND, READY, STAGES } from "./protocol.js";

const PYODIDE_URL = new URL("../../pyodide/", import.meta.url).href;
const MODELS_URL = new URL("../../models/", import.meta.url).href;
const LOCK_URL = `${PYODIDE_URL}pyodide-lock.json`;
const PRELOAD = "import numpy, numpy.random, ptrnet.api"; // what every start imports before serving (and a snapshot holds)
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
// The fast start (snapshot, wheels unpacked by a helper worker), loaded beside the lock.
const fastStart = import("./fast-start/index.js").catch((err) => {
  console.warn("빠른 시작을 불러오지 못해 보통 시작을 합니다:", err);
  return null;
});

function postStatus(status) {
  self.postMessage({ channel: CHANNEL.status, ...status });
}

// The calls from the page; the fast start writes its snapshot away at the first pause in them.
let open = 0; // calls received and not yet answered
let answeredAt = 0; // when the last one was
const calls = { pending: () => open, lastBusy: () => answeredAt };

// Pyodide's own start, for a Pyodide the fast start was not written for: Pyodide installs the lock's
// packages (and loads all their extension modules) itself.
async function plainStart(options, lock, stages) {
  const pyodide = await loadPyodide(options);
  stages.loaded();
  const names = Object.keys(lock.packages);
  const loaded = await pyodide.loadPackage(names, { messageCallback: () => {}, errorCallback: console.warn });
  const failed = names.find((name) => !loaded.some((item) => item.name === name));
  if (failed) throw new Error(`${lock.packages[failed].file_name} 파일을 내려받지 못했습니다.`);
  stages.installed();
  pyodide.runPython(PRELOAD);
  return pyodide;
}

// The start-up stages both starts report, as the page's banner shows them.
const stages = { loaded: () => postStatus(STAGES[1]), installed: () => postStatus(STAGES[2]) };

// The fast start where it fits this Pyodide, otherwise the plain one.
async function start() {
  postStatus(STAGES[0]);
  const lockText = await fetchResponse(LOCK_URL).then((response) => response.text());
  const options = { indexURL: PYODIDE_URL, fullStdLib: false };
  const fast = await (await fastStart)?.startFast({
    pyodide: { loadPyodide, version },
    options,
    lockText,
    preload: PRELOAD,
    stages,
    calls,
  });
  const { pyodide, start } = fast ?? {
    pyodide: await plainStart(options, JSON.parse(lockText), stages),
    start: "plain",
  };
  const api = pyodide.pyimport("ptrnet.api"); // kept for the page's lifetime
  postStatus({ ...READY, start });
  return { pyodide, api };
}

const runtime = start().catch((err) => {
  postStatus({ stage: "error", progress: 0, message: `파이썬을 불러오지 못했습니다: ${err.message}` });
  throw err;
});

function toPython(pyodide, params) {
  return pyodide.toPy(params ?? {});
}

// A Python value as plain JS data (None becomes null, not undefined), the proxy destroyed, and
// the typed arrays inside listed for transfer.
function toJavaScript(pyValue) {
  const value = pyValue.toJs({ dict_converter: Object.fromEntries, create_pyproxies: false });
  pyValue.destroy();
  const transfer = [];
  const plain = (item) => {
    if (item === undefined) return null;
    if (ArrayBuffer.isView(item)) {
      transfer.push(item.buffer);
      return item;
    }
    if (Array.isArray(item)) return item.map(plain);
    if (item && typeof item === "object")
      return Object.fromEntries(Object.entries(item).map(([k, v]) => [k, plain(v)]));
    return item;
  };
  return { value: plain(value), transfer };
}

// Fetches every weight file a call reported missing, all at once (Python names each at the path it
// reads); the ones that fail go to `unavailable`, so that Python answers without them.
async function fetchWeights(pyodide, paths, unavailable) {
  const fetched = await Promise.allSettled(paths.map((path) => fetchBytes(MODELS_URL + path.split("/").pop())));
  fetched.forEach((outcome, k) => {
    if (outcome.status === "fulfilled") pyodide.FS.writeFile(paths[k], outcome.value);
    else {
      console.warn(outcome.reason.message);
      unavailable.push(paths[k]);
    }
  });
}

// Fetches a stdlib module that a call reported missing, if it is in the full stdlib we ship on demand;
// false otherwise.
async function fetchModule(pyodide, error) {
  if (error.kind === "module" && !pyodide.FS.analyzePath(FULL_STDLIB.path).exists) {
    console.info(`${error.missing}: 표준 라이브러리 전체를 내려받습니다.`);
    pyodide.FS.writeFile(FULL_STDLIB.path, await fetchBytes(FULL_STDLIB.url));
    pyodide.runPython(ADD_FULL_STDLIB);
    return true;
  }
  return false;
}

// ptrnet.api.call answers {ok, result} or {ok: false, error: {kind, message, missing?}}; what is
// missing is fetched and the call made again. A handler declares its weights, so a first visit
// fetches them all in parallel and runs the handler once; a file asked for twice is not fetched again.
async function handleCall({ id, demo, fn, params }) {
  let pyParams;
  try {
    const { pyodide, api } = await runtime;
    const unavailable = []; // files this call needed that could not be fetched (offline): Python answers without them
    const asked = new Set();
    for (;;) {
      // From here until the reply (or the next wait for a download) this thread cannot answer a ping.
      self.postMessage({ channel: CHANNEL.started, id });
      pyParams ??= toPython(pyodide, params);
      const { value: reply, transfer } = toJavaScript(api.call(demo, fn, pyParams, unavailable));
      if (reply.ok) return self.postMessage({ channel: CHANNEL.rpc, id, ok: true, result: reply.result }, transfer);
      let fetched = false;
      if (reply.error.kind === "missing") {
        const fresh = reply.error.missing.filter((path) => !asked.has(path));
        for (const path of fresh) asked.add(path);
        if (fresh.length) await fetchWeights(pyodide, fresh, unavailable);
        fetched = fresh.length > 0;
      } else fetched = await fetchModule(pyodide, reply.error);
      if (!fetched) {
        const kind = reply.error.kind === "input" ? ERROR_KIND.input : ERROR_KIND.python;
        return self.postMessage({ channel: CHANNEL.rpc, id, ok: false, error: { kind, message: reply.error.message } });
      }
    }
  } catch (err) {
    if (err?.pyodide_fatal_error) self.postMessage({ channel: CHANNEL.fatal, message: String(err.message || err) });
    self.postMessage({
      channel: CHANNEL.rpc,
      id,
      ok: false,
      error: { kind: ERROR_KIND.protocol, message: String(err?.message || err) },
    });
  } finally {
    pyParams?.destroy?.();
  }
}

// Requests run one at a time, in arrival order: Python is single-threaded anyway, and a
// strict order lets the page reason about which reply is the newest.
let queue = Promise.resolve();
self.onmessage = (event) => {
  const message = event.data;
  if (message?.channel === CHANNEL.ping) return self.postMessage({ channel: CHANNEL.pong });
  if (!message || message.channel !== CHANNEL.rpc) return;
  open++;
  queue = queue
    .then(() => handleCall(message))
    .finally(() => {
      open--;
      answeredAt = performance.now();
    });
};
