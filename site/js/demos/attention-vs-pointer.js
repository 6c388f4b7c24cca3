// [attention-vs-pointer], beside demo 3: the same 5–10 draggable points decoded step by step by
// two of our trained models. Left, the seq2seq with attention: lines from the decoder to every
// input, as thick as its attention weight, and the token its fixed output layer chose. Right, the
// hull Ptr-Net: its pointer distribution over the inputs and ⇐. Below, how much attention lies on
// the emitted point against chance, at this step, over the test sets and over training (panels
// module). Python decodes and measures; this controller steps through the answer and draws.
import { PY } from "../generated/constants.js";
import * as candidates from "../draw/candidates.js";
import { integerField, pointsField } from "../ui/fields.js";
import { redrawer } from "../ui/frame.js";
import { whenNearScreen } from "../ui/near-screen.js";
import { urlStore } from "../ui/permalink.js";
import { attach } from "../ui/point-editor.js";
import { overTraining, stepShare, testSets } from "./attention-vs-pointer-panels.js";
import { button, demoRequests, element, messageLine, notesLine, output, pointsNamed, slotColumn } from "./common.js";

const ID = "attention-vs-pointer";
const [MIN_POINTS, MAX_POINTS] = PY.attentionPoints;
const MAX_STEPS = 2 * MAX_POINTS + 2; // Python's decoding cap at the most points
export const SCHEMA = {
  points: pointsField(MAX_POINTS, PY.referencePoints, MIN_POINTS),
  step: integerField({ label: "단계", min: 1, max: MAX_STEPS, fallback: 1 }),
};

const samePoints = (a, b) => a.length === b.length && a.every((p, k) => p[0] === b[k][0] && p[1] === b[k][1]);

export function mount(root, runtime, store = urlStore) {
  const { state, warnings } = store.load(ID, SCHEMA);
  let answer = null;

  const prev = button("◀ 이전", "prev", () => goTo(state.step - 1));
  const next = button("다음 ▶", "next", () => goTo(state.step + 1));
  const reset = button("예제로 되돌리기", "reset", () => {
    state.points = SCHEMA.points.default();
    state.step = 1;
    changed();
  });
  const stepOut = output("step", "현재 단계");
  const total = element("span", { text: " / " });
  const toolbar = element("div", { class: "demo-toolbar" }, [
    element("div", { class: "step-buttons", role: "group", "aria-label": "단계 이동" }, [prev, next]),
    element("span", { class: "step-count" }, [element("span", { text: "단계 " }), stepOut.node, total]),
    reset,
  ]);

  const attention = output("attention", "seq2seq의 어텐션 가중치");
  const token = output("seq2seq_token", "seq2seq 출력층이 고른 토큰");
  const pointer = output("pointer", "Ptr-Net의 포인터 분포");
  const truth = output("truth", "정답 볼록 껍질");
  const outputs = { s2s: output("seq2seq_output", "seq2seq의 답"), ptr: output("pointer_output", "Ptr-Net의 답") };
  const share = stepShare();
  const record = testSets();
  const training = overTraining();
  function panel(name, title, label, lines) {
    const figure = element("div", { class: "demo-figure" });
    const drawing = candidates.create(figure, { label });
    drawing.canvas.dataset.panel = name;
    drawing.canvas.tabIndex = 0; // the point editor's keys work on a focused canvas
    return {
      drawing,
      node: element("figure", { class: "panel" }, [element("figcaption", { text: title }), figure, ...lines]),
    };
  }
  const left = panel(
    "seq2seq",
    "seq2seq + 어텐션 (고정 출력층 {1…10, ⇒, ⇐})",
    "seq2seq의 어텐션: 선의 굵기가 어텐션 가중치입니다. 점을 끌어 옮길 수 있습니다",
    [
      element("p", { class: "answer-line" }, [element("span", { class: "answer-tag", text: "이번 출력" }), token.node]),
      element("p", { class: "out-minor" }, [element("span", { text: "어텐션: " }), attention.node]),
      share.node,
      element("p", { class: "answer-line" }, [element("span", { class: "answer-tag", text: "답" }), outputs.s2s.node]),
    ],
  );
  const right = panel(
    "pointer",
    "포인터 네트워크",
    "Ptr-Net의 포인터 분포: 원의 넓이가 확률입니다. 점을 끌어 옮길 수 있습니다",
    [
      element("p", { class: "out-minor" }, [element("span", { text: "포인터: " }), pointer.node]),
      element("p", { class: "answer-line" }, [element("span", { class: "answer-tag", text: "답" }), outputs.ptr.node]),
    ],
  );
  const message = messageLine(() => compute());
  const notes = notesLine();
  root.replaceChildren(
    toolbar,
    element("div", { class: "panels panels-two" }, [left.node, right.node]),
    element("p", { class: "answer-line" }, [element("span", { class: "answer-tag", text: "정답" }), truth.node]),
    notes.node,
    message.node,
    record.node,
    training.node,
  );
  root.dataset.state = "busy";

  const steps = () => (answer ? Math.max(answer.seq2seq.length, answer.pointer.length) : 1);
  const atStep = (list) => list[Math.min(state.step, list.length) - 1];

  const markDirty = redrawer(() => {
    prev.disabled = state.step <= 1;
    next.disabled = state.step >= steps();
    for (const { drawing } of [left, right]) drawing.canvas.dataset.points = JSON.stringify(state.points);
    if (!answer || answer.points.length !== state.points.length) return; // indices of other points: wait
    const n = answer.points.length;
    const s = atStep(answer.seq2seq);
    const p = atStep(answer.pointer);
    const before = (list) => list.slice(0, Math.min(state.step, list.length) - 1);
    const s2sPath = pointsNamed(
      before(answer.seq2seq).map((x) => x.token),
      n,
    );
    left.drawing.render({
      points: answer.points,
      path: s2sPath,
      probs: [...s.attention, 0],
      labels: s.labels,
      rays: s.attention,
      chosen: slotColumn(s.token, n),
      input: s2sPath.length ? s2sPath[s2sPath.length - 1] : -1,
      endText: s.token === 0 ? "출력" : "",
    });
    const ptrPath = pointsNamed(
      before(answer.pointer).map((x) => x.choice),
      n,
    );
    right.drawing.render({
      points: answer.points,
      path: ptrPath,
      probs: p.probs,
      labels: p.labels,
      chosen: slotColumn(p.choice, n),
      input: ptrPath.length ? ptrPath[ptrPath.length - 1] : -1,
    });
  });

  function show() {
    const n = answer.points.length;
    state.step = Math.min(state.step, steps());
    stepOut.set(state.step, String(state.step));
    total.textContent = ` / ${steps()}`;
    const s = atStep(answer.seq2seq);
    const p = atStep(answer.pointer);
    attention.set(s.attention, s.text.attention);
    const missing = s.token > n ? ` (점이 ${n}개뿐이라 없는 점)` : "";
    const ended = state.step > answer.seq2seq.length ? " (이미 끝남)" : "";
    token.set(s.token, `${s.token === 0 ? "⇐" : s.token_text}${missing}${ended} · 어텐션이 가장 큰 점 P${s.peak}`);
    share.show(s, n);
    pointer.set(p.probs, p.text.probs);
    truth.set(answer.truth, answer.text.truth);
    notes.set(answer.notes);
    outputs.s2s.set(answer.seq2seq_output, answer.text.seq2seq_output);
    outputs.ptr.set(answer.pointer_output, answer.text.pointer_output);
    markDirty();
  }

  const request = demoRequests(root, runtime, ID, "solve", message, {
    onAnswer(reply) {
      answer = reply;
      record.show(reply);
      training.show(reply);
      show();
    },
  });

  function compute() {
    if (answer && samePoints(answer.points, state.points)) show();
    else request({ points: state.points });
  }

  function changed({ save = true } = {}) {
    if (save) store.save(ID, SCHEMA, state);
    if (!message.node.classList.contains("is-error")) message.clear();
    nearScreen.now();
    markDirty();
  }

  function goTo(step) {
    const clamped = Math.min(steps(), Math.max(1, step));
    if (clamped === state.step) return;
    state.step = clamped;
    changed();
  }

  for (const { drawing } of [left, right]) {
    drawing.canvas.classList.add("is-editable");
    attach(drawing, {
      getPoints: () => state.points,
      setPoints(points, { dragging = false } = {}) {
        state.points = points;
        state.step = 1;
        changed({ save: !dragging });
      },
      onDragEnd: () => store.save(ID, SCHEMA, state),
      minPoints: MIN_POINTS,
      maxPoints: MAX_POINTS,
      onLimit: () => message.show(`어텐션 seq2seq는 점 ${MAX_POINTS}개까지로 학습해서 더 놓을 수 없습니다.`),
      onMinimum: () => message.show(`점이 ${MIN_POINTS}개보다 적으면 두 모델을 견줄 수 없어 더 지우지 않았습니다.`),
      onSelect: () => {},
    });
  }

  // The trained weights are fetched only when the view comes near the screen.
  const nearScreen = whenNearScreen(root, compute);
  if (warnings.length) message.show(warnings.join(" "));
  markDirty();
}
