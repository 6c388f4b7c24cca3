// Demo 3 [mix-vs-point]: five fixed encoder states and a draggable decoder vector d. Python
// scores u_j = e_j · d, takes the softmax, mixes d′ = Σ a_j e_j and points at the argmax;
// this controller only draws and reports what it gets back.
//
// The canvas shows d in [-RANGE, RANGE]²; its data-points is the tip of d as [[u, v]] in unit
// coordinates of that square (d = ((u − 0.5)·2·RANGE, (v − 0.5)·2·RANGE)), and data-viewport
// places the square, as on every points canvas. data-out="d" holds d itself.
import { COLORS } from "../config.js";
import * as barChart from "../draw/bars.js";
import * as vectorCanvas from "../draw/vectors.js";
import { vectorField } from "../ui/fields.js";
import { redrawer } from "../ui/frame.js";
import { urlStore } from "../ui/permalink.js";
import { button, demoRequests, element, messageLine, output, pointIndex } from "./common.js";

const ID = "mix-vs-point";
const RANGE = 2; // the canvas shows [-2, 2]²; the encoder states have length about 1
const DEFAULT_D = [1.2, 1.0];
export const SCHEMA = { d: vectorField({ label: "디코더 벡터 d", min: -RANGE, max: RANGE, fallback: DEFAULT_D }) };
const KEY_STEP = 0.1; // arrow keys; Shift: 5×

const round2 = (value) => Math.round(value * 100) / 100;
const clampToView = (value) => Math.min(RANGE, Math.max(-RANGE, value));

// `store` keeps the state: the URL on our pages, the element's attributes in an embed.
export function mount(root, runtime, store = urlStore) {
  const { state, warnings } = store.load(ID, SCHEMA);
  let result = null;

  const toolbar = element("div", { class: "demo-toolbar" }, [
    button("d를 두 배로", "longer", () => scaleD(2)),
    button("d를 절반으로", "shorter", () => scaleD(0.5)),
    button("처음 d로", "reset", () => setD(SCHEMA.d.default())),
  ]);
  const figure = element("div", { class: "demo-figure" });
  const drawing = vectorCanvas.create(figure, {
    label: "인코더 상태 e1–e5와 디코더 벡터 d. d의 끝을 끌거나, 캔버스를 누른 뒤 화살표 키로 옮기세요(Shift: 빠르게).",
    range: RANGE,
  });
  const { canvas } = drawing;

  const barsHolder = element("div", { class: "bars-figure" });
  const bars = barChart.create(barsHolder, { label: "소프트맥스 가중치 a_j" });
  const weights = output("weights", "소프트맥스 가중치 a1–a5");
  const dOut = output("d", "디코더 벡터 d");
  const mixed = output("mixed", "어텐션 출력 d′ = Σ a_j e_j");
  const pointer = output("pointer", "포인터 출력");
  const sharpness = output("max_weight", "가장 큰 가중치");
  const side = element("div", { class: "demo-outputs" }, [
    element("div", { class: "out-row" }, [
      element("span", { class: "legend", text: "소프트맥스 가중치 a_j = softmax(e_j · d)" }),
      barsHolder,
      weights.node,
    ]),
    element("div", { class: "out-row" }, [
      element("span", { class: "legend legend-decoder", text: "디코더 벡터 d" }),
      dOut.node,
    ]),
    element("div", { class: "out-row" }, [
      element("span", { class: "legend legend-mixed", text: "어텐션: 섞은 결과 d′ = Σ a_j e_j" }),
      mixed.node,
    ]),
    element("div", { class: "out-row" }, [
      element("span", { class: "legend legend-pointer", text: "포인터: 가장 큰 a_j가 가리키는 입력" }),
      pointer.node,
    ]),
    element("div", { class: "out-row out-minor" }, [
      element("span", { class: "legend", text: "가장 큰 가중치" }),
      sharpness.node,
    ]),
  ]);
  const notes = element("div", { class: "demo-notes" }, [
    element("p", {
      class: "demo-note",
      text: "d가 길수록 점수 차이가 커져 분포가 뾰족해집니다. 그러면 d′도 가장 큰 가중치의 e_j 쪽으로 끌려가지만, 여러 입력을 섞은 값이라 다각형 안쪽을 벗어나지 못합니다.",
    }),
    element("p", {
      class: "demo-note",
      text: "여기서는 계산을 단순하게 하려고 점수를 내적 u_j = e_j · d로 매깁니다. 논문은 학습되는 매개변수로 만든 덧셈형 점수 u_j = vᵀ tanh(W₁e_j + W₂d_i)를 씁니다.",
    }),
  ]);
  const message = messageLine(() => compute());
  root.replaceChildren(toolbar, element("div", { class: "demo-body mix-body" }, [figure, side]), notes, message.node);
  root.dataset.state = "busy";

  const request = demoRequests(root, runtime, ID, "solve", message, {
    onAnswer(answer) {
      result = answer;
      const { text } = answer;
      weights.set(answer.weights, text.weights.map((a, j) => `a${j + 1} ${a}`).join(" · "));
      dOut.set(answer.d, `${text.d}, 길이 ${text.d_length}`);
      mixed.set(answer.mixed, text.mixed);
      pointer.set(
        answer.pointer,
        `e${answer.pointer} (a${answer.pointer} = ${text.weights[pointIndex(answer.pointer, text.weights.length)]})`,
      );
      sharpness.set(answer.max_weight, `${text.max_weight} · 엔트로피 ${text.entropy} (자연로그)`);
      markDirty();
    },
  });

  const markDirty = redrawer(() => {
    const view = { handle: { to: state.d, label: "d", color: COLORS.decoder } };
    if (result) {
      // The encoder states come in counter-clockwise order around a convex pentagon.
      view.polygon = result.encoders;
      view.arrows = result.encoders.map((e, j) => ({
        to: e,
        label: `e${j + 1}`,
        color: COLORS.encoder,
        highlight: j + 1 === result.pointer,
      }));
      view.marker = { at: result.mixed, label: "d′", color: COLORS.mixed, away: state.d };
      bars.render({
        bars: result.weights.map((a, j) => ({
          label: `e${j + 1}`,
          value: a,
          text: result.text.shares[j],
          color: j + 1 === result.pointer ? COLORS.pointer : COLORS.bar,
          highlight: j + 1 === result.pointer,
        })),
      });
    }
    drawing.render(view);
  });

  function compute() {
    request({ d: state.d });
  }

  function setD(d) {
    state.d = d.map((v) => round2(clampToView(v)));
    canvas.dataset.points = JSON.stringify([drawing.toUnitSquare(state.d)]);
    store.save(ID, SCHEMA, state);
    if (!message.node.classList.contains("is-error")) message.clear();
    compute();
    markDirty();
  }

  // Longer or shorter in the same direction, as far as the square allows.
  function scaleD(factor) {
    const largest = Math.max(...state.d.map(Math.abs));
    if (largest > 0) setD(state.d.map((v) => v * Math.min(factor, RANGE / largest)));
  }

  // Mouse and touch: press anywhere in the square to put the tip there, then drag.
  let dragging = false;
  canvas.addEventListener("pointerdown", (event) => {
    if (event.button !== 0) return;
    dragging = true;
    canvas.setPointerCapture(event.pointerId);
    setD(drawing.toVector(event.clientX, event.clientY));
  });
  canvas.addEventListener("pointermove", (event) => {
    if (dragging) setD(drawing.toVector(event.clientX, event.clientY));
  });
  const endDrag = () => {
    dragging = false;
  };
  canvas.addEventListener("pointerup", endDrag);
  canvas.addEventListener("pointercancel", endDrag);
  canvas.addEventListener("keydown", (event) => {
    const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
    if (!steps[event.key]) return;
    event.preventDefault();
    const size = KEY_STEP * (event.shiftKey ? 5 : 1);
    setD(state.d.map((v, k) => v + steps[event.key][k] * size));
  });

  canvas.dataset.points = JSON.stringify([drawing.toUnitSquare(state.d)]);
  if (warnings.length) message.show(warnings.join(" "));
  compute();
  markDirty();
}
