// The reader's weights as files: a .npz Python wrote (base64) saved through a download, and a
// chosen file read back as base64 for Python to check. Python alone decides what a valid file is.

// Save base64 bytes as a file called `name`.
export function downloadNpz(base64, name) {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const url = URL.createObjectURL(new Blob([bytes], { type: "application/octet-stream" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

// A File's bytes as base64 (in slices: one String.fromCharCode call per slice keeps the stack small).
export async function readNpz(file) {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const SLICE = 0x8000;
  let binary = "";
  for (let k = 0; k < bytes.length; k += SLICE) binary += String.fromCharCode(...bytes.subarray(k, k + SLICE));
  return btoa(binary);
}
