import { PY } from "./generated/constants.js";

// Colours and sizes shared by every drawing module (kept in sync with the stylesheets in css/site/).
export const COLORS = {
  background: "#fbfaf7",
  grid: "#e7e3da",
  frame: "#c9c3b6",
  point: "#2b2d42",
  pointLabel: "#2b2d42",
  selected: "#e07a00",
  hull: "#2a6fdb",
  hullFill: "rgba(42, 111, 219, 0.08)",
  tour: "#c2410c",
  triangle: "#15803d",
  triangleFill: "rgba(21, 128, 61, 0.05)",
  // companion page: the exact answer under a trained model's answer
  hullUnder: "rgba(42, 111, 219, 0.30)",
  tourUnder: "rgba(194, 65, 12, 0.28)",
  triangleUnder: "rgba(21, 128, 61, 0.45)",
  model: "#1f2937",
  wrongFill: "rgba(220, 38, 38, 0.18)",
  baselineA1: "#7c3aed",
  baselineA2: "#0e7490",
  student: "#be185d", // the tour of the Ptr-Net taught by A1
  mine: "#c026d3", // the hull of the reader's own Ptr-Net (demo 8-2)
  // demos 5 and 6: heat map and line charts
  text: "#2b2d42",
  muted: "#6b6f80",
  heatLow: "#fbfaf7", // probability 0
  heatHigh: "#1e3a8a", // probability 1
  correct: "#16a34a", // the correct cell's outline
  choice: "#ffffff", // the model's choice when right (a white dot on a dark cell)
  choiceEdge: "#2b2d42",
  wrong: "#dc2626", // the model's choice when wrong
  loss: "#7c3aed",
  seqAcc: "#2563eb",
  posAcc: "#16a34a",
  invalid: "#dc2626",
  trainBand: "rgba(107, 111, 128, 0.14)",
  // demos 1, 3, 4 and 7: bars, vectors, candidate circles, copy or generate
  bar: "#2a6fdb",
  barTrack: "#efece4",
  encoder: "#4b5a78",
  decoder: "#c2410c",
  mixed: "#7c3aed", // attention output d′
  pointer: "#15803d", // the input the pointer picks
  polygon: "#8a8fa0",
  polygonFill: "rgba(107, 111, 128, 0.10)",
  prob: "#2a6fdb",
  probFill: "rgba(42, 111, 219, 0.16)",
  chosenFill: "rgba(224, 122, 0, 0.22)",
  masked: "#9ca3af",
  decoderInput: "#15803d",
  copy: "#c2410c", // from the source only
  generate: "#2a6fdb", // from the vocabulary only
  both: "#7c3aed",
  // prelude demos: tensor boxes, perplexity curves, word-vector map
  tensorPositive: "#1d4ed8",
  tensorNegative: "#c2410c",
  tensorUnit: "#1e3a8a",
  tensorEmpty: "#f4f2ec",
  accentV: "#b91c1c", // the fixed output width V
  neural: "#7c3aed",
  untrained: "#a78bfa", // the same network before training
  trigram: "#6b6f80",
  roles: ["#2563eb", "#c2410c", "#15803d", "#9333ea", "#b45309", "#0e7490", "#be185d", "#4b5563"],
};

export const SIZES = {
  pointRadius: 6, // CSS px
  compactRadius: 2.5, // CSS px: points of a thumbnail or of a large set, drawn without labels
  hitRadius: 14, // CSS px: how close a pointer must be to grab a point (touch-friendly)
  padding: 22, // CSS px between the canvas edge and the unit square
  lineWidth: 2.5,
  underWidth: 8, // CSS px: the exact answer drawn beneath a model's answer
  font: '13px "Noto Sans CJK KR", "Noto Sans KR", system-ui, sans-serif',
  fontFamily: '"Noto Sans CJK KR", "Noto Sans KR", system-ui, sans-serif',
  smallFont: '11px "Noto Sans CJK KR", "Noto Sans KR", system-ui, sans-serif',
  heatMaxCell: 44, // CSS px: the largest heat-map cell (short test sequences)
  heatMinCell: 6, // CSS px: the smallest (the canvas scrolls sideways below this)
};

// Python's limits (see generated/constants.js), under the names the editors use.
export const LIMITS = {
  maxPoints: PY.points.max, // Held-Karp runs live on every drag
  minPoints: 0,
  minModelPoints: PY.points.minModel, // demos 4 and the companion page
  maxModelPoints: PY.points.maxModel, // the trained models run live on every drag
  pointDecimals: PY.points.decimals, // what the point editors keep and the permalinks write: one rule
};
