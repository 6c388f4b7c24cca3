// A module worker must come from its creator's origin. When our scripts are embedded in another
// site, a same-origin blob module imports our worker module instead (our host sends CORS).
export function moduleWorker(url) {
  if (url.origin === self.location.origin) return new Worker(url, { type: "module" });
  const trampoline = new Blob([`import ${JSON.stringify(url.href)};`], { type: "text/javascript" });
  return new Worker(URL.createObjectURL(trampoline), { type: "module" });
}
