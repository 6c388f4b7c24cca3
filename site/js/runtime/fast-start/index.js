// The fast start, the one door to it: Python from this browser's memory snapshot (snapshot.js, kept by
// snapshot-file.js), or else a fresh start whose wheels a helper worker downloads and inflates while
// Pyodide starts (wheels.js), and which leaves a snapshot for the next visit. Both lean on private
// internals of one Pyodide version (struct offsets, the loader's LDSO and GOT, the order of preRun
// steps): on any other version startFast declines, and the worker takes Pyodide's plain start.
import { PY } from "../../generated/constants.js";
import { whenQuiet } from "../quiet.js";
import { captureSnapshot, restoreSnapshot, wrapRuntimeFactory } from "./snapshot.js";
import {
  canKeepSnapshots,
  findSnapshot,
  forgetSnapshots,
  openForWriting,
  snapshotKey,
  storeSnapshot,
} from "./snapshot-file.js";
import { fetchWheels, installWheels, lockedWheels } from "./wheels.js";

const STORE_AT_MOST_MS = 10_000; // the snapshot is written away at the first pause in the calls, or after this
// Snapshots live in this origin's private file system: only on our own site, not in a page that embeds us.
const SNAPSHOTS = canKeepSnapshots() && new URL(import.meta.url).origin === self.location.origin;

// Writing the snapshot away (tens of MB) waits for a pause in the page's calls, so that the first
// answers the page asked for come first.
async function storeLater(access, snapshot, calls) {
  await whenQuiet(calls, STORE_AT_MOST_MS);
  await storeSnapshot(access, snapshot).catch((err) => console.info("파이썬 스냅숏을 저장하지 못했습니다:", err));
}

// A start that installs the wheels the helper worker inflated, and leaves a snapshot where it can.
async function startFresh({ loadPyodide, options, lock, preload, key, stages, calls }) {
  const wheels = fetchWheels(lockedWheels(lock, options.indexURL));
  // Whether this browser can keep the snapshot is known while Python loads, so one that cannot
  // (no synchronous access handles) does not capture it at all.
  const writable = key
    ? openForWriting(key).catch((err) => console.info("이 브라우저에는 파이썬 스냅숏을 남길 수 없습니다:", err))
    : null;
  const pyodide = await loadPyodide({ ...options, _makeSnapshot: Boolean(key) });
  stages.loaded();
  await installWheels(pyodide, wheels);
  stages.installed();
  pyodide.runPython(preload);
  const access = await writable;
  if (access) {
    try {
      storeLater(access, captureSnapshot(pyodide), calls);
    } catch (err) {
      access.close();
      await forgetSnapshots().catch(() => {});
      console.info("이 시작은 스냅숏으로 남길 수 없습니다:", err);
    }
  }
  return pyodide;
}

// Starts Python the fast way: {pyodide, start: "snapshot" | "fresh"}, or null where the loaded Pyodide
// (pyodide.mjs's `version`) is not the one this code was written for. From this browser's snapshot
// if there is a good one, otherwise fresh. Rejects as the plain start would (a failed download).
//   pyodide: {loadPyodide, version} of pyodide.mjs; options: loadPyodide's; lockText: the site's lock
//   preload: the code every start runs before serving (a snapshot holds what it imported)
//   stages: {loaded(), installed()}, called as a fresh start passes them
//   calls: {pending(), lastBusy()} of the page's calls (see quiet.js)
export async function startFast({ pyodide: { loadPyodide, version }, options, lockText, preload, stages, calls }) {
  if (version !== PY.fastStart.pyodide) {
    console.info(`Pyodide ${version}: 빠른 시작은 ${PY.fastStart.pyodide}용이라 보통 시작을 합니다.`);
    return null;
  }
  wrapRuntimeFactory();
  const key = SNAPSHOTS ? await snapshotKey(lockText, preload) : null;
  if (key) {
    try {
      const file = await findSnapshot(key);
      if (file) return { pyodide: await restoreSnapshot(loadPyodide, options, file), start: "snapshot" };
    } catch (err) {
      console.warn("저장된 파이썬 스냅숏을 쓰지 못해 처음부터 시작합니다:", err);
      await forgetSnapshots().catch(() => {});
    }
  }
  const lock = JSON.parse(lockText);
  const pyodide = await startFresh({ loadPyodide, options, lock, preload, key, stages, calls });
  return { pyodide, start: "fresh" };
}
