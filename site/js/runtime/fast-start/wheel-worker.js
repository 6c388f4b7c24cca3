// A helper of the Python worker: downloads the wheels (checked against the lock's sha256) and
// inflates them on a thread of its own while Python starts, so that the Python worker only writes
// their files once Pyodide is up.
//   Python worker → helper  {wheels: [{file, url, integrity}]}
//   helper → Python worker  {file, bytes, files: [{path, bytes}] | null (let Python unpack it)}
//                           or {file, error} (the Korean message of a failed download)
import { fetchBytes } from "../fetching.js";
import { wheelFiles } from "./wheel-files.js";

async function inflate({ file, url, integrity }) {
  let bytes;
  try {
    bytes = await fetchBytes(url, { integrity });
  } catch (err) {
    return self.postMessage({ file, error: err.message });
  }
  const files = await wheelFiles(bytes).catch((err) => {
    console.warn(`${file}: 브라우저에서 풀지 못해 파이썬이 풉니다:`, err);
    return null;
  });
  const buffers = new Set([bytes.buffer, ...(files ?? []).map((entry) => entry.bytes.buffer)]);
  self.postMessage({ file, bytes, files }, [...buffers]);
}

self.onmessage = ({ data }) => {
  for (const wheel of data.wheels) inflate(wheel);
};
