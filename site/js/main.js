// Every page's entry point: one Python runtime for the page, shared by all its demos.
// The worker starts as soon as the page has first painted: Python's download and start-up are
// most of a cold load, so they should not wait for the demos' modules and KaTeX (static imports
// would hold this module back until that whole graph had arrived), but starting the worker
// before the first paint delays that paint on a small machine. Those modules are asked for after
// the worker, for a server without HTTP/2 answers six requests at a time: the worker's scripts
// should not queue behind them (the build joins them into a few files, see py/sitebuild/scripts.py).
import { getRuntime, reflectOnDocument } from "./runtime/client.js";
import { afterFirstPaint } from "./ui/frame.js";

await afterFirstPaint();
const runtime = getRuntime();
reflectOnDocument(runtime);
const [{ CONTROLLERS }, { keepHashTargetInView }, { renderMath }, { urlStore }, { bindBanner }, { bindPredictions }] =
  await Promise.all([
    import("./demos/index.js"),
    import("./ui/hash-target.js"),
    import("./ui/math.js"),
    import("./ui/permalink.js"),
    import("./ui/runtime-banner.js"),
    import("./ui/predict.js"),
  ]);
bindBanner(runtime);
bindPredictions(); // the article's guess-first questions answer without Python
renderMath(document, runtime.firstReady); // those in view now, the rest once Python has started
for (const root of document.querySelectorAll("[data-demo]")) {
  CONTROLLERS[root.dataset.demo]?.mount(root, runtime, urlStore);
}
keepHashTargetInView();

// Offline and faster repeat visits: the service worker caches the site (see sw.js). It is
// registered once Python is ready (after a retry too), so that its downloads find the files in the HTTP cache
// instead of racing the worker for them, and once the demos in view have answered (or after
// SERVICE_WORKER_AT_MOST_MS), since caching the whole site takes the CPU those answers need. It
// cannot see what this first visit fetched before it took over, such as the KaTeX fonts the
// formulas used, so the page names those files.
const SERVICE_WORKER_AT_MOST_MS = 10_000;
if ("serviceWorker" in navigator && location.protocol.startsWith("http")) {
  runtime.firstReady
    .then(() => runtime.quiet(SERVICE_WORKER_AT_MOST_MS))
    .then(async () => {
      const registration = await navigator.serviceWorker.register(new URL("../sw.js", import.meta.url));
      await navigator.serviceWorker.ready;
      const urls = performance.getEntriesByType("resource").map((entry) => entry.name);
      (registration.active ?? registration.waiting)?.postMessage({ type: "cache-used", urls });
    })
    .catch((err) => console.warn("서비스 워커 등록 실패:", err));
}
