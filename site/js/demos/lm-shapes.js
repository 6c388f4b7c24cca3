// Prelude demo [lm-shapes]: one generation step of a small trained LSTM language model, shape by
// shape. Python runs the step (embedding, gates, cell, scores, softmax, the choice of the next
// word) and returns every tensor with its real shape; this controller lays them out as
// proportional boxes in pipeline order. The output layer's width V is fixed: the point of the
// demo, before demo 1 shows the same limit for the convex hull.
import { PY } from "../generated/constants.js";
import { percent } from "../ui/format.js";
import * as tensorBoxes from "../draw/tensors.js";
import { reducedMotion, slider } from "../ui/controls.js";
import { integerField, numberField } from "../ui/fields.js";
import { redrawer } from "../ui/frame.js";
import { urlStore } from "../ui/permalink.js";
import { ERROR_KIND } from "../runtime/protocol.js";
import { button, element, labelled, MAX_SEED, messageLine, output, seedInput } from "./common.js";

const ID = "lm-shapes";
const MAX_STEPS = PY.lm.maxTokens; // Python refuses longer prefixes: "generate" stops here
const STEP_MS = 320; // pause between animated steps (about three steps a second)
const START = "<s>";
const joinShape = (shape) => shape.join("×");
const MODES = { sample: "확률대로 뽑기", greedy: "가장 높은 것 고르기" };

// Sampling or greedy, written "sample" or "greedy" in the URL.
const modeField = {
  default: () => "sample",
  parse(text) {
    const word = text.trim().toLowerCase();
    if (Object.hasOwn(MODES, word)) return { value: word, warnings: [] };
    return {
      value: "sample",
      warnings: [
        `링크의 고르기 방식 값(${text.trim() || "빈 값"})은 sample이나 greedy여야 해서 기본값(sample)으로 둡니다.`,
      ],
    };
  },
  format: (value) => value,
};

const SCHEMA = {
  seed: integerField({ label: "시드", min: 0, max: MAX_SEED, fallback: 0 }),
  mode: modeField,
  temperature: numberField({ label: "온도", min: 0.1, max: 3, fallback: 1, decimals: 1 }),
};

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// `store` keeps the state: the URL on our pages, the element's attributes in an embed.
export function mount(root, runtime, store = urlStore) {
  const { state, warnings } = store.load(ID, SCHEMA);
  let startId = 0; // the id of "<s>": corrected from the first reply's vocabulary
  let tokens = [startId]; // the ids the shown step was computed for (the last is its input)
  let reply = null;
  let epoch = 0; // bumped by every action that makes answers in flight stale
  let pending = 0;
  let generating = false;
  let runs = 0; // generate loops started: a stale loop stops
  let lastFailed = null;

  // --- controls
  const stepButton = button("한 단계", "step", () => step());
  const generateButton = button("문장 끝까지", "generate", toggleGenerate);
  const resetButton = button("처음으로", "reset", () => restart());
  stepButton.classList.add("is-primary");
  const modeSelect = element(
    "select",
    { "data-control": "mode", class: "mode-select" },
    Object.entries(MODES).map(([value, text]) => new Option(text, value)),
  );
  modeSelect.value = state.mode;
  const temperature = slider({
    control: "temperature",
    label: "온도",
    min: 0.1,
    max: 3,
    step: 0.1,
    value: state.temperature,
    format: (t) => t.toFixed(1),
    onInput(t) {
      state.temperature = Number(t.toFixed(1));
      settingsChanged();
    },
  });
  const seedBox = seedInput(
    state.seed,
    (text) => message.show(text),
    (seed) => {
      state.seed = seed;
      store.save(ID, SCHEMA, state);
      generating = false;
      clearError();
      compute([startId]); // a new seed: a new sentence from the start
    },
  );
  const toolbar = element("div", { class: "demo-toolbar" }, [
    stepButton,
    generateButton,
    resetButton,
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
  const dims = element("div", { class: "lm-dims" }, [
    element("span", { class: "legend", text: "이 모델의 크기" }),
    shapes.node,
    element("p", {
      class: "lm-fixed-note",
      text: "이 너비 V는 모델을 만들 때 정해졌습니다. 어휘 목록에 없는 단어는 출력층에 칸이 없어서, 아무리 학습해도 나올 수 없습니다.",
    }),
  ]);
  const head = element("div", { class: "lm-head" }, [
    element("div", { class: "lm-sentence-box" }, [
      element("span", { class: "legend" }, [element("span", { text: "지금까지 만든 문장 · 단계 " }), stepCount.node]),
      sentence,
    ]),
    dims,
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
    element("div", { class: "out-row" }, [
      element("span", { class: "legend", text: "확률 상위 다섯 단어" }),
      probs.node,
    ]),
  ]);
  const legend = element("p", { class: "heat-legend lm-legend" }, [
    element("span", { class: "swatch swatch-positive" }),
    element("span", { text: "양수" }),
    element("span", { class: "swatch swatch-negative" }),
    element("span", { text: "음수 (행렬마다 가장 큰 |값|이 가장 진함)" }),
    element("span", { class: "swatch swatch-unit" }),
    element("span", { text: "0 → 1 (게이트, 확률)" }),
    element("span", { class: "swatch swatch-shape" }),
    element("span", { text: "가중치: 모양만" }),
  ]);
  const message = messageLine(retry);
  root.replaceChildren(toolbar, head, legend, figure, choice, message.node);
  root.dataset.state = "busy";

  // --- drawing
  const word = (id) => reply?.vocab?.[id] ?? String(id);

  const markDirty = redrawer(() => {
    if (!reply) {
      boxes.render({ stages: [], empty: "파이썬을 기다리는 중…" });
      return;
    }
    boxes.render({ stages: stages(reply) });
  });

  function stages(r) {
    const { H, V } = r.dims;
    const t = (name, label, kind, extra = {}) => ({
      name,
      label,
      kind,
      shape: r.tensors[name].shape,
      values: r.tensors[name].values,
      ...extra,
    });
    const w = (name, label) => ({ name, label, kind: "shape", shape: r.shapes[name] });
    const flat = r.shapes.p_flat;
    return [
      {
        name: "embed",
        title: "① 단어 id → 임베딩",
        formula: `입력 “${r.input.word}” (id ${r.input.id}), (배치, 시간) = ${joinShape(r.sequence.ids)} → xₜ = E의 ${r.input.id}번 행`,
        items: r.shapes.E
          ? [{ ...w("E", "E"), markRow: r.input.id }, { op: "→" }, t("x", "xₜ", "signed")]
          : [t("x", "xₜ", "signed")],
      },
      {
        name: "gates",
        title: "② 네 게이트의 앞 값",
        formula: "A = xₜWₓ + hₜ₋₁Wₕ + b",
        rows: [
          [t("x", "xₜ", "signed"), { op: "×" }, w("W_x", "Wₓ")],
          [t("h_prev", "hₜ₋₁", "signed"), { op: "×" }, w("W_h", "Wₕ")],
          [
            { op: "두 곱 + b" },
            { op: "=" },
            t("A", "A", "signed", {
              segments: [...PY.lm.gates].map((label, k) => ({ from: k * H, to: (k + 1) * H, label })),
            }),
          ],
        ],
      },
      {
        name: "split",
        title: "③ A를 넷으로 나누기",
        formula: "f, i, o = σ(…) ∈ (0, 1),  g = tanh(…)",
        items: [t("f", "f", "unit"), t("g", "g", "signed"), t("i", "i", "unit"), t("o", "o", "unit")],
      },
      {
        name: "cell",
        title: "④ 기억 갱신",
        formula: "cₜ = f ⊙ cₜ₋₁ + i ⊙ g,  hₜ = o ⊙ tanh(cₜ)",
        items: [
          t("c_prev", "cₜ₋₁", "signed"),
          { op: "→" },
          t("c", "cₜ", "signed"),
          { op: "→" },
          t("h", "hₜ", "signed"),
        ],
      },
      {
        name: "scores",
        title: "⑤ 어휘 점수",
        formula: `sₜ = hₜWₛ + bₛ, 시퀀스로 보면 (배치, 시간, V) = ${joinShape(r.sequence.scores)}`,
        rows: [
          [t("h", "hₜ", "signed"), { op: "×" }, w("W_s", "Wₛ")],
          [{ op: "곱 + bₛ" }, { op: "=" }, t("s", "sₜ", "signed", { shapeText: joinShape(r.sequence.scores) })],
        ],
      },
      {
        name: "softmax",
        title: "⑥ 소프트맥스 → 펼치기 → 고르기",
        formula: `pₜ = softmax(sₜ / 온도 ${state.temperature.toFixed(1)}) → ${joinShape(r.sequence.scores)}를 길이 ${V}로 펼치기 → ${state.mode === "greedy" ? "np.argmax(p)" : `np.random.default_rng(시드).choice(${V}, p=p)`}`,
        items: [
          t("p", "pₜ", "unit", { max: Math.max(...r.probs), shapeText: joinShape(r.sequence.scores) }),
          { op: "→" },
          {
            name: "p_flat",
            label: "p",
            kind: "unit",
            shape: [1, flat[flat.length - 1]],
            shapeText: `${flat.join("×")}`,
            values: [r.probs],
            max: Math.max(...r.probs),
            mark: r.token.id,
            accent: `V = ${V}`,
          },
        ],
      },
    ];
  }

  function renderSentence() {
    const chips = tokens.map((id, k) => {
      const last = k === tokens.length - 1;
      return element("span", {
        class: last ? "lm-word is-input" : "lm-word",
        text: word(id),
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
    stepCount.set(r.step, String(r.step));
    const { N, D, H, V } = r.dims;
    shapes.set(r.shapes, `N = ${N} · D = ${D} · H = ${H} · V = ${V}`);
    const top = r.probs
      .map((p, id) => [p, id])
      .sort((a, b) => b[0] - a[0])
      .slice(0, 5);
    probs.set(r.probs, top.map(([p, id]) => `${r.vocab[id]} ${percent(p)}`).join(" · "));
    token.set(r.token.word, r.done ? `${r.token.word} (문장 끝)` : r.token.word);
    renderSentence();
    updateControls();
    markDirty();
  }

  // --- requests: only the newest action's answers are shown
  function setBusy() {
    if (root.dataset.state === "error" && !pending) return;
    root.dataset.state = pending || generating ? "busy" : "idle";
  }

  async function compute(next) {
    const mine = ++epoch;
    pending += 1;
    setBusy();
    try {
      for (let attempt = 0; attempt < 3; attempt++) {
        let r;
        try {
          r = await runtime.call(ID, "step", {
            tokens: next,
            mode: state.mode,
            temperature: state.temperature,
            seed: state.seed,
          });
        } catch (err) {
          if (mine === epoch && err.kind === ERROR_KIND.restarted && attempt < 2) continue; // a new worker: the step is cheap, ask again
          throw err;
        }
        if (mine !== epoch) return null;
        const start = r.vocab.indexOf(START);
        if (start >= 0 && start !== next[0]) {
          // Our guess of the start token's id was wrong: ask again from the real one.
          startId = start;
          next = [start, ...next.slice(1)];
          continue;
        }
        tokens = next;
        lastFailed = null;
        if (message.node.classList.contains("is-error")) message.clear();
        apply(r);
        return r;
      }
      return null;
    } catch (err) {
      if (mine !== epoch) return null;
      lastFailed = next;
      generating = false;
      root.dataset.state = "error";
      message.show(`계산하지 못했습니다: ${err.message}`, { error: true });
      updateControls();
      return null;
    } finally {
      pending -= 1;
      setBusy();
    }
  }

  function updateControls() {
    const done = Boolean(reply?.done) || tokens.length > MAX_STEPS;
    stepButton.disabled = generating || !reply || done;
    generateButton.disabled = !generating && (!reply || done);
    generateButton.textContent = generating ? "멈추기" : "문장 끝까지";
    generateButton.setAttribute("aria-pressed", String(generating));
  }

  // --- actions
  function step() {
    if (!reply || reply.done) return;
    clearError();
    compute([...tokens, reply.token.id]);
  }

  async function toggleGenerate() {
    if (generating) {
      generating = false;
      updateControls();
      setBusy();
      return;
    }
    if (!reply || reply.done) return;
    clearError();
    generating = true;
    const run = ++runs;
    updateControls();
    setBusy();
    while (generating && run === runs && reply && !reply.done && tokens.length <= MAX_STEPS) {
      if (!reducedMotion()) await sleep(STEP_MS);
      if (!generating || run !== runs) break;
      if (!(await compute([...tokens, reply.token.id]))) break;
    }
    if (run !== runs) return;
    generating = false;
    updateControls();
    setBusy();
  }

  function restart() {
    generating = false;
    clearError();
    compute([startId]);
  }

  function retry() {
    message.clear();
    root.dataset.state = "busy";
    compute(lastFailed ?? [startId]);
  }

  function clearError() {
    if (root.dataset.state === "error") {
      message.clear();
      root.dataset.state = "idle";
    }
  }

  function settingsChanged() {
    store.save(ID, SCHEMA, state);
    generating = false;
    clearError();
    compute(tokens); // the same input, the new way of choosing
  }

  modeSelect.addEventListener("change", () => {
    state.mode = Object.hasOwn(MODES, modeSelect.value) ? modeSelect.value : "sample";
    settingsChanged();
  });

  updateControls();
  markDirty();
  compute(tokens);
  if (warnings.length) message.show(warnings.join(" "));
}
