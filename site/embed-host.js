// Optional helper for pages that embed our demos with <iframe data-ptrnet-embed src="…/embed.html#demo=…">:
// sizes each such iframe to its demo's height. Only messages of our one known type, from the
// window of one of those iframes and from that iframe's origin, are acted on.
(() => {
  const MIN_HEIGHT = 120;
  const MAX_HEIGHT = 4000;
  window.addEventListener("message", (event) => {
    const data = event.data;
    if (!data || typeof data !== "object" || data.type !== "ptrnet:resize") return;
    if (typeof data.height !== "number" || !Number.isFinite(data.height)) return;
    for (const frame of document.querySelectorAll("iframe[data-ptrnet-embed]")) {
      if (frame.contentWindow !== event.source) continue;
      if (new URL(frame.src, location.href).origin !== event.origin) return;
      frame.style.height = `${Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, Math.round(data.height)))}px`;
      return;
    }
  });
})();
