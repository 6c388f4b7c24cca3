// Downloads of the runtime's own files, failing with a Korean message that names the file.
export async function fetchResponse(url, init) {
  const file = url.split("/").pop();
  const response = await fetch(url, init).catch(() => {
    throw new Error(`${file} 파일을 내려받지 못했습니다. 네트워크 연결을 확인한 뒤 다시 시도해 주세요.`);
  });
  if (!response.ok) throw new Error(`${file} 파일을 내려받지 못했습니다 (HTTP ${response.status}).`);
  return response;
}

export async function fetchBytes(url, init) {
  return new Uint8Array(await (await fetchResponse(url, init)).arrayBuffer());
}
