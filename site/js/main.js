// Every page's entry point: one Python runtime for the page, shared by all its demos.
import { CONTROLLERS } from "./demos/index.js";
import { getRuntime, reflectOnDocument } from "./runtime/client.js";
import { renderMath } from "./ui/math.js";
import { urlStore } from "./ui/permalink.js";
import { bindBanner } from "./ui/runtime-banner.js";

const runtime = getRuntime();
reflectOnDocument(runtime);
bindBanner(runtime);
renderMath(); // formulas typeset before the demos mount (the worker is already loading Python)
for (const root of document.querySelectorAll("[data-demo]")) {
  CONTROLLERS[root.dataset.demo]?.mount(root, runtime, urlStore);
}

// Offline and faster repeat visits: the service worker caches the whole site (see sw.js).
if ("serviceWorker" in navigator && location.protocol.startsWith("http")) {
  navigator.serviceWorker.register(new URL("../sw.js", import.meta.url)).catch((err) => console.warn("서비스 워커 등록 실패:", err));
}
