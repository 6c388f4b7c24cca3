// Article figure [tsp-sweep]: the TSP Ptr-Net trained on 5–20 cities, its tours and A1's over the
// reference tour (Held-Karp up to 12 cities, the shipped LKH-3 tours above) by n up to 50, beside
// the paper's, measured live on the experiment runner's sets (experiments-sweep.js).
import { mountSweep } from "./experiments-sweep.js";

export const SCHEMA = {};

export function mount(root, runtime) {
  mountSweep(root, runtime, "tsp-sweep", { chart: { tsp: "ratio" } });
}
