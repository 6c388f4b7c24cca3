// Demo 4 [hull-steps]: the 7-point example decoded one step at a time. Python gives each
// step's decoder input, choice, the eight candidates' (illustrative) probabilities and the
// mask; this controller steps, plays and draws.
import * as candidates from "../draw/candidates.js";
import { formatProbability } from "../draw/candidates.js";
import { reducedMotion, toggle } from "../ui/controls.js";
import { booleanField, integerField } from "../ui/fields.js";
import { redrawer } from "../ui/frame.js";
import { urlStore } from "../ui/permalink.js";
import { button, demoRequests, element, messageLine, output } from "./common.js";

const ID = "hull-steps";
const STEPS = 6;
const SCHEMA = {
  step: integerField({ label: "단계", min: 1, max: STEPS, fallback: 1 }),
  mask: booleanField({ label: "마스크", fallback: false }),
};
const PLAY_INTERVAL = 1000; // ms per step while playing
const TWEEN = 280; // ms for the circles to grow or shrink between steps

const token = (index) => (index === 0 ? "⇐" : `P${index}`);
const inputToken = (index) => (index === 0 ? "⇒" : `P${index}`);
// The output so far in the page's notation: ⇒ 3 → 6 → 4 (… ⇐ once the end is chosen).
function formatOutput(output) {
  const points = output.filter((index) => index !== 0);
  const ended = output.length > points.length;
  return `⇒ ${points.join(" → ")}${ended ? " ⇐" : ""}`;
}
const ease = (t) => 1 - (1 - t) ** 3;

// `store` keeps the state: the URL on our pages, the element's attributes in an embed.
export function mount(root, runtime, store = urlStore) {
  const { state, warnings } = store.load(ID, SCHEMA);
  let result = null;
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
  const maskToggle = toggle({
    control: "mask",
    label: "마스크: 이미 고른 점을 후보에서 빼기",
    checked: state.mask,
    onChange(mask) {
      state.mask = mask;
      changed();
    },
  });
  const toolbar = element("div", { class: "demo-toolbar" }, [
    element("div", { class: "step-buttons", role: "group", "aria-label": "단계 이동" }, [prev, play, next]),
    element("span", { class: "step-count" }, [element("span", { text: "단계 " }), stepOut.node, element("span", { text: ` / ${STEPS}` })]),
    maskToggle.node,
  ]);

  const figure = element("div", { class: "demo-figure" });
  const drawing = candidates.create(figure, { label: "7점 예제와 여덟 후보의 확률" });
  const { canvas } = drawing;
  const input = output("input", "디코더 입력");
  input.node.classList.add("step-token");
  const choice = output("choice", "이번 단계의 선택");
  choice.node.classList.add("step-token", "step-choice");
  const outputSoFar = output("output", "지금까지의 출력");
  const probs = output("probs", "후보 여덟 개의 확률 (P1–P7, ⇐)");
  probs.node.classList.add("probs-text");
  const side = element("div", { class: "demo-outputs" }, [
    element("p", { class: "illustrative-badge", text: "확률은 예시로 정한 값입니다" }),
    element("div", { class: "step-pair" }, [
      element("div", { class: "out-row" }, [element("span", { class: "legend legend-input", text: "디코더 입력" }), input.node]),
      element("div", { class: "out-row" }, [element("span", { class: "legend legend-choice", text: "선택" }), choice.node]),
    ]),
    element("div", { class: "out-row" }, [element("span", { class: "legend legend-hull", text: "지금까지의 출력" }), outputSoFar.node]),
    element("div", { class: "out-row out-minor" }, [element("span", { class: "legend", text: "후보 확률 (원의 넓이 ∝ 확률)" }), probs.node]),
  ]);
  const notes = element("div", { class: "demo-notes" }, [
    element("p", {
      class: "demo-note",
      text: "이 확률은 학습된 모델이 낸 값이 아니라 설명을 위해 예시로 정한 값입니다. 껍질 안쪽의 P1, P2, P7도 매 단계 후보로 남지만 선택되지는 않습니다.",
    }),
    element("p", {
      class: "demo-note",
      text: "마스크를 켜면 이미 고른 점은 후보에서 빠지고(×), 남은 확률이 다시 합이 1이 되도록 나뉩니다. 출발점 P3만은 다각형을 닫아야 하므로 끝까지 남습니다.",
    }),
  ]);
  const message = messageLine(() => compute());
  root.replaceChildren(toolbar, element("div", { class: "demo-body steps-body" }, [figure, side]), notes, message.node);
  root.dataset.state = "busy";

  const request = demoRequests(root, runtime, ID, "solve", message, {
    onAnswer(answer) {
      result = answer;
      stepOut.set(answer.step, String(answer.step));
      input.set(answer.input, inputToken(answer.input));
      choice.set(answer.choice, token(answer.choice));
      outputSoFar.set(answer.output, formatOutput(answer.output));
      probs.set(answer.probs, answer.probs.map((p, k) => `${k < answer.probs.length - 1 ? `P${k + 1}` : "⇐"} ${answer.masked[k] ? "가림" : formatProbability(p)}`).join(" · "));
      canvas.dataset.points = JSON.stringify(answer.points);
      canvas.setAttribute("aria-label", `단계 ${answer.step}/${STEPS}: 디코더 입력 ${inputToken(answer.input)}, 선택 ${token(answer.choice)}, 지금까지의 출력 ${formatOutput(answer.output)}`);
      tween = shown && !reducedMotion() ? { from: shown, start: performance.now() } : null;
      if (!tween) shown = answer.probs;
      markDirty();
    },
    onError() {
      stop();
    },
  });

  const markDirty = redrawer(() => {
    prev.disabled = state.step <= 1;
    next.disabled = state.step >= STEPS;
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
      path: result.output.filter((index) => index !== 0).map((index) => index - 1),
      probs: shown,
      masked: result.masked,
      chosen: result.choice === 0 ? n : result.choice - 1,
      input: result.input === 0 ? -1 : result.input - 1,
    });
  });

  function compute() {
    request({ step: state.step, mask: state.mask });
  }

  function changed() {
    store.save(ID, SCHEMA, state);
    if (!message.node.classList.contains("is-error")) message.clear();
    compute();
    markDirty();
  }

  function goTo(step) {
    const clamped = Math.min(STEPS, Math.max(1, step));
    if (clamped === state.step) return;
    state.step = clamped;
    changed();
  }

  function start() {
    if (state.step >= STEPS) goTo(1);
    play.textContent = "❚❚ 멈춤";
    play.setAttribute("aria-pressed", "true");
    timer = setInterval(() => {
      if (state.step >= STEPS) stop();
      else goTo(state.step + 1);
      if (state.step >= STEPS) stop();
    }, PLAY_INTERVAL);
  }

  function stop() {
    if (!timer) return;
    clearInterval(timer);
    timer = null;
    play.textContent = "▶ 재생";
    play.setAttribute("aria-pressed", "false");
  }

  if (warnings.length) message.show(warnings.join(" "));
  compute();
  markDirty();
}
