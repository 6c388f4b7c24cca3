// Every page's entry point: one Python runtime for the page, shared by all its demos.
import { CONTROLLERS } from "./demos/index.js";
import { getRuntime, reflectOnDocument } from "./runtime/client.js";
import { keepHashTargetInView } from "./ui/hash-target.js";
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
keepHashTargetInView();

// Offline and faster repeat visits: the service worker caches the site (see sw.js). It is
// registered once Python is ready (after a retry too), so that its downloads find the files in the HTTP cache
// instead of racing the worker for them. It cannot see what this first visit fetched before it
// took over, such as the KaTeX fonts the formulas used, so the page names those files.
if ("serviceWorker" in navigator && location.protocol.startsWith("http")) {
  runtime.firstReady
    .then(async () => {
      const registration = await navigator.serviceWorker.register(new URL("../sw.js", import.meta.url));
      await navigator.serviceWorker.ready;
      const urls = performance.getEntriesByType("resource").map((entry) => entry.name);
      (registration.active ?? registration.waiting)?.postMessage({ type: "cache-used", urls });
    })
    .catch((err) => console.warn("서비스 워커 등록 실패:", err));
}
