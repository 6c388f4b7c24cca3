// The page's Python loading banner: progress while loading, a retry button on failure, and
// a short notice after the runtime restarted by itself.
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
}
