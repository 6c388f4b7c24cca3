// The page's Python loading banner: progress while loading, a retry button on failure.
export function bindBanner(runtime) {
  const banner = document.querySelector("[data-runtime-banner]");
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
  runtime.onStatus(({ stage, progress, message }) => {
    banner.dataset.stage = stage;
    text.textContent = message;
    bar.value = progress;
    bar.hidden = stage === "error" || stage === "ready";
    retry.hidden = stage !== "error";
  });
}
