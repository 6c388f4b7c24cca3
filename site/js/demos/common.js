import { PY } from "../generated/constants.js";
import { latestCaller } from "../runtime/client.js";
import { element } from "../ui/dom.js";

export { element };

// Small DOM helpers shared by the demo controllers.

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

export const MAX_SEED = PY.maxSeed;
export const formatCount = (n) => n.toLocaleString("ko-KR");
export const onOff = (on) => (on ? "켬" : "끔");

// A control with its visible Korean label.
export function labelled(text, control) {
  return element("label", { class: "demo-control" }, [element("span", { text }), control]);
}

// A headline number (iteration, loss, …): label, value (an output) and a one-line hint.
export function stat(name, label, hint) {
  const out = output(name, label);
  out.clear("—");
  const node = element("div", { class: "stat" }, [
    element("span", { class: "stat-label", text: label }),
    out.node,
    element("span", { class: "stat-hint", text: hint }),
  ]);
  return { ...out, box: node };
}

// The seed field of a trained demo: a whole number 0..MAX_SEED; anything else is put back
// and onInvalid gets a Korean message, a valid one goes to onSeed.
export function seedInput(value, onInvalid, onSeed) {
  const input = element("input", {
    type: "number",
    min: 0,
    max: MAX_SEED,
    step: 1,
    value: String(value),
    "data-control": "seed",
    class: "seed-input",
  });
  let current = value;
  input.addEventListener("change", () => {
    const seed = Number(input.value);
    if (input.value.trim() === "" || !Number.isInteger(seed) || seed < 0 || seed > MAX_SEED) {
      input.value = String(current);
      onInvalid(`시드는 0부터 ${MAX_SEED} 사이의 정수여야 합니다.`);
      return;
    }
    current = seed;
    onSeed(seed);
  });
  return input;
}

// Training chunks sized so one request takes about `targetMs`: small enough that pause and
// reset are honoured quickly, large enough that messaging costs little. `train(send)` sends
// one chunk of `size` iterations and updates the size from how long it took.
export function adaptiveChunks({ min, max, first, targetMs }) {
  let size = first;
  return {
    async train(send) {
      const iterations = size;
      const started = performance.now();
      const reply = await send(iterations);
      const fitted = (iterations * targetMs) / Math.max(1, performance.now() - started);
      size = Math.round(Math.min(max, Math.max(min, 0.5 * size + 0.5 * fitted)));
      return reply;
    },
    reset() {
      size = first;
    },
  };
}

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
