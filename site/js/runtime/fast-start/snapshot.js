// A memory snapshot of Python taken right after numpy and ptrnet were imported, kept in this
// origin's private file system (snapshot-file.js), so that a later visit starts from it instead of
// starting the interpreter and importing numpy again. Made on this browser, never downloaded.
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
import { readSnapshot } from "./snapshot-file.js";

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

// The files under `root`, each [path, its bytes], read off the nodes of the in-memory file system
// (a stat and a readFile for each path took several times longer). The bytes are views of the
// file system's own buffers, not copies, for the capture holds up the first calls: nothing writes
// into site-packages' files in place (a file written anew gets a buffer of its own).
function filesUnder(Module, root) {
  const { FS, MEMFS } = Module;
  const found = [];
  const walk = (folder, path) => {
    if (folder.mount.type !== MEMFS) throw new Error(`${path} is not in the in-memory file system`);
    for (const [name, node] of Object.entries(folder.contents)) {
      if (FS.isDir(node.mode)) walk(node, `${path}/${name}`);
      else if (FS.isFile(node.mode)) found.push([`${path}/${name}`, MEMFS.getFileDataAsTypedArray(node)]);
    }
  };
  walk(FS.lookupPath(root).node, root);
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
  const got = {}; // some 10,000 entries: a plain loop takes a third of the time entries and fromEntries did
  for (const name of Object.keys(Module.GOT)) got[name] = Module.GOT[name].value;
  const found = filesUnder(Module, Module.API.sitePackages);
  const files = found.map(([, bytes]) => bytes);
  const index = []; // [path, start, end] in the files part
  let offset = 0;
  for (const [path, bytes] of found) {
    index.push([path, offset, offset + bytes.length]);
    offset += bytes.length;
  }
  const memory = pyodide.makeMemorySnapshot();
  const record = { bootTableLength, libs, table, got, index, filesLength: offset }; // its format is in the key
  return { record, files, memory };
}

// Starts Python from the snapshot in `file` (findSnapshot's): `load` is loadPyodide with its
// options. Pyodide fetches its script and wasm while the snapshot is read, and makes its runtime
// while the extension modules compile; its first preRun step then waits for those (a run
// dependency) and puts back what lives outside the memory. Rejects on any mismatch (the caller
// then starts the normal way).
export async function restoreSnapshot(load, options, file) {
  let fail;
  const failed = new Promise((_, reject) => (fail = reject));
  const snapshot = readSnapshot(file);
  const modules = snapshot.then(({ record, files }) =>
    Promise.all(record.libs.map(({ name }) => WebAssembly.compile(fileBytes(record, files, name)))),
  );
  modules.catch(fail); // a snapshot that cannot be read fails the start here too
  // Pyodide awaits the memory only once its script is in: until then a failed read has this handler.
  const memory = snapshot.then(({ memory }) => memory);
  memory.catch(() => {});
  restoreHook = (Module) => {
    const waiting = "snapshot: outside the memory";
    Module.addRunDependency(waiting);
    const bootTable = Module.wasmTable.length; // Pyodide's next preRun step adds its argument counter
    Promise.all([snapshot, modules])
      .then(([{ record, files, memory }, compiled]) => {
        if (bootTable !== record.bootTableLength) throw new Error("the runtime's function table differs");
        replayOutsideMemory(Module, { record, files, memory, modules: compiled });
        Module.removeRunDependency(waiting);
      })
      .catch(fail); // the runtime then never finishes starting; the caller starts another
  };
  let pyodide;
  try {
    pyodide = await Promise.race([load({ ...options, _loadSnapshot: memory }), failed]);
  } finally {
    restoreHook = null; // a start that failed before its preRun must not hand the hook to the next one
  }
  checkTable(pyodide._module, (await snapshot).record);
  // The snapshot froze the `random` module's state, were it imported: every visit would repeat it.
  pyodide.runPython("import sys\nif 'random' in sys.modules: sys.modules['random'].seed()");
  return pyodide;
}

function fileBytes(record, files, path) {
  const entry = record.index.find(([name]) => name === path);
  if (!entry) throw new Error(`${path} is not in the snapshot`);
  return files.subarray(entry[1], entry[2]);
}

function replayOutsideMemory(Module, { record, files, memory, modules }) {
  // The file system keeps views into the files part, which was read into a buffer of its own.
  const folders = new Set();
  for (const [path, start, end] of record.index) {
    const folder = path.slice(0, path.lastIndexOf("/"));
    if (!folders.has(folder)) Module.FS.mkdirTree(folder);
    folders.add(folder);
    Module.FS.writeFile(path, files.subarray(start, end), { canOwn: true });
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
  // The argument counter was made right after the preRun step began, at the slot it had then too.
  for (const [slot, name] of record.table.slots)
    if (name !== COUNT_ARGS) Module.setWasmTableEntry(slot, name === null ? null : byName.get(name));
  for (const [name, value] of Object.entries(record.got)) {
    Module.GOT[name] ??= new WebAssembly.Global({ value: "i32", mutable: true });
    Module.GOT[name].value = value;
  }
  checkTable(Module, record);
}

function checkTable(Module, record) {
  const now = describeTable(Module, record.libs, record.bootTableLength);
  const differs = ([slot, name], k) => now.slots[k]?.[0] !== slot || now.slots[k]?.[1] !== name;
  if (
    now.length !== record.table.length ||
    now.slots.length !== record.table.slots.length ||
    record.table.slots.some(differs)
  )
    throw new Error("the function table could not be put back");
}
