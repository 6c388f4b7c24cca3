// The Python worker: one Pyodide runtime, loaded once, serving every demo on the page.
// This file and protocol.js are the only Python↔JS boundary; `toPython` and `toJavaScript`
// below are the only places where values cross it, and Python's errors arrive as objects.
import { loadPyodide } from "../../pyodide/pyodide.mjs";
import { fetchBytes, fetchResponse } from "./fetching.js";
import { CHANNEL, ERROR_KIND, READY, STAGES } from "./protocol.js";
import { whenQuiet } from "./quiet.js";
import { captureSnapshot, restoreSnapshot, wrapRuntimeFactory } from "./snapshot.js";
import {
  canKeepSnapshots,
  findSnapshot,
  forgetSnapshots,
  openForWriting,
  snapshotKey,
  storeSnapshot,
} from "./snapshot-file.js";
import { fetchWheels, relistSitePackages, writeFiles } from "./wheels.js";

const PYODIDE_URL = new URL("../../pyodide/", import.meta.url).href;
const MODELS_URL = new URL("../../models/", import.meta.url).href;
const LOCK_URL = `${PYODIDE_URL}pyodide-lock.json`;
const PRELOAD = "import numpy, numpy.random, ptrnet.api"; // what every start imports before serving (and a snapshot holds)
const STORE_AT_MOST_MS = 10_000; // the snapshot is written away at the first pause in the calls, or after this
// Snapshots live in this origin's private file system: only on our own site, not in a page that embeds us.
const SNAPSHOTS = canKeepSnapshots() && new URL(import.meta.url).origin === self.location.origin;
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

// The lock's packages, each after those it depends on.
function installOrder(lock) {
  const order = [];
  const visit = (name) => {
    if (order.includes(name)) return;
    for (const dependency of lock.packages[name].depends) visit(dependency);
    order.push(name);
  };
  for (const name of Object.keys(lock.packages)) visit(name);
  return order;
}

// Each wheel of the lock, each after those it depends on, with its sha256 as the fetch's integrity.
function lockedWheels(lock) {
  return installOrder(lock).map((name) => {
    const { file_name: file, sha256 } = lock.packages[name];
    const integrity = `sha256-${btoa(String.fromCharCode(...sha256.match(/../g).map((hex) => parseInt(hex, 16))))}`;
    return { file, url: PYODIDE_URL + file, integrity };
  });
}

// Puts the wheels' files into site-packages (Python unpacks those the browser could not inflate).
// Their extension modules are loaded by Python's own imports (dlopen), only those it imports, and
// at places a snapshot can record.
async function installWheels(pyodide, wheels) {
  for (const wheel of wheels) {
    const { file, bytes, files } = await wheel;
    if (files) writeFiles(pyodide, files);
    else {
      const unpack = pyodide.pyimport("pyodide._package_loader").unpack_buffer;
      try {
        unpack.callKwargs(bytes, { filename: file, extract_dir: pyodide._module.API.sitePackages });
      } finally {
        unpack.destroy();
      }
    }
  }
  relistSitePackages(pyodide);
}

// The calls from the page: writing the snapshot away (tens of MB) waits for a pause in them, so
// that the first answers the page asked for come first.
let open = 0; // calls received and not yet answered
let answeredAt = 0; // when the last one was
const calls = { pending: () => open, lastBusy: () => answeredAt };

async function storeLater(access, snapshot) {
  await whenQuiet(calls, STORE_AT_MOST_MS);
  await storeSnapshot(access, snapshot).catch((err) => console.info("파이썬 스냅숏을 저장하지 못했습니다:", err));
}

// From this browser's snapshot if there is a good one (see snapshot.js), otherwise the normal
// start, which leaves a snapshot for the next visit.
async function startPython(options, lockText) {
  const key = SNAPSHOTS ? await snapshotKey(lockText, PRELOAD) : null;
  if (key) {
    try {
      const file = await findSnapshot(key);
      if (file) return { pyodide: await restoreSnapshot(loadPyodide, options, file), start: "snapshot" };
    } catch (err) {
      console.warn("저장된 파이썬 스냅숏을 쓰지 못해 처음부터 시작합니다:", err);
      await forgetSnapshots().catch(() => {});
    }
  }
  const wheels = fetchWheels(lockedWheels(JSON.parse(lockText)));
  // Whether this browser can keep the snapshot is known while Python loads, so one that cannot
  // (no synchronous access handles) does not capture it at all.
  const writable = key
    ? openForWriting(key).catch((err) => console.info("이 브라우저에는 파이썬 스냅숏을 남길 수 없습니다:", err))
    : null;
  const pyodide = await loadPyodide({ ...options, _makeSnapshot: Boolean(key) });
  postStatus(STAGES[1]);
  await installWheels(pyodide, wheels);
  postStatus(STAGES[2]);
  pyodide.runPython(PRELOAD);
  const access = await writable;
  if (access) {
    try {
      storeLater(access, captureSnapshot(pyodide));
    } catch (err) {
      access.close();
      await forgetSnapshots().catch(() => {});
      console.info("이 시작은 스냅숏으로 남길 수 없습니다:", err);
    }
  }
  return { pyodide, start: "fresh" };
}

async function start() {
  postStatus(STAGES[0]);
  wrapRuntimeFactory();
  const lockText = await fetchResponse(LOCK_URL).then((response) => response.text());
  const { pyodide, start } = await startPython({ indexURL: PYODIDE_URL, fullStdLib: false }, lockText);
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
