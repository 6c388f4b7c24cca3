// Colours and sizes shared by every drawing module (kept in sync with css/site.css).
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
};

export const SIZES = {
  pointRadius: 6, // CSS px
  hitRadius: 14, // CSS px: how close a pointer must be to grab a point (touch-friendly)
  padding: 22, // CSS px between the canvas edge and the unit square
  lineWidth: 2.5,
  font: '13px "Noto Sans CJK KR", "Noto Sans KR", system-ui, sans-serif',
};

export const LIMITS = {
  maxPoints: 12, // Held-Karp runs live on every drag; 12 cities keep it well under a frame
  minPoints: 0,
  urlDecimals: 3, // precision of points in permalinks
};
