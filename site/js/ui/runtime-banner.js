// The page's Python loading banner: progress while loading, a retry button on failure, a short
// notice after the runtime restarted by itself, and a line while one calculation takes long (a
// slow phone), so that the reader knows Python is working.
const NOTICE_MS = 6000;

export function bindBanner(runtime, banner = document.querySelector("[data-runtime-banner]")) {
  if (!banner) return;
  const text = document.createElement("span");
  const bar = document.createElement("progress");
  bar.max = 1;
  const retry = document.createElement("button");
  retry.type = "button";
  retry.textContent = "다시 시도";
  retry.dataset.action = "retry-python";
  retry.addEventListener("click", () => runtime.restart());
  banner.append(text, bar, retry);
  let noticeTimer = null;
  runtime.onStatus(({ stage, progress, message, notice }) => {
    clearTimeout(noticeTimer);
    banner.dataset.stage = notice ? "notice" : stage;
    text.textContent = notice || message;
    bar.value = progress;
    bar.hidden = stage === "error" || stage === "ready";
    retry.hidden = stage !== "error";
    if (notice) noticeTimer = setTimeout(() => (banner.dataset.stage = "ready"), NOTICE_MS);
  });
  runtime.onActivity(({ computing, seconds }) => {
    if (runtime.status.stage !== "ready" || banner.dataset.stage === "notice") return;
    banner.dataset.stage = computing ? "computing" : "ready";
    text.textContent = computing ? `계산 중… 이 기기에서는 조금 걸립니다 (${seconds}초째)` : runtime.status.message;
  });
}
