// A history of (x, y) points for a curve that may grow for hours: past `max` points it keeps
// every second one, so memory stays flat and the curve keeps its shape.
export function boundedSeries(max) {
  const xs = [];
  const ys = [];
  let stride = 1; // points are kept at x multiples of this many pushes
  let pushes = 0;
  return {
    xs,
    ys,
    push(x, y) {
      pushes += 1;
      if ((pushes - 1) % stride !== 0) return;
      xs.push(x);
      ys.push(y);
      if (xs.length > max) {
        stride *= 2;
        const keep = xs.map((_, k) => k % 2 === 0);
        const kx = xs.filter((_, k) => keep[k]);
        const ky = ys.filter((_, k) => keep[k]);
        xs.length = 0;
        ys.length = 0;
        xs.push(...kx);
        ys.push(...ky);
      }
    },
    // Drop the points after x (a restarted worker continues from an earlier snapshot).
    trimAfter(x) {
      const keep = xs.findIndex((v) => v > x);
      if (keep >= 0) {
        xs.length = keep;
        ys.length = keep;
      }
    },
    clear() {
      xs.length = 0;
      ys.length = 0;
      stride = 1;
      pushes = 0;
    },
    get last() {
      return xs.length ? xs[xs.length - 1] : null;
    },
  };
}
