// Demo 4's side panel (the step's decoder input, choice, output so far and candidate
// probabilities) and the note under the real model's steps.
import { LIMITS } from "../config.js";
import { percent } from "../ui/format.js";
import { element, output } from "./common.js";

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

// What the real mode shows, with the model card's measured accuracy at this many points.
export function modelNote(model, n) {
  const text =
    "학습한 LSTM 포인터 네트워크가 이 점들에서 실제로 낸 확률입니다. 이 모델은 가장 왼쪽 꼭짓점에서 출발해 껍질을 돕니다. 점을 끌어 옮기거나 빈 곳을 눌러 더하고 두 번 눌러 지우면 모델이 새 점 배치를 처음부터 다시 풉니다. 틀리는 배치도 찾아보세요.";
  const sizes = model?.demo_sizes;
  if (!sizes) return text;
  const shares = Object.values(sizes);
  const here = sizes[String(n)];
  const range = `${percent(Math.min(...shares))}–${percent(Math.max(...shares))}`;
  const tail = here === undefined ? "입니다." : `이고, 점이 ${n}개일 때는 ${percent(here)}입니다.`;
  return `${text} 이 모델(은닉 ${model.hidden}, 점 ${model.train_n.replace("-", "–")}개로 학습)이 점 ${LIMITS.minModelPoints}–${LIMITS.maxPoints}개짜리 평가 세트에서 정답 껍질을 그대로 낸 비율은 ${range}${tail}`;
}
