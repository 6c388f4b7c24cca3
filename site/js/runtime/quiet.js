// A pause in the calls, for background work that would otherwise slow the answers a reader waits
// for: the page registers its service worker there, the worker stores Python's snapshot there.
const QUIET_MS = 400; // no call pending for this long: the answers asked for are in

// Resolves once `calls` has had nothing pending for QUIET_MS since this was asked, or after
// atMostMs whatever happens. calls: {pending() → count, lastBusy() → when one was last sent or answered}.
export function whenQuiet(calls, atMostMs) {
  const asked = performance.now();
  return new Promise((resolve) => {
    const check = () => {
      const now = performance.now();
      const idleFor = now - Math.max(asked, calls.lastBusy());
      if ((calls.pending() === 0 && idleFor >= QUIET_MS) || now - asked >= atMostMs) resolve();
      else setTimeout(check, 100);
    };
    check();
  });
}
