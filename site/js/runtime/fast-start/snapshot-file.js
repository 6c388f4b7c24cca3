// Where the Python snapshot (snapshot.js) is kept: one file in this origin's private file system
// (OPFS), named by its key. The worker reads it with a synchronous access handle, straight into the
// buffers it ends up in (tens of MB in a few ms; a Cache Storage body would stream in small chunks,
// each a task of the worker's).
//
// Layout: u32 length of the JSON head, the head ({record, memory: {length, runs}}), the files back
// to back, then the runs of Pyodide's snapshot that hold a nonzero byte, back to back.
const FORMAT = 2; // bump when what is captured, or how, changes
const FOLDER = "pyodide-snapshot"; // in the origin's private file system, one file named by its key
const PAGE = 65536; // the memory is stored without its all-zero pages of this size (about a third of them)
const WRITE_STEP = 1 << 21; // bytes of a snapshot written in one go (a few ms of the worker's time)

// Whether this browser can keep snapshots: the origin's private file system, with the
// synchronous access handles of a worker.
export function canKeepSnapshots() {
  return Boolean(globalThis.navigator?.storage?.getDirectory && globalThis.FileSystemSyncAccessHandle);
}

// The snapshot's key: the lock (Pyodide's version and both wheels' hashes), what was imported
// before the snapshot, and this file's format.
export async function snapshotKey(lockText, preload) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${FORMAT}\n${preload}\n${lockText}`));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

async function snapshotFolder(create) {
  return (await navigator.storage.getDirectory()).getDirectoryHandle(FOLDER, { create });
}

// The stored snapshot's file for this key, or null. A file whose length is not what its head says
// (empty, cut short) is never tried, for it would cost a restore that fails, and is removed (unless
// another tab is writing it: its access handle keeps the file).
export async function findSnapshot(key) {
  let folder;
  let handle;
  try {
    folder = await snapshotFolder(false);
    handle = await folder.getFileHandle(key);
  } catch (err) {
    if (err.name === "NotFoundError") return null;
    throw err;
  }
  if (await lengthFromHead(await handle.getFile())) return handle;
  await folder.removeEntry(key).catch(() => {});
  return null;
}

// Whether a stored file is as long as its head says (read from the file's head alone).
async function lengthFromHead(file) {
  if (file.size < 4) return false;
  const jsonLength = new DataView(await file.slice(0, 4).arrayBuffer()).getUint32(0, true);
  if (!jsonLength || 4 + jsonLength > file.size) return false;
  const { record, memory } = JSON.parse(await file.slice(4, 4 + jsonLength).text());
  const runs = memory.runs.reduce((sum, [start, end]) => sum + end - start, 0);
  return 4 + jsonLength + record.filesLength + runs === file.size;
}

// The snapshot in `file`: {record, files, memory}, the memory at its full length with the pages
// left out as allocated (zero).
export async function readSnapshot(file) {
  // Several tabs may read at once (a read-only handle); a browser without that mode locks the file.
  const access = await file.createSyncAccessHandle({ mode: "read-only" });
  try {
    return readFrom(access);
  } finally {
    access.close();
  }
}

function readFrom(access) {
  const size = access.getSize();
  let at = 0;
  const read = (bytes) => {
    if (access.read(bytes, { at }) !== bytes.length) throw new Error("the snapshot is shorter than its head says");
    at += bytes.length;
    return bytes;
  };
  const jsonLength = new DataView(read(new Uint8Array(4)).buffer).getUint32(0, true);
  if (!jsonLength) throw new Error("the snapshot was not written to its end"); // see storeSnapshot
  const { record, memory: layout } = JSON.parse(new TextDecoder().decode(read(new Uint8Array(jsonLength))));
  const files = read(new Uint8Array(record.filesLength));
  const memory = new Uint8Array(layout.length);
  for (const [start, end] of layout.runs) read(memory.subarray(start, end));
  if (at !== size) throw new Error("the snapshot is longer than its head says");
  return { record, files, memory };
}

export async function forgetSnapshots() {
  await (await navigator.storage.getDirectory()).removeEntry(FOLDER, { recursive: true }).catch((err) => {
    if (err.name !== "NotFoundError") throw err;
  });
}

// The pieces to write, in the layout above.
function pieces({ record, files, memory }) {
  const runs = nonzeroRuns(memory);
  const json = new TextEncoder().encode(JSON.stringify({ record, memory: { length: memory.length, runs } }));
  const head = new Uint8Array(4);
  new DataView(head.buffer).setUint32(0, json.length, true);
  return [head, json, ...files, ...runs.map(([start, end]) => memory.subarray(start, end))];
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

// Opens this key's file for writing, in place of any other (an older build's is of no use). A browser
// whose file system has no synchronous access handles (WebKit's rejects them) is found out here,
// before the worker spends time capturing a snapshot, and what was made for it is removed again.
export async function openForWriting(key) {
  const folder = await snapshotFolder(true);
  const names = [];
  for await (const name of folder.keys()) names.push(name);
  for (const name of names) if (name !== key) await folder.removeEntry(name);
  try {
    return await (await folder.getFileHandle(key, { create: true })).createSyncAccessHandle();
  } catch (err) {
    await forgetSnapshots().catch(() => {});
    throw err;
  }
}

// Writes the snapshot through an access handle from openForWriting, and closes it. Its head's length
// is written last: a write cut short leaves a zero there, which no read accepts. The writes are
// synchronous, so every WRITE_STEP bytes the worker pauses for the calls that came meanwhile.
export async function storeSnapshot(access, snapshot) {
  try {
    const [head, ...rest] = pieces(snapshot);
    access.truncate(0);
    let at = head.length;
    let sincePause = 0;
    for (const bytes of rest)
      for (let start = 0; start < bytes.length; start += WRITE_STEP) {
        const written = access.write(bytes.subarray(start, start + WRITE_STEP), { at });
        at += written;
        sincePause += written;
        if (sincePause >= WRITE_STEP) {
          sincePause = 0;
          await new Promise((resolve) => setTimeout(resolve));
        }
      }
    access.flush();
    access.write(head, { at: 0 });
    access.flush();
  } finally {
    access.close();
  }
}
