// Test-only, put first in every page by the device tests' server. It keeps, in any engine (WebKit's
// driver reads no console): the error events, unhandled rejections and console errors the page sees,
// when Python became ready and when its worker first answered (ms since the navigation began).
window.__pageErrors = [];
addEventListener("error", (event) => window.__pageErrors.push(String(event.message || event.error || "error")));
addEventListener("unhandledrejection", (event) =>
  window.__pageErrors.push(`unhandled rejection: ${event.reason?.message ?? event.reason}`),
);
const consoleError = console.error.bind(console);
console.error = (...args) => {
  window.__pageErrors.push(args.map(String).join(" "));
  consoleError(...args);
};
new MutationObserver(() => {
  if (document.documentElement.dataset.python === "ready") window.__readyAt ??= performance.now();
}).observe(document.documentElement, { attributes: true, attributeFilter: ["data-python"] });
// When the page's Python worker first answered a call.
const PageWorker = window.Worker;
window.Worker = class extends PageWorker {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", ({ data }) => {
      if (data?.channel === "rpc") window.__firstAnswerAt ??= performance.now();
    });
  }
};
