// A memory snapshot of Python taken right after numpy and ptrnet were imported, kept in the
// browser's Cache Storage, so that a later visit starts from it instead of starting the
// interpreter and importing numpy again. Made on this browser, never downloaded.
//
// Pyodide 0.27.7 restores the wasm memory of a snapshot (the private `_makeSnapshot` and
// `_loadSnapshot` options), but not what lives outside it: the files of site-packages, and the
// numpy extension modules (each a wasm instance of its own, with its functions in the shared
// function table). So a snapshot here is three parts: the memory, the files, and a record of
// the extension modules and of the function table. Restoring writes the files, instantiates
// each extension module at the memory and table place it had (emscripten's dlopen handle,
// which lies in the restored memory, carries them), and puts the table slots and GOT entries
// back; then Pyodide copies the memory in. If anything does not match, it fails and the
// caller starts Python the normal way.
const FORMAT = 2; // bump when what is captured, or how, changes
const CACHE = "pyodide-snapshot"; // not "ptrnet-…": the service worker deletes its older caches by that prefix
const PAGE = 65536; // the memory is stored without its all-zero pages of this size (about a third of them)
const HANDLE_SIZE = 36; // emscripten's struct dso up to its name: flags, mem/table bases and sizes
const COUNT_ARGS = "count-args"; // the record's name for Pyodide's argument counter (see functionNames)

let bootTableLength = 0; // function table length when the runtime's preRun began (same on every start)
let restoreHook = null; // run once in preRun of the next start, with the emscripten Module

// Pyodide's module factory, wrapped so that our preRun step runs after Pyodide's own file
// system set-up (preRun steps run last-listed first) and before the runtime initialises. The
// wrap happens as pyodide.asm.js defines the factory, so that loadPyodide itself loads that
// script: it starts fetching the 10 MB wasm first, and the script downloads beside it.
export function wrapRuntimeFactory() {
  if (Object.hasOwn(globalThis, "_createPyodideModule")) return;
  let wrapped;
  Object.defineProperty(globalThis, "_createPyodideModule", {
    configurable: true,
    get: () => wrapped,
    set(create) {
      wrapped = (settings) => {
        settings.preRun.unshift((Module) => {
          bootTableLength = Module.wasmTable.length;
          const hook = restoreHook;
          restoreHook = null;
          hook?.(Module);
        });
        return create(settings);
      };
    },
  });
}

// The cache key: the lock (Pyodide's version and both wheels' hashes), what was imported before
// the snapshot, and this file's format.
export async function snapshotKey(lockText, preload) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${FORMAT}\n${preload}\n${lockText}`));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

function entryURL(key) {
  return new URL(`/__pyodide-snapshot/${key}`, self.location.origin).href;
}

// The stored snapshot for this key, or null; its body is read while Python's own files load.
export async function readSnapshot(key) {
  const cache = await caches.open(CACHE);
  const response = await cache.match(entryURL(key));
  if (!response) return null;
  return { contents: response.arrayBuffer().then((buffer) => decode(new Uint8Array(buffer))) };
}

export async function forgetSnapshots() {
  await caches.delete(CACHE);
}

// Layout: u32 length of the JSON head, the head ({record, memory: {length, runs}}), the files back
// to back, then the runs of Pyodide's snapshot that hold a nonzero byte, back to back.
function encode({ record, files, memory }) {
  const runs = nonzeroRuns(memory);
  const json = new TextEncoder().encode(JSON.stringify({ record, memory: { length: memory.length, runs } }));
  const head = new Uint32Array([json.length]);
  return new Blob([head, json, ...files, ...runs.map(([start, end]) => memory.subarray(start, end))]);
}

function decode(bytes) {
  const jsonLength = new DataView(bytes.buffer, bytes.byteOffset).getUint32(0, true);
  const { record, memory: layout } = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + jsonLength)));
  const filesStart = 4 + jsonLength;
  const files = bytes.subarray(filesStart, filesStart + record.filesLength);
  const memory = new Uint8Array(layout.length); // the pages left out are zero as allocated
  let at = filesStart + record.filesLength;
  for (const [start, end] of layout.runs) {
    memory.set(bytes.subarray(at, at + end - start), start);
    at += end - start;
  }
  if (at !== bytes.length) throw new Error("the snapshot's memory part has the wrong length");
  return { record, files, memory };
}

// The byte ranges [start, end) of the memory's pages that hold a nonzero byte, neighbours merged.
function nonzeroRuns(memory) {
  const bytes = memory.byteOffset % 4 ? memory.slice() : memory;
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length >>> 2);
  const zero = (start, end) => {
    for (let k = start >>> 2; k < end >>> 2; k++) if (words[k]) return false;
    for (let k = end & ~3; k < end; k++) if (bytes[k]) return false; // the last page's odd bytes
    return true;
  };
  const runs = [];
  for (let start = 0; start < bytes.length; start += PAGE) {
    const end = Math.min(start + PAGE, bytes.length);
    if (zero(start, end)) continue;
    if (runs.at(-1)?.[1] === start) runs.at(-1)[1] = end;
    else runs.push([start, end]);
  }
  return runs;
}

// Names every function-table slot outside the extension modules' own ranges (those are filled
// by their element segments): a slot is null, or an export of the main module or of a library.
function describeTable(Module, libs, from) {
  const names = functionNames(Module, libs);
  const own = (slot) => libs.some(({ tableBase, tableSize }) => slot >= tableBase && slot < tableBase + tableSize);
  const slots = [];
  for (let slot = from; slot < Module.wasmTable.length; slot++) {
    if (own(slot)) continue;
    const fn = Module.wasmTable.get(slot);
    slots.push([slot, fn === null ? null : (names.get(fn) ?? "?")]);
  }
  return { length: Module.wasmTable.length, slots };
}

// wasm functions by name: the main module's exports (emscripten puts them on Module), then each
// library's; and the one function Pyodide makes in its last preRun step (CPython's argument
// counter for calls through function pointers, where the browser can build it).
function functionNames(Module, libs) {
  const names = new Map();
  if (Module._PyEM_CountArgsPtr) names.set(Module.wasmTable.get(Module._PyEM_CountArgsPtr), COUNT_ARGS);
  const isWasm = (fn) => typeof fn === "function" && /^\d+$/.test(fn.name);
  for (const [name, fn] of Object.entries(Module)) if (isWasm(fn) && !names.has(fn)) names.set(fn, `main:${name}`);
  for (const { handle, name: lib } of libs)
    for (const [name, fn] of Object.entries(Module.LDSO.loadedLibsByHandle[handle].exports))
      if (isWasm(fn) && !names.has(fn)) names.set(fn, `${lib}:${name}`);
  return names;
}

function filesUnder(FS, root) {
  const found = [];
  const walk = (dir) => {
    for (const name of FS.readdir(dir)) {
      if (name === "." || name === "..") continue;
      const path = `${dir}/${name}`;
      const { mode } = FS.stat(path);
      if (FS.isDir(mode)) walk(path);
      else if (FS.isFile(mode)) found.push(path);
    }
  };
  walk(root);
  return found;
}

// The snapshot of a runtime started with `_makeSnapshot`, taken before it served any call.
// Throws where it cannot be restored faithfully (a library loaded without a dlopen handle, a
// table slot that names no export).
export function captureSnapshot(pyodide) {
  const Module = pyodide._module;
  const handles = Object.keys(Module.LDSO.loadedLibsByHandle).map(Number).filter(Boolean);
  const libs = handles
    .map((handle) => ({
      handle,
      name: Module.LDSO.loadedLibsByHandle[handle].name,
      tableBase: Module.HEAPU32[(handle + 20) >>> 2],
      tableSize: Module.HEAPU32[(handle + 24) >>> 2],
    }))
    .sort((a, b) => a.tableBase - b.tableBase);
  const byHandle = new Set(libs.map(({ name }) => name));
  for (const name of Object.keys(Module.LDSO.loadedLibsByName))
    if (name !== "__main__" && !byHandle.has(name)) throw new Error(`${name}: loaded without a dlopen handle`);
  const table = describeTable(Module, libs, bootTableLength);
  if (table.slots.some(([, name]) => name === "?")) throw new Error("a function table slot names no export");
  const got = Object.fromEntries(Object.entries(Module.GOT).map(([name, global]) => [name, global.value]));
  const paths = filesUnder(pyodide.FS, Module.API.sitePackages);
  const files = paths.map((path) => pyodide.FS.readFile(path));
  const index = []; // [path, start, end] in the files part
  let offset = 0;
  for (const [k, path] of paths.entries()) {
    index.push([path, offset, offset + files[k].length]);
    offset += files[k].length;
  }
  const memory = pyodide.makeMemorySnapshot();
  const record = { bootTableLength, libs, table, got, index, filesLength: offset }; // its format is in the key
  return { record, files, memory };
}

export async function storeSnapshot(key, snapshot) {
  await forgetSnapshots(); // one snapshot per browser: an older build's is of no use
  const cache = await caches.open(CACHE);
  await cache.put(entryURL(key), new Response(encode(snapshot)));
}

// Starts Python from a stored snapshot: `load` is loadPyodide with its options. Rejects on any
// mismatch (the caller then starts the normal way).
export async function restoreSnapshot(load, options, { contents }) {
  let fail;
  const failed = new Promise((_, reject) => (fail = reject));
  // Read and decoded, with the extension modules compiled, while Pyodide fetches and compiles its own wasm.
  const ready = contents.then(async (snapshot) => {
    const { record, files } = snapshot;
    const fileBytes = (path) => {
      const entry = record.index.find(([name]) => name === path);
      if (!entry) throw new Error(`${path} is not in the snapshot`);
      return files.subarray(entry[1], entry[2]);
    };
    const modules = await Promise.all(record.libs.map(({ name }) => WebAssembly.compile(fileBytes(name))));
    return { ...snapshot, modules };
  });
  ready.catch(fail);
  let snapshot = null; // set before Pyodide creates its module: it awaits the memory first
  restoreHook = (Module) => {
    try {
      if (!snapshot) throw new Error("the snapshot was not read in time");
      replayOutsideMemory(Module, snapshot);
    } catch (err) {
      fail(err); // an exception here would leave loadPyodide pending forever
    }
  };
  let pyodide;
  try {
    const memory = ready.then((read) => {
      snapshot = read;
      return read.memory;
    });
    pyodide = await Promise.race([load({ ...options, _loadSnapshot: memory }), failed]);
  } finally {
    restoreHook = null; // a start that failed before its preRun must not hand the hook to the next one
  }
  checkTable(pyodide._module, snapshot.record);
  // The snapshot froze the `random` module's state, were it imported: every visit would repeat it.
  pyodide.runPython("import sys\nif 'random' in sys.modules: sys.modules['random'].seed()");
  return pyodide;
}

function replayOutsideMemory(Module, { record, files, memory, modules }) {
  if (Module.wasmTable.length !== record.bootTableLength) throw new Error("the runtime's function table differs");
  // The files part copied once out of the body (which can then be freed); the file system keeps
  // views into that copy instead of copying each file again.
  const own = files.slice();
  const folders = new Set();
  for (const [path, start, end] of record.index) {
    const folder = path.slice(0, path.lastIndexOf("/"));
    if (!folders.has(folder)) Module.FS.mkdirTree(folder);
    folders.add(folder);
    Module.FS.writeFile(path, own.subarray(start, end), { canOwn: true });
  }
  // Pyodide's header, then the memory; the dlopen handles are read from there.
  const heap = memory.subarray(new Uint32Array(memory.buffer, memory.byteOffset, 2)[1]);
  record.libs.forEach(({ handle, name }, k) => {
    // Instantiating at the recorded places needs the handle's fields; the fresh memory is put
    // back afterwards, for the runtime initialises on it before Pyodide copies the snapshot in.
    const fresh = Module.HEAPU8.slice(handle, handle + HANDLE_SIZE);
    Module.HEAPU8.set(heap.subarray(handle, handle + HANDLE_SIZE), handle);
    const dso = Module.newDSO(name, handle, "loading");
    dso.refcount = Infinity;
    dso.global = false;
    dso.exports = Module.loadWebAssemblyModule(modules[k], { global: false, nodelete: true }, name, {}, handle);
    Module.HEAPU8.set(fresh, handle);
  });
  const grow = record.table.length - Module.wasmTable.length;
  if (grow > 0) Module.wasmTable.grow(grow);
  const byName = new Map([...functionNames(Module, record.libs)].map(([fn, name]) => [name, fn]));
  for (const [slot, name] of record.table.slots) {
    // The argument counter does not exist yet: its slot is left free, and the next function
    // added to the table (the counter, made right after this step) takes it.
    if (name === COUNT_ARGS) Module.freeTableIndexes.push(slot);
    Module.setWasmTableEntry(slot, name === null || name === COUNT_ARGS ? null : byName.get(name));
  }
  for (const [name, value] of Object.entries(record.got)) {
    Module.GOT[name] ??= new WebAssembly.Global({ value: "i32", mutable: true });
    Module.GOT[name].value = value;
  }
  checkTable(Module, record, (name) => name !== COUNT_ARGS);
}

function checkTable(Module, record, compared = () => true) {
  const now = describeTable(Module, record.libs, record.bootTableLength);
  const differs = ([slot, name], k) => compared(name) && (now.slots[k]?.[0] !== slot || now.slots[k]?.[1] !== name);
  if (
    now.length !== record.table.length ||
    now.slots.length !== record.table.slots.length ||
    record.table.slots.some(differs)
  )
    throw new Error("the function table could not be put back");
}
