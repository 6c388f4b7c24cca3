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
// When the page's Python worker first answered a call, and each call's times: sent, entered Python
// (the worker's "started"), answered.
window.__calls = [];
const PageWorker = window.Worker;
window.Worker = class extends PageWorker {
  constructor(...args) {
    super(...args);
    const calls = new Map();
    this.addEventListener("message", ({ data }) => {
      const call = calls.get(data?.id);
      if (data?.channel === "started" && call) call.started ??= performance.now();
      if (data?.channel !== "rpc") return;
      window.__firstAnswerAt ??= performance.now();
      if (call) call.answered = performance.now();
    });
    const post = this.postMessage.bind(this);
    this.postMessage = (message, ...rest) => {
      if (message?.demo !== undefined && message?.id !== undefined) {
        const call = { demo: message.demo, fn: message.fn, sent: performance.now() };
        calls.set(message.id, call);
        window.__calls.push(call);
      }
      post(message, ...rest);
    };
  }
};
