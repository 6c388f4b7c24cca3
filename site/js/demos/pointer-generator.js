// Demo 7 [pointer-generator]: generate from a fixed vocabulary or copy from the source
// (See, Liu & Manning 2017). Python mixes P(w) = p_gen·P_vocab(w) + (1 − p_gen)·Σ a_i for the
// slider's p_gen; this controller draws the three distributions and the chosen word.
import { COLORS } from "../config.js";
import * as barChart from "../draw/bars.js";
import { slider } from "../ui/controls.js";
import { numberField } from "../ui/fields.js";
import { redrawer } from "../ui/frame.js";
import { urlStore } from "../ui/permalink.js";
import { demoRequests, element, messageLine, output } from "./common.js";

const ID = "pointer-generator";
export const SCHEMA = { p_gen: numberField({ label: "p_gen", min: 0, max: 1, fallback: 0.3, decimals: 2 }) };
const ORIGIN = {
  source: { text: "원문에서만 (복사)", color: () => COLORS.copy },
  vocab: { text: "어휘에서만 (생성)", color: () => COLORS.generate },
  both: { text: "둘 다", color: () => COLORS.both },
};
const ORIGIN_SHORT = { source: "원문에서 복사", vocab: "어휘에서 생성", both: "복사와 생성 모두" };

const starred = (word, oov) => (oov ? `${word}★` : word);

// `store` keeps the state: the URL on our pages, the element's attributes in an embed.
export function mount(root, runtime, store = urlStore) {
  const { state, warnings } = store.load(ID, SCHEMA);
  let result = null;

  const pSlider = slider({
    control: "p-gen",
    label: "p_gen (생성할 확률)",
    min: 0,
    max: 1,
    step: 0.01,
    value: state.p_gen,
    format: (p) => p.toFixed(2),
    onInput(p) {
      state.p_gen = p;
      store.save(ID, SCHEMA, state);
      if (!message.node.classList.contains("is-error")) message.clear();
      compute();
    },
  });
  const source = element("p", { class: "source-sentence", "aria-label": "원문" });
  const formula = element("p", { class: "pg-formula", "aria-live": "off" });
  const header = element("div", { class: "pg-header" }, [
    element("div", { class: "pg-source" }, [
      element("span", { class: "legend", text: "원문" }),
      source,
      element("span", { class: "out-minor", text: "★ 어휘 목록에 없는 단어(OOV): 복사로만 나올 수 있습니다" }),
    ]),
    element("p", { class: "illustrative-badge", text: "예시 값" }),
  ]);
  const toolbar = element("div", { class: "demo-toolbar" }, [pSlider.node]);

  const chart = (title, caption) => {
    const holder = element("div", { class: "bars-figure" });
    const node = element("figure", { class: "pg-chart" }, [element("figcaption", { text: title }), holder]);
    if (caption) node.append(caption);
    return { node, bars: barChart.create(holder, { label: title }) };
  };
  const legend = element(
    "ul",
    { class: "origin-legend", "aria-label": "막대 색: 단어가 어디서 왔는지" },
    Object.entries(ORIGIN).map(([name, { text }]) => element("li", { class: `origin-${name}`, text })),
  );
  const copyChart = chart("복사 분포: 원문 위 어텐션 a_i");
  const vocabChart = chart("생성 분포: P_vocab(w)");
  const finalChart = chart("최종 분포 P(w)", legend);

  const pGen = output("p_gen", "p_gen");
  const final = output("final", "최종 분포 P(w)");
  const chosen = output("chosen", "선택된 단어");
  const chosenOrigin = element("span", { class: "chosen-origin" });
  const summary = element("div", { class: "pg-summary" }, [
    element("div", { class: "pg-chosen" }, [
      element("span", { class: "legend", text: "가장 확률이 높은 단어" }),
      chosen.node,
      chosenOrigin,
    ]),
    element("div", { class: "out-row out-minor" }, [element("span", { class: "legend", text: "p_gen" }), pGen.node]),
    element("div", { class: "out-row out-minor" }, [
      element("span", { class: "legend", text: "최종 분포 상위 세 단어" }),
      final.node,
    ]),
  ]);
  const notes = element("div", { class: "demo-notes" }, [
    element("p", {
      class: "demo-note",
      text: "양 끝을 보면 두 분포의 역할이 드러납니다. p_gen = 1이면 원문을 베낄 길이 닫혀 Okonkwo는 나올 수 없고, 어휘 쪽이 내놓을 수 있는 가장 가까운 답은 [UNK]뿐입니다. p_gen = 0이면 거꾸로 원문에 적힌 단어 말고는 아무것도 나오지 않습니다. 이 예문에는 겹치는 단어가 없지만, 한 단어가 원문 두 곳에 있으면 복사 막대는 두 자리의 어텐션을 합친 높이가 됩니다.",
    }),
  ]);
  const message = messageLine(() => compute());
  root.replaceChildren(
    header,
    toolbar,
    formula,
    element("div", { class: "pg-charts" }, [copyChart.node, vocabChart.node, finalChart.node]),
    summary,
    notes,
    message.node,
  );
  root.dataset.state = "busy";
  const formulaNow = element("span", { class: "pg-formula-now" });
  formula.replaceChildren(
    element("span", {
      text: "P(w) = p_gen · P_vocab(w) + (1 − p_gen) · Σ a_i (원문에서 w_i = w인 자리 i를 모두 더함)",
    }),
    formulaNow,
  );

  const request = demoRequests(root, runtime, ID, "solve", message, {
    onAnswer(answer) {
      result = answer;
      const { text } = answer;
      pGen.set(answer.p_gen, text.p_gen);
      final.set(answer.final, text.top);
      const oov = new Set(answer.source.filter((_, i) => answer.oov[i]));
      chosen.set(answer.chosen, starred(answer.chosen, oov.has(answer.chosen)));
      chosenOrigin.textContent = ORIGIN_SHORT[answer.origin[answer.chosen]];
      source.replaceChildren(
        ...answer.source.map((word, i) =>
          element("span", {
            class: answer.oov[i] ? "source-word is-oov" : "source-word",
            text: starred(word, answer.oov[i]),
          }),
        ),
      );
      formulaNow.textContent = `지금: P(w) = ${text.p_gen} · P_vocab(w) + ${text.copy_share} · Σ a_i`;
      markDirty();
    },
  });

  const markDirty = redrawer(() => {
    if (!result) return;
    const { source: words, oov, attention, vocab, final: mixed, origin, chosen: winner, text } = result;
    // One scale for all three charts, so their bars compare: every P(w) is at most the
    // largest attention or vocabulary probability.
    const max = Math.ceil(Math.max(...attention, ...Object.values(vocab)) * 10) / 10;
    copyChart.bars.render({
      max,
      bars: words.map((word, i) => ({
        label: starred(word, oov[i]),
        value: attention[i],
        text: text.attention[i],
        color: COLORS.copy,
      })),
    });
    vocabChart.bars.render({
      max,
      bars: Object.entries(vocab).map(([word, p]) => ({
        label: word,
        value: p,
        text: text.vocab[word],
        color: COLORS.generate,
      })),
    });
    const oovWords = new Set(words.filter((_, i) => oov[i]));
    finalChart.bars.render({
      max,
      bars: Object.entries(mixed).map(([word, p]) => ({
        label: starred(word, oovWords.has(word)),
        value: p,
        text: text.final[word],
        color: ORIGIN[origin[word]].color(),
        highlight: word === winner,
      })),
    });
  });

  function compute() {
    request({ p_gen: state.p_gen });
  }

  if (warnings.length) message.show(warnings.join(" "));
  compute();
}
