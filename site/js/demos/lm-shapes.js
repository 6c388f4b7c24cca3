// Prelude demo [lm-shapes]: one generation step of a small trained LSTM language model, shape by
// shape. Python runs the step (embedding, gates, cell, scores, softmax, the choice of the next
// word) and returns every tensor with its real shape; lm-shapes-panels.js lays them out as
// proportional boxes in pipeline order. The output layer's width V is fixed: the point of the
// demo, before demo 1 shows the same limit for the convex hull.
import * as tensorBoxes from "../draw/tensors.js";
import { PY } from "../generated/constants.js";
import { reducedMotion, slider } from "../ui/controls.js";
import { integerField, numberField, shown } from "../ui/fields.js";
import { redrawer } from "../ui/frame.js";
import { urlStore } from "../ui/permalink.js";
import { button, element, labelled, MAX_SEED, messageLine, output, seedInput, select } from "./common.js";
import { gateLayout, stages } from "./lm-shapes-panels.js";
import { requestLoop } from "../ui/request-loop.js";

const ID = "lm-shapes";
const STEP_MS = 320; // pause between animated steps (about three steps a second)
const MODE_NAMES = { sample: "확률대로 뽑기", greedy: "가장 높은 것 고르기" }; // Python's PY.lm.modes
const [DEFAULT_MODE] = PY.lm.modes;
const { min: MIN_TEMPERATURE, max: MAX_TEMPERATURE } = PY.lm.temperature;

// How the next word is chosen, written as Python's mode name in the URL.
const modeField = {
  default: () => DEFAULT_MODE,
  parse(text) {
    const word = text.trim().toLowerCase();
    if (PY.lm.modes.includes(word)) return { value: word, warnings: [] };
    const allowed = PY.lm.modes.join("이나 ");
    return {
      value: DEFAULT_MODE,
      warnings: [`링크의 고르기 방식 값(${shown(text)})은 ${allowed}여야 해서 기본값(${DEFAULT_MODE})으로 둡니다.`],
    };
  },
  format: (value) => value,
};

export const SCHEMA = {
  seed: integerField({ label: "시드", min: 0, max: MAX_SEED, fallback: 0 }),
  mode: modeField,
  temperature: numberField({ label: "온도", min: MIN_TEMPERATURE, max: MAX_TEMPERATURE, fallback: 1, decimals: 1 }),
};

// `store` keeps the state: the URL on our pages, the element's attributes in an embed.
export function mount(root, runtime, store = urlStore) {
  const { state, warnings } = store.load(ID, SCHEMA);
  let tokens = [PY.lm.startId]; // the ids the shown step was computed for (the last is its input)
  let reply = null;

  // --- controls
  const stepButton = button("한 단계", "step", step);
  const generateButton = button("문장 끝까지", "generate", toggleGenerate);
  stepButton.classList.add("is-primary");
  const modeSelect = select(
    "mode",
    PY.lm.modes.map((mode) => [mode, MODE_NAMES[mode] ?? mode]),
    state.mode,
    { class: "mode-select" },
  );
  const temperature = slider({
    control: "temperature",
    label: "온도",
    min: MIN_TEMPERATURE,
    max: MAX_TEMPERATURE,
    step: 0.1,
    value: state.temperature,
    format: (t) => t.toFixed(1),
    onInput(t) {
      state.temperature = Number(t.toFixed(1));
      settingsChanged();
    },
  });
  const message = messageLine(() => {
    message.clear();
    loop.retry();
  });
  const seedBox = seedInput(
    state.seed,
    (text) => message.show(text),
    (seed) => {
      state.seed = seed;
      store.save(ID, SCHEMA, state);
      compute(() => [PY.lm.startId]); // a new seed: a new sentence from the start
    },
  );
  const toolbar = element("div", { class: "demo-toolbar" }, [
    stepButton,
    generateButton,
    button("처음으로", "reset", () => compute(() => [PY.lm.startId])),
    labelled("고르기", modeSelect),
    temperature.node,
    labelled("시드", seedBox),
  ]);

  // --- displays
  const sentence = element("p", { class: "lm-sentence", "aria-label": "지금까지 만든 문장" });
  const stepCount = output("step", "단계");
  stepCount.clear("—");
  const shapes = output("shapes", "모델의 크기");
  shapes.clear("—");
  const gates = output("gates", "A의 게이트 배치");
  gates.clear("—");
  const head = element("div", { class: "lm-head" }, [
    element("div", { class: "lm-sentence-box" }, [
      element("span", { class: "legend" }, [element("span", { text: "지금까지 만든 문장 · 단계 " }), stepCount.node]),
      sentence,
    ]),
    element("div", { class: "lm-dims" }, [
      element("span", { class: "legend", text: "이 모델의 크기" }),
      shapes.node,
      element("span", { class: "lm-gates" }, [
        element("span", { class: "legend", text: "A의 4H열 순서 " }),
        gates.node,
      ]),
      element("p", {
        class: "lm-fixed-note",
        text: "이 너비 V는 모델을 만들 때 정해졌습니다. 어휘 목록에 없는 단어는 출력층에 칸이 없어서, 아무리 학습해도 나올 수 없습니다.",
      }),
    ]),
  ]);
  const figure = element("div", { class: "lm-figure" });
  const boxes = tensorBoxes.create(figure, {
    label: "한 생성 단계의 텐서들: 상자의 가로·세로가 텐서의 모양을 따릅니다",
  });
  const token = output("token", "고른 다음 단어");
  token.clear("—");
  const probs = output("probs", "다음 단어 확률");
  probs.clear("—");
  const choice = element("div", { class: "lm-choice" }, [
    element("div", { class: "lm-chosen" }, [
      element("span", { class: "legend", text: "고른 다음 단어 → 다음 단계의 입력" }),
      token.node,
    ]),
    element("div", { class: "out-row" }, [element("span", { class: "legend", text: "확률이 높은 단어" }), probs.node]),
  ]);
  const legend = element(
    "p",
    { class: "heat-legend lm-legend" },
    [
      ["swatch-positive", "양수"],
      ["swatch-negative", "음수 (행렬마다 가장 큰 |값|이 가장 진함)"],
      ["swatch-unit", "0 → 1 (게이트, 확률)"],
      ["swatch-shape", "가중치: 모양만"],
    ].flatMap(([swatch, text]) => [element("span", { class: `swatch ${swatch}` }), element("span", { text })]),
  );
  root.replaceChildren(toolbar, head, legend, figure, choice, message.node);
  root.dataset.state = "busy";

  const markDirty = redrawer(() => {
    if (!reply) boxes.render({ stages: [], empty: "파이썬을 기다리는 중…" });
    else boxes.render({ stages: stages(reply, state) });
  });

  function renderSentence() {
    const chips = tokens.map((id, k) => {
      const last = k === tokens.length - 1;
      const text = reply?.vocab?.[id] ?? String(id);
      return element("span", {
        class: last ? "lm-word is-input" : "lm-word",
        text,
        title: last ? "이번 단계의 입력" : `id ${id}`,
      });
    });
    if (reply)
      chips.push(
        element("span", { class: "lm-arrow", "aria-hidden": "true", text: "→" }),
        element("span", { class: "lm-word is-next", text: reply.token.word, title: "이번 단계가 고른 다음 단어" }),
      );
    sentence.replaceChildren(...chips);
  }

  function apply(r) {
    reply = r;
    if (message.node.classList.contains("is-error")) message.clear();
    stepCount.set(r.step, String(r.step));
    const { N, D, H, V } = r.dims;
    shapes.set(r.shapes, `N = ${N} · D = ${D} · H = ${H} · V = ${V}`);
    // A's column ranges as drawn over it, each with its values, and the four tensors stage ③ draws
    const A = r.tensors.A.values[0];
    const layout = gateLayout(H).map((part) => ({ ...part, values: A.slice(part.from, part.to) }));
    gates.set(
      { layout, split: Object.fromEntries(layout.map(({ gate }) => [gate, r.tensors[gate].values[0]])) },
      layout.map(({ gate }) => gate).join(" | "),
    );
    probs.set(r.probs, r.text.top);
    token.set(r.token.word, r.done ? `${r.token.word} (문장 끝)` : r.token.word);
    renderSentence();
    updateControls();
    markDirty();
  }

  // --- requests: one at a time; a newer step waiting to be sent replaces an older one
  const loop = requestLoop({
    root,
    runtime,
    call: (fn, params) => runtime.call(ID, fn, params),
    onError: (text) => message.show(`계산하지 못했습니다: ${text}`, { error: true }),
    onChange: updateControls,
  });

  // One step after the prefix prefix() (read when the request is sent, so it follows earlier steps).
  function stepOperation(prefix) {
    let sent = null;
    return {
      key: "step",
      fn: "step",
      params() {
        sent = prefix();
        return { tokens: sent, mode: state.mode, temperature: state.temperature, seed: state.seed };
      },
      apply(r) {
        tokens = sent;
        apply(r);
      },
    };
  }
  const nextPrefix = () => [...tokens, reply.token.id];

  function compute(prefix) {
    if (root.dataset.state === "error") message.clear();
    loop.enqueue(stepOperation(prefix), { stop: true });
  }

  function updateControls() {
    const done = Boolean(reply?.done);
    stepButton.disabled = loop.running || !reply || done;
    generateButton.disabled = !loop.running && (!reply || done);
    generateButton.textContent = loop.running ? "멈추기" : "문장 끝까지";
    generateButton.setAttribute("aria-pressed", String(loop.running));
  }

  // --- actions
  function step() {
    if (reply && !reply.done) compute(() => (reply.done ? tokens : nextPrefix())); // a click queued behind the end repeats it
  }

  function toggleGenerate() {
    if (loop.running) {
      loop.stop();
      return;
    }
    if (!reply || reply.done) return;
    loop.run({
      next: () => (reply.done ? null : stepOperation(nextPrefix)),
      delayMs: reducedMotion() ? 0 : STEP_MS,
    });
  }

  function settingsChanged() {
    store.save(ID, SCHEMA, state);
    compute(() => tokens); // the same input, the new way of choosing
  }

  modeSelect.addEventListener("change", () => {
    state.mode = PY.lm.modes.includes(modeSelect.value) ? modeSelect.value : DEFAULT_MODE;
    settingsChanged();
  });

  updateControls();
  markDirty();
  compute(() => tokens);
  if (warnings.length) message.show(warnings.join(" "));
}
