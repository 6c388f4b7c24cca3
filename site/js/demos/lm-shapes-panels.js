// The LM prelude's pipeline: one generation step as six stages of tensor boxes, from a "step"
// reply of Python (every tensor with its real shape) and the way the next word is chosen.
import { PY } from "../generated/constants.js";

const joinShape = (shape) => shape.join("×");

// g is the candidate memory (tanh, −1 → 1); f, i and o are gates (σ, 0 → 1).
const squash = (gate) => (gate === "g" ? "tanh" : "σ");

// A's 4H columns as Python lays them out (PY.lm.gates, f | g | i | o): each gate's column range.
export function gateLayout(H) {
  return [...PY.lm.gates].map((gate, k) => ({ gate, from: k * H, to: (k + 1) * H }));
}

// A gate's slice of A in numpy's notation, e.g. "A[:, 16:32]".
function slice({ from, to }, width) {
  return `A[:, ${from ? from : ""}:${to < width ? to : ""}]`;
}

export function stages(r, { mode, temperature }) {
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
  const layout = gateLayout(H);
  // W_x, W_h and A share the 4H axis: the same four column ranges are named over each
  const segments = layout.map(({ gate, from, to }) => ({ from, to, label: gate }));
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
      title: "② 네 게이트의 앞 값을 한 번에",
      formula: `A = xₜWₓ + hₜ₋₁Wₕ + b, 4H = ${4 * H}열: ${PY.lm.gates.split("").join(" | ")}, 각 H = ${H}열`,
      rows: [
        [t("x", "xₜ", "signed"), { op: "×" }, { ...w("W_x", "Wₓ"), segments }],
        [t("h_prev", "hₜ₋₁", "signed"), { op: "×" }, { ...w("W_h", "Wₕ"), segments }],
        [{ op: "두 곱 + b" }, { op: "=" }, t("A", "A", "signed", { segments })],
      ],
    },
    {
      name: "split",
      title: "③ A를 넷으로 나누기",
      formula: layout.map((part) => `${part.gate} = ${squash(part.gate)}(${slice(part, 4 * H)})`).join(",  "),
      items: layout.map(({ gate }) => t(gate, gate, gate === "g" ? "signed" : "unit")),
    },
    {
      name: "cell",
      title: "④ 기억 갱신",
      formula: "cₜ = f ⊙ cₜ₋₁ + i ⊙ g,  hₜ = o ⊙ tanh(cₜ)",
      items: [t("c_prev", "cₜ₋₁", "signed"), { op: "→" }, t("c", "cₜ", "signed"), { op: "→" }, t("h", "hₜ", "signed")],
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
      formula: `pₜ = softmax(sₜ / 온도 ${temperature.toFixed(1)}) → ${joinShape(r.sequence.scores)} 모양을 길이 ${V}의 벡터로 펼치기 → ${mode === "greedy" ? "np.argmax(p)" : `np.random.default_rng(시드).choice(${V}, p=p)`}`,
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
