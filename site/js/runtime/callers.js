// The demos' lines to the page's runtime (client.js): each element's own instance, and the
// latest-only caller of live interaction.
import { ERROR_KIND } from "./protocol.js";
import { RuntimeError } from "./client.js";

let instances = 0;
const handles = new Map(); // instance id → its handle, until freed

// A demo element's own line to the runtime: its calls carry the element's instance id, so the
// worker keeps a separate model for each element (two trainers on a page train apart).
export function instanceOf(runtime, root) {
  root.dataset.instance ??= `${root.dataset.demo}-${++instances}`;
  const id = root.dataset.instance;
  let freed = false;
  const handle = {
    id,
    call(demo, fn, params = {}) {
      if (freed)
        return Promise.reject(
          new RuntimeError({ kind: ERROR_KIND.unavailable, message: "페이지에서 빠진 데모라 계산하지 않습니다." }),
        );
      return runtime.call(demo, fn, { ...params, instance: id });
    },
    // The element left the page: the worker forgets its models, and it sends nothing more.
    free() {
      freed = true;
      handles.delete(id);
      return runtime.call("runtime", "free", { instance: id }).catch(() => {});
    },
  };
  handles.set(id, handle);
  return handle;
}

// Frees every demo instance inside `container` (an embed's shadow root being taken down).
export function freeInstances(container) {
  for (const node of container.querySelectorAll("[data-instance]")) handles.get(node.dataset.instance)?.free();
}

// A caller for live interaction (dragging): at most one request in flight and one waiting;
// a newer request replaces the waiting one, and only the reply to the newest request is
// delivered, so a fast drag always ends on the final state. Its calls are interactive: the page's
// background work waits for them (Runtime.interactionPause). If the newest request failed,
// it is sent again when the runtime (re)starts, so a restart loses nothing.
export function latestCaller(runtime, demo, fn, { onResult, onError, onBusy }) {
  let inFlight = false;
  let waiting = null;
  let newest = 0;
  let newestParams = null;
  let failed = false;

  async function send(params, seq) {
    inFlight = true;
    try {
      const result = await runtime.call(demo, fn, params, { interactive: true });
      if (seq === newest) {
        failed = false;
        onResult(result, params);
      }
    } catch (err) {
      if (seq === newest) {
        failed = true;
        onError(err, params);
      }
    } finally {
      inFlight = false;
      if (waiting) {
        const next = waiting;
        waiting = null;
        send(next.params, next.seq);
      } else if (seq === newest) {
        onBusy(false);
      }
    }
  }

  function request(params) {
    const seq = ++newest;
    newestParams = params;
    onBusy(true);
    if (inFlight) waiting = { params, seq };
    else send(params, seq);
  }

  runtime.onStatus(({ stage }) => {
    if (stage === "ready" && failed) request(newestParams);
  });
  return request;
}
