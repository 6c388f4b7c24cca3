// Demo 4 [hull-steps]: a hull decoded one step at a time, either by our trained Ptr-Net on
// points the reader can drag or pick from presets ("실제 모델", the default) or as the 7-point
// example with illustrative probabilities. Python gives each step's decoder input, choice, the
// n + 1 candidates' probabilities with their labels and the mask, and the model's accuracy at
// this n; this controller steps, plays and draws.
import { PY } from "../generated/constants.js";
import { LIMITS } from "../config.js";
import * as candidates from "../draw/candidates.js";
import { reducedMotion, toggle } from "../ui/controls.js";
import { booleanField, integerField, pointsField } from "../ui/fields.js";
import { redrawer } from "../ui/frame.js";
import { whenNearScreen } from "../ui/near-screen.js";
import { urlStore } from "../ui/permalink.js";
import { attach } from "../ui/point-editor.js";
import {
  button,
  demoRequests,
  element,
  messageLine,
  notesLine,
  output,
  pointIndex,
  pointsNamed,
  slotColumn,
} from "./common.js";
import { accuracyLine, MODEL_NOTE, presetSelect, samePoints, stepOutputs } from "./hull-steps-panels.js";

const ID = "hull-steps";
const EXAMPLE_STEPS = PY.hullSteps.exampleSteps;
const MAX_STEPS = PY.hullSteps.maxSteps; // the model's decoding is capped in Python
const EXAMPLE = PY.referencePoints;
export const SCHEMA = {
  step: integerField({ label: "단계", min: 1, max: MAX_STEPS, fallback: 1 }),
  mask: booleanField({ label: "마스크", fallback: false }),
  model: booleanField({ label: "실제 모델", fallback: true }),
  points: pointsField(LIMITS.maxModelPoints, EXAMPLE, LIMITS.minModelPoints),
};
const PLAY_INTERVAL = 1000; // ms per step while playing
const TWEEN = 280; // ms for the circles to grow or shrink between steps

const token = (index) => (index === 0 ? "⇐" : `P${index}`);
const inputToken = (index) => (index === 0 ? "⇒" : `P${index}`);
const ease = (t) => 1 - (1 - t) ** 3;

// `store` keeps the state: the URL on our pages, the element's attributes in an embed.
export function mount(root, runtime, store = urlStore) {
  const { state, warnings } = store.load(ID, SCHEMA);
  let result = null; // the step on screen: {points, step, steps, input, choice, probs, output, masked}
  let decoded = null; // the model's whole decoding of the current points
  let shown = null; // the probabilities on screen (tweened towards result.probs)
  let tween = null; // {from, start}
  let timer = null;

  const prev = button("◀ 이전", "prev", () => {
    stop();
    goTo(state.step - 1);
  });
  const play = button("▶ 재생", "play", () => (timer ? stop() : start()));
  play.setAttribute("aria-pressed", "false");
  const next = button("다음 ▶", "next", () => {
    stop();
    goTo(state.step + 1);
  });
  const stepOut = output("step", "현재 단계");
  const total = element("span", { text: " / " });
  const modelToggle = toggle({
    control: "model",
    label: "실제 학습한 모델",
    checked: state.model,
    onChange(model) {
      state.model = model;
      state.step = 1;
      decoded = null;
      changed();
    },
  });
  const maskToggle = toggle({
    control: "mask",
    label: "마스크: 이미 고른 점을 후보에서 빼기",
    checked: state.mask,
    onChange(mask) {
      state.mask = mask;
      changed();
    },
  });
  // A preset is for the real model: choosing one turns it on, with the points from step 1.
  const presets = presetSelect(state.points, (points) => {
    stop();
    state.points = points.map((p) => [...p]);
    state.step = 1;
    state.model = true;
    modelToggle.set(true);
    changed();
  });
  const toolbar = element("div", { class: "demo-toolbar" }, [
    element("div", { class: "step-buttons", role: "group", "aria-label": "단계 이동" }, [prev, play, next]),
    element("span", { class: "step-count" }, [element("span", { text: "단계 " }), stepOut.node, total]),
    modelToggle.node,
    maskToggle.node,
    presets.node,
  ]);

  const figure = element("div", { class: "demo-figure" });
  const drawing = candidates.create(figure, {
    label: "점과 후보들의 확률. 실제 모델 모드에서는 점을 끌거나 [ ]로 골라 화살표로 옮길 수 있습니다",
  });
  const { canvas } = drawing;
  const { node: side, input, choice, outputSoFar, probs, badge } = stepOutputs();
  const sourceNote = element("p", { class: "demo-note" });
  const accuracy = accuracyLine();
  const notes = element("div", { class: "demo-notes" }, [
    sourceNote,
    accuracy.node,
    element("p", {
      class: "demo-note",
      text: "마스크를 켜면 이미 고른 점은 후보에서 빠지고(×), 남은 확률이 다시 합이 1이 되도록 나뉩니다. 처음 고른 점(7점 예제에서는 P3)만은 다각형을 닫아야 하므로 끝까지 남습니다.",
    }),
  ]);
  const geometryNotes = notesLine(); // the model's own points only: the example's are in general position
  const message = messageLine(() => compute());
  root.replaceChildren(
    toolbar,
    element("div", { class: "demo-body steps-body" }, [figure, side]),
    notes,
    geometryNotes.node,
    message.node,
  );
  root.dataset.state = "busy";

  function show(view) {
    result = view;
    stepOut.set(view.step, String(view.step));
    total.textContent = ` / ${view.steps}`;
    input.set(view.input, inputToken(view.input));
    choice.set(view.choice, token(view.choice));
    outputSoFar.set(view.output, view.output_text);
    const labels = view.text.probs;
    probs.set(
      view.probs,
      labels.map((label, k) => `${k < labels.length - 1 ? `P${k + 1}` : "⇐"} ${label}`).join(" · "),
    );
    canvas.dataset.points = JSON.stringify(view.points);
    canvas.setAttribute(
      "aria-label",
      `단계 ${view.step}/${view.steps}: 디코더 입력 ${inputToken(view.input)}, 선택 ${token(view.choice)}, 지금까지의 출력 ${view.output_text}`,
    );
    tween =
      shown && shown.length === view.probs.length && !reducedMotion()
        ? { from: shown, start: performance.now() }
        : null;
    if (!tween) shown = view.probs;
    markDirty();
  }

  const requestExample = demoRequests(root, runtime, ID, "solve", message, {
    onAnswer: (answer) => show({ ...answer, steps: EXAMPLE_STEPS }),
    onError: () => stop(),
  });
  const requestModel = demoRequests(root, runtime, ID, "real", message, {
    onAnswer(answer) {
      decoded = answer;
      geometryNotes.set(answer.notes);
      accuracy.set(answer.accuracy, answer.text.accuracy);
      state.step = Math.min(state.step, answer.steps.length);
      show(modelStep(answer, state.step));
    },
    onError: () => stop(),
  });

  const stepCount = () => (state.model ? (decoded?.steps.length ?? 1) : EXAMPLE_STEPS);

  const markDirty = redrawer(() => {
    prev.disabled = state.step <= 1;
    next.disabled = state.step >= stepCount();
    if (!result) {
      drawing.render({});
      return;
    }
    if (tween) {
      const t = Math.min(1, (performance.now() - tween.start) / TWEEN);
      shown = result.probs.map((p, k) => tween.from[k] + (p - tween.from[k]) * ease(t));
      if (t < 1) markDirty();
      else tween = null;
    }
    const n = result.points.length;
    drawing.render({
      points: result.points,
      path: pointsNamed(result.output, n),
      probs: shown,
      labels: result.text.probs,
      masked: result.masked,
      chosen: slotColumn(result.choice, n),
      input: pointIndex(result.input, n),
    });
  });

  function compute() {
    badge.textContent = state.model ? "학습한 Ptr-Net이 낸 실제 확률" : "확률은 예시로 정한 값입니다";
    accuracy.node.hidden = !state.model;
    sourceNote.textContent = state.model
      ? MODEL_NOTE
      : "이 확률은 학습된 모델이 낸 값이 아니라 설명을 위해 예시로 정한 값입니다. 껍질 안쪽의 P1, P2, P7도 매 단계 후보로 남지만 선택되지는 않습니다.";
    canvas.classList.toggle("is-editable", state.model);
    // In the model's mode nothing is asked until the demo is near the screen (the weights wait).
    if (!state.model) {
      geometryNotes.set([]);
      requestExample({ step: Math.min(state.step, EXAMPLE_STEPS), mask: state.mask });
    } else if (!nearScreen.started()) return;
    else if (decoded && decoded.mask === state.mask && samePoints(decoded.points, state.points)) {
      geometryNotes.set(decoded.notes);
      show(modelStep(decoded, state.step));
    } else requestModel({ points: state.points, mask: state.mask });
  }

  function changed({ save = true } = {}) {
    if (!state.model) state.step = Math.min(state.step, EXAMPLE_STEPS);
    presets.sync(state.points);
    if (save) store.save(ID, SCHEMA, state);
    if (!message.node.classList.contains("is-error")) message.clear();
    nearScreen.now(); // also when used before it came into view (a script, the keyboard)
    markDirty();
  }

  function goTo(step) {
    const clamped = Math.min(stepCount(), Math.max(1, step));
    if (clamped === state.step) return;
    state.step = clamped;
    changed();
  }

  function start() {
    if (state.step >= stepCount()) goTo(1);
    play.textContent = "❚❚ 멈춤";
    play.setAttribute("aria-pressed", "true");
    timer = setInterval(() => {
      if (state.step < stepCount()) goTo(state.step + 1);
      if (state.step >= stepCount()) stop();
    }, PLAY_INTERVAL);
  }

  function stop() {
    if (!timer) return;
    clearInterval(timer);
    timer = null;
    play.textContent = "▶ 재생";
    play.setAttribute("aria-pressed", "false");
  }

  // In the model's mode the points can be dragged (mouse, touch) or moved with the keyboard.
  attach(drawing, {
    getPoints: () => (state.model ? state.points : []),
    setPoints(points, { dragging = false } = {}) {
      if (!state.model) return;
      state.points = points;
      state.step = 1;
      changed({ save: !dragging });
    },
    onDragEnd: () => store.save(ID, SCHEMA, state),
    minPoints: LIMITS.minModelPoints,
    maxPoints: LIMITS.maxModelPoints,
    onLimit: () => message.show(`점은 ${LIMITS.maxModelPoints}개까지만 놓을 수 있습니다.`),
    onMinimum: () =>
      message.show(`껍질을 풀려면 점이 ${LIMITS.minModelPoints}개 이상 있어야 해서 더 지우지 않았습니다.`),
    onSelect: () => {},
  });

  // In the model's mode the first answer needs the trained weights (fetched on first use).
  const nearScreen = whenNearScreen(root, compute);
  if (warnings.length) message.show(warnings.join(" "));
  if (!state.model) compute();
  markDirty();
}

// Step k of the model's decoding, in the shape the example's steps have.
function modelStep(decoded, step) {
  return { ...decoded.steps[step - 1], points: decoded.points, step, steps: decoded.steps.length };
}
