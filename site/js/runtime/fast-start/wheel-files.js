// The files of a wheel (a zip archive), inflated by the browser's own DecompressionStream: natively,
// where Python's zipfile would inflate them in wasm. Our wheels use no zip64 and no encryption;
// anything else is refused, and the caller lets Python unpack that wheel.
const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const STORED = 0;
const DEFLATED = 8;
const MAX_COMMENT = 0xffff;

// Whether this browser can inflate raw deflate streams.
export function canInflate() {
  try {
    new DecompressionStream("deflate-raw");
    return true;
  } catch {
    return false;
  }
}

// [{ path, bytes }] for every file of the archive, paths relative to its root.
export async function wheelFiles(archive) {
  const view = new DataView(archive.buffer, archive.byteOffset, archive.byteLength);
  let end = archive.length - 22; // the end record: 22 bytes, then its comment
  const earliest = Math.max(0, end - MAX_COMMENT);
  while (end >= earliest && view.getUint32(end, true) !== END_OF_DIRECTORY) end--;
  if (end < earliest) throw new Error("zip: no end of central directory");
  const names = new TextDecoder("utf-8", { fatal: true });
  const files = [];
  let at = view.getUint32(end + 16, true);
  for (let k = view.getUint16(end + 10, true); k > 0; k--) {
    if (view.getUint32(at, true) !== DIRECTORY_ENTRY) throw new Error("zip: a broken directory entry");
    const flags = view.getUint16(at + 8, true);
    const method = view.getUint16(at + 10, true);
    const packed = view.getUint32(at + 20, true);
    const size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const local = view.getUint32(at + 42, true);
    const path = names.decode(archive.subarray(at + 46, at + 46 + nameLength));
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    if (flags & 1) throw new Error(`zip: ${path} is encrypted`);
    if (path.endsWith("/")) continue;
    if (path.startsWith("/") || path.split("/").includes("..")) throw new Error(`zip: ${path} leaves the folder`);
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    files.push(contents(archive.subarray(start, start + packed), method, size).then((bytes) => ({ path, bytes })));
  }
  return Promise.all(files);
}

async function contents(packed, method, size) {
  if (method !== STORED && method !== DEFLATED) throw new Error(`zip: compression method ${method}`);
  let bytes = packed;
  if (method === DEFLATED) {
    // Written straight in: a Blob's stream would go through the browser process.
    const inflater = new DecompressionStream("deflate-raw");
    const writer = inflater.writable.getWriter();
    writer.write(packed).catch(() => {}); // a bad stream fails the read below
    writer.close().catch(() => {});
    bytes = new Uint8Array(await new Response(inflater.readable).arrayBuffer());
  }
  if (bytes.length !== size) throw new Error("zip: a file of the wrong size");
  return bytes;
}
