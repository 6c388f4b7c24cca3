// embed.html#demo=<id>&<id>.<field>=…: one demo alone, for an <iframe> on another site. The
// page reports its height to the parent so the optional embed-host.js can size the iframe.
// The worker starts after the first paint and the demos' modules are asked for after it, as on our
// pages (main.js): Python need not wait for those modules, nor its script queue behind them.
import { getRuntime, reflectOnDocument } from "./runtime/client.js";
import { afterFirstPaint } from "./ui/frame.js";

export const RESIZE_MESSAGE = "ptrnet:resize";

await afterFirstPaint();
const runtime = getRuntime();
reflectOnDocument(runtime);
const [{ CONTROLLERS }, { DEMOS }, { urlStore }, { bindBanner }] = await Promise.all([
  import("./demos/index.js"),
  import("./generated/demos.js"),
  import("./ui/permalink.js"),
  import("./ui/runtime-banner.js"),
]);
bindBanner(runtime);
const main = document.querySelector("[data-embed-root]");
const name = new URLSearchParams(location.hash.slice(1)).get("demo") ?? "";
if (Object.hasOwn(CONTROLLERS, name)) {
  const root = document.createElement("div");
  root.className = "demo";
  root.dataset.demo = name;
  main.replaceChildren(root);
  CONTROLLERS[name].mount(root, runtime, urlStore);
  document.title = `${DEMOS[name].caption} — 포인터 네트워크, 직접 만져 보기`;
} else {
  console.warn(`embed.html: 알 수 없는 데모 이름 "${name}"`);
  const message = document.createElement("p");
  message.className = "demo-message is-error";
  message.textContent = `알 수 없는 데모입니다. 주소의 #demo= 뒤에 ${Object.keys(CONTROLLERS).join(", ")} 중 하나를 적어 주세요.`;
  main.replaceChildren(message);
}

// Chromium renders (and so observes) a cross-origin iframe only while it is on screen; the
// host's iframe gets its height once the reader scrolls near it.
if (window.parent !== window) {
  let reportedHeight = 0;
  new ResizeObserver(() => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === reportedHeight) return;
    reportedHeight = height;
    window.parent.postMessage({ type: RESIZE_MESSAGE, height }, "*");
  }).observe(document.documentElement);
}
