// The NPLM prelude's three figures: the held-out perplexity curve against the trigram's, the map
// of the learned word vectors, and the probability of a sentence the corpus never contains. Each
// is { node, draw(…) }; the controller owns the state.
import { COLORS } from "../config.js";
import * as barChart from "../draw/bars.js";
import * as lineChart from "../draw/linechart.js";
import * as wordMap from "../draw/wordmap.js";
import { element, formatCount, output } from "./common.js";

// The corpus's word roles, in Korean for the map's legend (unknown roles are shown as given).
const ROLE_NAMES = {
  boundary: "문장 경계",
  determiner: "관사",
  animal: "동물",
  auxiliary: "조동사",
  verb: "동사",
  preposition: "전치사",
  place: "장소",
  furniture: "가구",
  adjective: "형용사",
  food: "음식",
};

// The unseen sentence's three scores, in the order the sentence panel lists them: Python's key, name, colour.
const SCORED = [
  ["model", "지금의 신경망", COLORS.neural],
  ["untrained", "학습 전 신경망", COLORS.untrained],
  ["trigram", "3-그램", COLORS.trigram],
];

// Python's written numbers (reply.text[name]) for the three scores, as one line.
const threeScores = (written) => SCORED.map(([key, name]) => `${name} ${written[key]}`).join(" · ");

export function curvePanel() {
  const figure = element("div", { class: "loss-figure" });
  const chart = lineChart.create(figure, {
    label: "퍼플렉서티 곡선: 가로축은 반복, 세로축은 처음 보는 문장에서의 퍼플렉서티, 점선은 3-그램 기준",
    aspect: 0.62,
  });
  const node = element("figure", { class: "panel nplm-curve" }, [
    element("figcaption", { text: "처음 보는 문장에서의 퍼플렉서티" }),
    figure,
  ]);

  // curve: the model's perplexity after each chunk; trigram: the baseline's (null before Python answers).
  function draw(curve, trigram) {
    const right = Math.max(100, curve.last ?? 0);
    const high = Math.max(trigram ?? 10, ...curve.ys);
    const low = Math.min(trigram ?? 1, ...curve.ys);
    const series = [];
    if (trigram !== null)
      series.push({ xs: [0, right], ys: [trigram, trigram], color: COLORS.trigram, width: 2, dash: [6, 4] });
    series.push({ xs: curve.xs, ys: curve.ys, color: COLORS.neural, width: 2.2 });
    chart.render({
      x: { min: 0, max: right, label: "반복", format: formatCount },
      y: {
        min: Math.max(1, low * 0.7),
        max: Math.max(high * 1.15, low * 2),
        log: true,
        label: "퍼플렉서티 (로그 눈금)",
      },
      series,
      legend: [
        { label: "신경망 언어 모델", color: COLORS.neural },
        { label: "3-그램 (세기)", color: COLORS.trigram, dash: [6, 4] },
      ],
      empty: "‘학습 시작’을 누르면 곡선이 그려집니다",
    });
  }

  return { node, draw };
}

export function mapPanel() {
  const figure = element("div", { class: "wordmap-figure" });
  const map = wordMap.create(figure, { label: "학습된 단어 벡터를 2차원에 옮긴 지도: 같은 역할의 단어는 같은 색" });
  const vectors = output("vectors", "단어 벡터의 2차원 좌표");
  vectors.clear("—");
  const node = element("figure", { class: "panel nplm-map" }, [
    element("figcaption", { text: "단어 벡터 지도" }),
    figure,
    element("p", { class: "out-minor model-line" }, [element("span", { text: "점: " }), vectors.node]),
  ]);

  // summary: the latest NPLM reply ({vectors, roles}), or null.
  function draw(summary) {
    if (!summary) {
      map.render({ points: [], legend: [], empty: "파이썬을 기다리는 중…" });
      return;
    }
    const roles = summary.roles ?? {};
    const names = [...new Set(Object.values(roles))];
    const colors = new Map(names.map((role, k) => [role, COLORS.roles[k % COLORS.roles.length]]));
    map.render({
      points: Object.entries(summary.vectors).map(([label, [x, y]]) => ({
        label,
        x,
        y,
        color: colors.get(roles[label]) ?? COLORS.muted,
      })),
      legend: [...colors].map(([role, color]) => ({ label: ROLE_NAMES[role] ?? role, color })),
    });
  }

  function show(summary) {
    vectors.set(summary.vectors, `단어 ${Object.keys(summary.vectors).length}개 (벡터를 2차원에 옮긴 좌표)`);
  }

  return { node, draw, show };
}

export function sentencePanel() {
  const sentence = element("p", { class: "nplm-sentence", "aria-label": "학습 문장에 없는 문장" });
  const barsHolder = element("div", { class: "bars-figure" });
  const bars = barChart.create(barsHolder, { label: "단어당 평균 확률 (기하 평균)", valueWidth: 64 });
  const sentenceLogprob = output("sentence_logprob", "문장 전체의 로그 확률");
  sentenceLogprob.clear("—");
  const sentenceProb = output("sentence_prob", "문장 전체의 확률");
  sentenceProb.clear("—");
  const words = element("div", { class: "nplm-words", "aria-label": "단어마다의 로그 확률" });
  const line = (label, out) =>
    element("p", { class: "nplm-prob-line" }, [element("span", { class: "legend", text: `${label} ` }), out.node]);
  const node = element("figure", { class: "panel nplm-general" }, [
    element("figcaption", { text: "처음 보는 문장의 확률: 지금의 신경망, 학습 전의 같은 신경망, 3-그램" }),
    sentence,
    element("p", { class: "out-minor", text: "단어당 평균 확률 (기하 평균)" }),
    barsHolder,
    line("문장 전체의 log p", sentenceLogprob),
    line("문장 전체의 확률", sentenceProb),
    words,
    element("p", {
      class: "demo-note",
      text:
        "이 문장에는 학습 문장에 한 번도 나오지 않은 단어 쌍이 여럿 있습니다. " +
        "3-그램은 그런 쌍에서 세어 둔 것이 없어 단어의 유니그램 확률에 작은 가중치를 곱한 값으로 떨어지는 반면, 학습 전 신경망은 어느 단어에나 거의 균등하게 1/V쯤을 주기 때문에, 처음 보는 쌍에서는 아무것도 배우지 않은 추측이 오히려 3-그램을 이깁니다. " +
        "학습한 신경망은 dog가 cat과, room이 bedroom과 가까운 벡터를 갖게 되면서 비슷한 문장에서 배운 것을 이 문장에도 나누어 씁니다.",
    }),
  ]);

  function drawBars(summary) {
    if (!summary) {
      bars.render({ bars: [] });
      return;
    }
    const values = summary.per_word_prob;
    const best = Math.max(...SCORED.map(([key]) => values[key]));
    const written = new Map(SCORED.map(([key]) => [values[key], summary.text.per_word_prob[key]])); // equal values, equal words
    bars.render({
      bars: SCORED.map(([key, label, color]) => ({
        label,
        value: values[key],
        color,
        highlight: values[key] === best,
      })),
      max: Math.max(0.05, best) * 1.1,
      format: (v) => written.get(v),
    });
  }

  // The sentence, its three scores and one chip per predicted word (log p of each).
  function show(reply) {
    const { text } = reply;
    sentenceLogprob.set(reply.sentence_logprob_sum, threeScores(text.sentence_logprob_sum));
    sentenceProb.set(reply.sentence_prob, threeScores(text.sentence_prob));
    const list = reply.sentence_words;
    sentence.textContent = `“${reply.sentence}”`;
    const logs = reply.sentence_logprobs;
    const offset = Math.max(0, list.length - logs.model.length); // the last logs.model.length words are predicted
    const chips = logs.model.map((_, k) => {
      const best = Math.max(...SCORED.map(([key]) => logs[key][k]));
      const numbers = SCORED.map(([key]) =>
        element("span", {
          class: `nplm-lp is-${key}${logs[key][k] === best ? " is-better" : ""}`,
          text: text.sentence_logprobs[key][k],
        }),
      );
      const title = `log p: ${SCORED.map(([key, name]) => `${name} ${text.sentence_logprobs[key][k]}`).join(", ")}`;
      return element("span", { class: "nplm-word", title }, [
        element("span", { class: "nplm-word-text", text: list[offset + k] ?? "" }),
        ...numbers,
      ]);
    });
    const head = SCORED.flatMap(([key, name], k) => [
      ...(k ? [element("span", { text: " / " })] : []),
      element("span", { class: `nplm-lp is-${key}`, text: name }),
    ]);
    words.replaceChildren(
      element("p", { class: "nplm-words-head" }, [element("span", { text: "단어마다 log p: " }), ...head]),
      element("div", { class: "nplm-word-row" }, chips),
    );
  }

  return { node, draw: drawBars, show };
}
