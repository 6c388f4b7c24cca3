import { PY } from "../generated/constants.js";
import { latestCaller } from "../runtime/callers.js";
import { element } from "../ui/dom.js";
import { requestLoop } from "../ui/request-loop.js";

export { element };

// Small DOM helpers shared by the demo controllers.

// title: what the button does, where its label alone does not say (shown on hover and read by screen readers).
export function button(label, action, onClick, title) {
  const node = element("button", { type: "button", text: label, "data-action": action, ...(title && { title }) });
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
// A whole number with a comma every three digits, as Korean writes counts ("12,345"). Not
// Intl.NumberFormat: its first use loads the browser's number-formatting data, 25 ms of the page's
// main thread on an idle machine and up to 100 ms on a cold load, while Python starts beside it.
export const formatCount = (n) => String(Math.round(n)).replace(/\B(?=(\d{3})+$)/g, ",");
export const onOff = (on) => (on ? "켬" : "끔");

// A control with its visible Korean label.
export function labelled(text, control) {
  return element("label", { class: "demo-control" }, [element("span", { text }), control]);
}

// A <select> for a state field: options as [value, text] pairs, `value` chosen.
export function select(control, options, value, attrs = {}) {
  const node = element(
    "select",
    { "data-control": control, ...attrs },
    options.map(([v, text]) => element("option", { value: v, text })),
  );
  node.value = value;
  return node;
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

// The seed field of a demo that trains: a new seed applies at once while nothing has been learned
// (the loop idle, no iteration yet), else at the next reset, which the message says. model(): the
// current summary.
export function trainingSeedInput(value, message, { loop, model, onSeed, reset }) {
  return seedInput(
    value,
    (text) => message.show(text),
    (seed) => {
      onSeed(seed);
      const now = model();
      if (!loop.running && (now?.iteration ?? 0) === 0) {
        reset();
        return;
      }
      const where = now
        ? ` 지금 모델은 시드 ${now.seed}에서 시작해 ${formatCount(now.iteration)}회 학습한 상태입니다.`
        : "";
      message.show(`새 시드(${seed})는 ‘초기화’를 누르면 적용됩니다.${where}`);
    },
  );
}

const SNAPSHOT_EVERY_MS = 1000; // how much training a worker restart can cost a trainer demo at most

// The request loop of a demo that trains a model in the worker (5, NPLM): snapshots every second, and a
// new worker gets the last one back (or starts afresh from resetParams()), drops the curve after it
// (series.trimAfter) and says so. `extra` adds requestLoop options (followUp, onChange) and onRestart
// runs first.
function trainerLoop({ root, runtime, python, id, message, resetParams, series, applySummary, onRestart, ...extra }) {
  return requestLoop({
    root,
    runtime,
    call: (fn, params) => python.call(id, fn, params),
    snapshots: {
      everyMs: SNAPSHOT_EVERY_MS,
      afterRestart(snapshot) {
        onRestart?.();
        return {
          fn: snapshot ? "restore" : "reset",
          params: () => (snapshot ? { snapshot } : resetParams()),
          apply(reply) {
            series.trimAfter(reply.iteration);
            applySummary(reply);
            message.show(
              `파이썬이 다시 시작되어 반복 ${formatCount(reply.iteration)}에 저장해 둔 모델에서 이어 갑니다.`,
            );
          },
        };
      },
    },
    onError: (text) => message.show(`모델 계산이 실패했습니다: ${text}`, { error: true }),
    ...extra,
  });
}

// The loop of a demo that trains (trainerLoop's options; `job` trains) with its train / pause buttons,
// kept in step with it: train and the `idleOnly` buttons (a single step) are disabled while the loop
// runs or blocked() (a diverged model), pause while it does not. onStart / onPause run just before
// the loop starts / stops (a follow-up they ask for comes at once); pauseTitle: pause's hover text.
export function trainerControls({
  job,
  blocked = () => false,
  idleOnly = [],
  onStart,
  onPause,
  pauseTitle,
  ...options
}) {
  const train = button("학습 시작", "train", start);
  train.classList.add("is-primary");
  const pause = button("일시 정지", "pause", stop, pauseTitle);
  const loop = trainerLoop({ ...options, onChange: update });

  function update() {
    train.disabled = loop.running || blocked();
    pause.disabled = !loop.running;
    for (const node of idleOnly) node.disabled = train.disabled;
  }

  function start() {
    if (loop.running || blocked()) return;
    if (options.root.dataset.state === "error") options.message.clear();
    onStart?.();
    loop.run(job);
  }

  function stop() {
    onPause?.();
    loop.stop();
  }

  update();
  return { loop, train, pause, update };
}

// "Copy link": the demo's state as a URL on the clipboard (or shown, where the clipboard is refused).
export function permalinkButton(link, message, what) {
  return button("링크 복사", "permalink", async () => {
    const url = link();
    try {
      await navigator.clipboard.writeText(url);
      message.show(`링크를 복사했습니다. 담긴 값: ${what}.`);
    } catch {
      message.show(`링크: ${url}`);
    }
  });
}

// Python numbers points from 1 in the notation, with 0 for the end slot (⇐) and n + 1 for a fixed
// output layer's ⇒; the drawings index points from 0. Every conversion happens here.
export const toZeroBased = (sequence) => sequence.map((index) => index - 1);
// The point a slot names, 0-based, or -1 (the end, ⇒, or 0 as "nothing fed yet").
export const pointIndex = (slot, n) => (slot >= 1 && slot <= n ? slot - 1 : -1);
// The points a sequence of slots names, 0-based, in order.
export const pointsNamed = (slots, n) => slots.map((slot) => pointIndex(slot, n)).filter((index) => index >= 0);
// A slot's column in a distribution over the n points then the end (at n); ⇒ has none (-1).
export const slotColumn = (slot, n) => (slot === 0 ? n : pointIndex(slot, n));

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

// Notes on a degenerate point set (Python's geometry.degenerate): where an answer follows a rule
// of the notation rather than what the picture suggests. Hidden while there is nothing to say.
export function notesLine() {
  const node = element("p", { class: "demo-note", "data-out": "notes" });
  node.hidden = true;
  return {
    node,
    set(notes) {
      node.dataset.value = JSON.stringify(notes);
      node.textContent = notes.join(" ");
      node.hidden = notes.length === 0;
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
