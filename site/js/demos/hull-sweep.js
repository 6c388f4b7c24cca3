// Article figure [hull-sweep]: our hull Ptr-Net's accuracy and area coverage by n beside the
// paper's, and its error rate by near-collinearity, measured live on the experiment runner's sets
// (experiments-sweep.js; the settings are Python's, ptrnet.experiments.sweeps).
import { mountSweep } from "./experiments-sweep.js";

export const SCHEMA = {};

export function mount(root, runtime) {
  mountSweep(root, runtime, "hull-sweep", { collinearity: true });
}
