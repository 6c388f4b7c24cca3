// Every page's entry point: one Python runtime for the page, shared by all its demos.
import * as sequences from "./demos/sequences.js";
import * as threeProblems from "./demos/three-problems.js";
import { getRuntime } from "./runtime/client.js";
import { bindBanner } from "./ui/runtime-banner.js";

const CONTROLLERS = {
  sequences,
  "three-problems": threeProblems,
};

const runtime = getRuntime();
bindBanner(runtime);
for (const root of document.querySelectorAll("[data-demo]")) {
  CONTROLLERS[root.dataset.demo]?.mount(root, runtime);
}
