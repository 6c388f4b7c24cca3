// Demo 4's side panel (the step's decoder input, choice, output so far and candidate
// probabilities), its preset point sets, and the notes under the real model's steps.
import { PY } from "../generated/constants.js";
import { element, labelled, output, select } from "./common.js";

const PRESETS = PY.hullSteps.presets; // the 7-point example first, then where the model hesitates or errs
const CUSTOM = "custom"; // the select's value while the points are no preset's

export function stepOutputs() {
  const input = output("input", "디코더 입력");
  input.node.classList.add("step-token");
  const choice = output("choice", "이번 단계의 선택");
  choice.node.classList.add("step-token", "step-choice");
  const outputSoFar = output("output", "지금까지의 출력");
  const probs = output("probs", "후보들의 확률 (P1…Pn, ⇐)");
  probs.node.classList.add("probs-text");
  const badge = element("p", { class: "illustrative-badge" });
  const side = element("div", { class: "demo-outputs" }, [
    badge,
    element("div", { class: "step-pair" }, [
      element("div", { class: "out-row" }, [
        element("span", { class: "legend legend-input", text: "디코더 입력" }),
        input.node,
      ]),
      element("div", { class: "out-row" }, [
        element("span", { class: "legend legend-choice", text: "선택" }),
        choice.node,
      ]),
    ]),
    element("div", { class: "out-row" }, [
      element("span", { class: "legend legend-hull", text: "지금까지의 출력" }),
      outputSoFar.node,
    ]),
    element("div", { class: "out-row out-minor" }, [
      element("span", { class: "legend", text: "후보 확률 (원의 넓이 ∝ 확률)" }),
      probs.node,
    ]),
  ]);
  return { node: side, input, choice, outputSoFar, probs, badge };
}

// What the real mode shows (the accuracy line under it is Python's, from the results JSON).
export const MODEL_NOTE =
  "학습한 LSTM 포인터 네트워크가 이 점들에서 실제로 낸 확률입니다. 이 모델은 가장 왼쪽 꼭짓점에서 출발해 껍질을 돕니다. 점을 끌어 옮기거나 빈 곳을 눌러 더하고 두 번 눌러 지우면 모델이 새 점 배치를 처음부터 다시 풉니다. 틀리는 배치도 찾아보세요.";

// The model's measured accuracy at this many points, as Python wrote it: a sentence of the notes
// (a <p>, not an <output>, which the widgets set in monospace), its numbers in data-value.
export function accuracyLine() {
  const node = element("p", { class: "demo-note", "data-out": "accuracy" });
  return {
    node,
    set(data, text) {
      node.dataset.value = JSON.stringify(data);
      node.textContent = text;
    },
  };
}

// The preset <select>: choosing one calls onChoose(points); sync(points) shows which preset the
// points are (the permalink keeps only the points), or "직접 놓은 점" when none.
export function presetSelect(points, onChoose) {
  const presetOf = (now) => PRESETS.find((preset) => samePoints(preset.points, now))?.id ?? CUSTOM;
  const options = [...PRESETS.map((preset) => [preset.id, preset.label]), [CUSTOM, "직접 놓은 점"]];
  const node = select("preset", options, presetOf(points));
  node.querySelector(`option[value="${CUSTOM}"]`).disabled = true;
  node.addEventListener("change", () => onChoose(PRESETS.find((preset) => preset.id === node.value).points));
  return {
    node: labelled("점 배치", node),
    sync(now) {
      node.value = presetOf(now);
    },
  };
}

export const samePoints = (a, b) => a.length === b.length && a.every((p, k) => p[0] === b[k][0] && p[1] === b[k][1]);
