// The wheels, downloaded (each checked against its integrity) while Python starts, and inflated
// there too by a helper worker (wheel-worker.js) on a thread of its own: once Pyodide is up, only
// writing their files is left. Where no helper runs (no nested workers, no deflate-raw, its script
// failed to load), this worker downloads them and Python unpacks them.
import { fetchBytes } from "../fetching.js";
import { moduleWorker } from "../module-worker.js";
import { canInflate } from "./wheel-files.js";

const HELPER_URL = new URL("./wheel-worker.js", import.meta.url);

function startHelper() {
  try {
    return typeof Worker === "function" && canInflate() ? moduleWorker(HELPER_URL) : null;
  } catch {
    return null;
  }
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

// Each wheel of the lock (files in the folder at indexURL), each after those it depends on, with its
// sha256 as the fetch's integrity.
export function lockedWheels(lock, indexURL) {
  return installOrder(lock).map((name) => {
    const { file_name: file, sha256 } = lock.packages[name];
    const integrity = `sha256-${btoa(String.fromCharCode(...sha256.match(/../g).map((hex) => parseInt(hex, 16))))}`;
    return { file, url: indexURL + file, integrity };
  });
}

// wheels: [{file, url, integrity}] → a promise per wheel of {file, bytes, files}: files
// [{path, bytes}], or null where Python is to unpack the bytes.
export function fetchWheels(wheels) {
  const unanswered = new Map(); // file → {resolve, reject}, until the helper answers for it
  const promises = wheels.map((wheel) => {
    const promise = new Promise((resolve, reject) => unanswered.set(wheel.file, { resolve, reject }));
    promise.catch(() => {}); // awaited later, unless Python failed to start first
    return promise;
  });
  const fetchHere = () => {
    for (const { file, url, integrity } of wheels)
      unanswered.get(file)?.resolve(fetchBytes(url, { integrity }).then((bytes) => ({ file, bytes, files: null })));
    unanswered.clear();
  };
  const helper = startHelper();
  if (!helper) {
    fetchHere();
    return promises;
  }
  helper.onerror = (event) => {
    event.preventDefault();
    helper.terminate();
    fetchHere();
  };
  helper.onmessage = ({ data }) => {
    const { resolve, reject } = unanswered.get(data.file);
    unanswered.delete(data.file);
    if (data.error) reject(new Error(data.error));
    else resolve(data);
    if (!unanswered.size) helper.terminate();
  };
  helper.postMessage({ wheels });
  return promises;
}

// Puts the wheels' files into site-packages (Python unpacks those the browser could not inflate).
// Their extension modules are loaded by Python's own imports (dlopen), only those it imports, and
// at places a snapshot can record.
export async function installWheels(pyodide, wheels) {
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

// Writes a wheel's inflated files into site-packages, handing their buffers to the file system.
export function writeFiles(pyodide, files) {
  const root = pyodide._module.API.sitePackages;
  for (const { path, bytes } of files) {
    const target = `${root}/${path}`;
    pyodide.FS.mkdirTree(target.slice(0, target.lastIndexOf("/")));
    pyodide.FS.writeFile(target, bytes, { canOwn: true });
  }
}

// Python's finder for site-packages listed it before the wheels' files came: drop it, and the next
// import lists the folder afresh. (importlib.invalidate_caches() would too, but it imports
// importlib.metadata, which the site never uses, and rereads the stdlib zip: 50-90 ms of a start.)
export function relistSitePackages(pyodide) {
  const root = JSON.stringify(pyodide._module.API.sitePackages);
  pyodide.runPython(`import sys; sys.path_importer_cache.pop(${root}, None)`);
}
