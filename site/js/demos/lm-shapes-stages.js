// The LM prelude's pipeline: one generation step as six stages of tensor boxes, from a "step"
// reply of Python (every tensor with its real shape) and the way the next word is chosen.
import { PY } from "../generated/constants.js";

const joinShape = (shape) => shape.join("×");

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
      formula: `pₜ = softmax(sₜ / 온도 ${temperature.toFixed(1)}) → ${joinShape(r.sequence.scores)}를 길이 ${V}로 펼치기 → ${mode === "greedy" ? "np.argmax(p)" : `np.random.default_rng(시드).choice(${V}, p=p)`}`,
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
