import { latestCaller } from "../runtime/client.js";

// Small DOM helpers shared by the demo controllers.

export function element(tag, attributes = {}, children = []) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === "text") node.textContent = value;
    else if (name === "class") node.className = value;
    else if (name.startsWith("data-") || name.startsWith("aria-") || name === "role" || name === "for" || name === "title") node.setAttribute(name, value);
    else node[name] = value;
  }
  node.append(...children);
  return node;
}

export function button(label, action, onClick) {
  const node = element("button", { type: "button", text: label, "data-action": action });
  node.addEventListener("click", onClick);
  return node;
}

// An output whose data-value (machine-readable JSON) and text always change together.
export function output(name, label) {
  const value = element("output", { "data-out": name, "aria-label": label });
  return {
    node: value,
    set(data, text) {
      value.dataset.value = JSON.stringify(data);
      value.textContent = text;
    },
    clear(text) {
      delete value.dataset.value;
      value.textContent = text;
    },
  };
}

export const formatSequence = (sequence) => (sequence.length ? `⇒ ${sequence.join(" → ")} ⇐` : "⇒ ⇐");
export const formatTriangles = (triangles) => (triangles.length ? `⇒ ${triangles.map((t) => `(${t.join(",")})`).join(", ")} ⇐` : "⇒ ⇐");
export const toZeroBased = (sequence) => sequence.map((index) => index - 1);

// The message line under a demo: status notes, warnings and errors (Korean), with an
// optional retry button for failed computations.
export function messageLine(onRetry) {
  const text = element("span");
  const retry = button("다시 시도", "retry", onRetry);
  retry.hidden = true;
  const node = element("p", { class: "demo-message", role: "status", "aria-live": "polite" }, [text, retry]);
  return {
    node,
    show(message, { error = false } = {}) {
      text.textContent = message;
      node.classList.toggle("is-error", error);
      retry.hidden = !error;
    },
    clear() {
      text.textContent = "";
      node.classList.remove("is-error");
      retry.hidden = true;
    },
  };
}

// Live requests of a demo: data-state follows them (busy, then idle, or error with the message
// line's retry button), only the newest answer reaches onAnswer, and a later success clears
// the error.
export function demoRequests(root, runtime, demo, fn, message, { onAnswer, onError = () => {} }) {
  return latestCaller(runtime, demo, fn, {
    onBusy(busy) {
      if (busy) root.dataset.state = "busy";
      else if (root.dataset.state === "busy") root.dataset.state = "idle";
    },
    onResult(answer, params) {
      if (message.node.classList.contains("is-error")) message.clear();
      onAnswer(answer, params);
    },
    onError(err, params) {
      root.dataset.state = "error";
      message.show(`계산하지 못했습니다: ${err.message}`, { error: true });
      onError(err, params);
    },
  });
}
