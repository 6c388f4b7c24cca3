// Prelude demo [nplm]: the neural probabilistic language model of Bengio et al. (2003), trained
// live in the worker on a tiny corpus. Training is a loop of chunked "train" requests driven
// from here (as in demo 5): the next chunk is sent only after the previous reply, its size
// adapted so one chunk takes ~30 ms, so pause and reset are honoured within one chunk and the
// page keeps animating. Python reports held-out perplexity (model and trigram baseline), a 2-D
// map of the learned word vectors and the probability of a sentence the corpus never contains.
import { percent } from "../ui/format.js";
import { COLORS } from "../config.js";
import { instanceOf } from "../runtime/client.js";
import * as barChart from "../draw/bars.js";
import * as lineChart from "../draw/linechart.js";
import * as wordMap from "../draw/wordmap.js";
import { booleanField, integerField } from "../ui/fields.js";
import { redrawer } from "../ui/frame.js";
import { urlStore } from "../ui/permalink.js";
import {
  button,
  element,
  formatCount,
  labelled,
  MAX_SEED,
  messageLine,
  onOff,
  output,
  seedInput,
  stat,
} from "./common.js";
import { boundedSeries, trainingLoop } from "./training-loop.js";

const ID = "nplm";
const CHUNK = { min: 1, max: 2000, first: 20, targetMs: 30 }; // iterations per train request
const SNAPSHOT_EVERY_MS = 1000; // how much training a worker restart can cost at most
const MAX_CURVE_POINTS = 2000; // the perplexity curve keeps every k-th chunk past this

const SCHEMA = {
  seed: integerField({ label: "시드", min: 0, max: MAX_SEED, fallback: 0 }),
  direct: booleanField({ label: "직접 연결", fallback: true }),
};

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

const fixed = (v, digits = 2) => (v === null || !Number.isFinite(v) ? "—" : v.toFixed(digits));

// A probability that may be far below 1e-10, written readably.
function formatProbability(p) {
  if (p === null || !Number.isFinite(p)) return "—";
  if (p === 0) return "0";
  return p >= 1e-3 ? p.toFixed(4) : p.toExponential(2);
}

// `store` keeps the state: the URL on our pages, the element's attributes in an embed.
export function mount(root, runtime, store = urlStore) {
  const { state, warnings } = store.load(ID, SCHEMA);
  const python = instanceOf(runtime, root);

  let summary = null;
  const curve = boundedSeries(MAX_CURVE_POINTS); // held-out perplexity after each chunk since the last reset

  // --- controls
  const trainButton = button("학습 시작", "train", startTraining);
  const pauseButton = button("일시 정지", "pause", pause);
  const resetButton = button("초기화", "reset", () => reset());
  trainButton.classList.add("is-primary");
  const directBox = element("input", { type: "checkbox", checked: state.direct, "data-control": "direct" });
  const seedBox = seedInput(
    state.seed,
    (text) => message.show(text),
    (seed) => {
      state.seed = seed;
      store.save(ID, SCHEMA, state);
      if (!loop.training && (summary?.iteration ?? 0) === 0) {
        reset(); // nothing learned yet: start from the new seed right away
      } else {
        const now = summary
          ? ` 지금 모델은 시드 ${summary.seed}에서 시작해 ${formatCount(summary.iteration)}회 학습한 상태입니다.`
          : "";
        message.show(`새 시드 ${seed}는 ‘초기화’를 누르면 적용됩니다.${now}`);
      }
    },
  );
  const toolbar = element("div", { class: "demo-toolbar" }, [
    trainButton,
    pauseButton,
    resetButton,
    labelled("직접 연결 W (단어 벡터 → 점수)", directBox),
    labelled("시드", seedBox),
  ]);

  // --- displays
  const iteration = stat("iteration", "반복", "학습 횟수");
  const loss = stat("loss", "손실", "학습 문장의 교차 엔트로피");
  const perplexity = stat("perplexity", "퍼플렉서티 (신경망 / 3-그램)", "처음 보는 문장에서, 낮을수록 좋음");
  const stats = element("div", { class: "stat-row" }, [iteration.box, loss.box, perplexity.box]);

  const curveFigure = element("div", { class: "loss-figure" });
  const curveChart = lineChart.create(curveFigure, {
    label: "퍼플렉서티 곡선: 가로축은 반복, 세로축은 처음 보는 문장에서의 퍼플렉서티, 점선은 3-그램 기준",
    aspect: 0.62,
  });
  const curvePanel = element("figure", { class: "panel nplm-curve" }, [
    element("figcaption", { text: "처음 보는 문장에서의 퍼플렉서티" }),
    curveFigure,
  ]);

  const mapFigure = element("div", { class: "wordmap-figure" });
  const map = wordMap.create(mapFigure, { label: "학습된 단어 벡터를 2차원에 옮긴 지도: 같은 역할의 단어는 같은 색" });
  const vectors = output("vectors", "단어 벡터의 2차원 좌표");
  vectors.clear("—");
  const mapPanel = element("figure", { class: "panel nplm-map" }, [
    element("figcaption", { text: "단어 벡터 지도" }),
    mapFigure,
    element("p", { class: "out-minor model-line" }, [element("span", { text: "점: " }), vectors.node]),
  ]);

  const sentence = element("p", { class: "nplm-sentence", "aria-label": "학습 문장에 없는 문장" });
  const barsHolder = element("div", { class: "bars-figure" });
  const bars = barChart.create(barsHolder, { label: "단어당 평균 확률 (기하 평균)" });
  const sentenceProb = output("sentence_prob", "문장 전체의 확률");
  sentenceProb.clear("—");
  const words = element("div", { class: "nplm-words", "aria-label": "단어마다의 로그 확률" });
  const generalPanel = element("figure", { class: "panel nplm-general" }, [
    element("figcaption", { text: "처음 보는 문장의 확률" }),
    sentence,
    element("p", { class: "out-minor", text: "단어당 평균 확률 (기하 평균)" }),
    barsHolder,
    element("p", { class: "nplm-prob-line" }, [
      element("span", { class: "legend", text: "문장 전체의 확률 " }),
      sentenceProb.node,
    ]),
    words,
    element("p", {
      class: "demo-note",
      text:
        "이 문장의 세 단어 묶음 가운데 여럿은 학습 문장에 한 번도 나오지 않아서, 3-그램은 더 짧은 문맥으로 물러나 낮은 확률밖에 줄 수 없습니다. " +
        "신경망은 dog가 cat과, room이 bedroom과 가까운 벡터를 갖게 되면서 비슷한 문장에서 배운 것을 이 문장에도 나누어 씁니다.",
    }),
  ]);

  const model = output("model", "모델 설정");
  const message = messageLine(retry);
  root.replaceChildren(
    toolbar,
    stats,
    element("div", { class: "nplm-body" }, [curvePanel, mapPanel]),
    generalPanel,
    element("p", { class: "out-minor model-line" }, [element("span", { text: "모델: " }), model.node]),
    message.node,
  );

  // --- drawing (on the next animation frame, only when something changed)
  const markDirty = redrawer(() => {
    drawCurve();
    drawMap();
    drawBars();
  });

  function drawCurve() {
    const trigram = summary?.perplexity?.trigram ?? null;
    const right = Math.max(100, curve.last ?? 0);
    let high = trigram ?? 10;
    let low = trigram ?? 1;
    for (const v of curve.ys) {
      if (v > high) high = v;
      if (v < low) low = v;
    }
    const series = [];
    if (trigram !== null)
      series.push({ xs: [0, right], ys: [trigram, trigram], color: COLORS.trigram, width: 2, dash: [6, 4] });
    series.push({ xs: curve.xs, ys: curve.ys, color: COLORS.neural, width: 2.2 });
    curveChart.render({
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

  function roleColors() {
    const roles = [...new Set(Object.values(summary?.roles ?? {}))];
    return new Map(roles.map((role, k) => [role, COLORS.roles[k % COLORS.roles.length]]));
  }

  function drawMap() {
    if (!summary) {
      map.render({ points: [], legend: [], empty: "파이썬을 기다리는 중…" });
      return;
    }
    const colors = roleColors();
    const roles = summary.roles ?? {};
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

  function drawBars() {
    if (!summary) {
      bars.render({ bars: [] });
      return;
    }
    const values = [summary.per_word_prob.model, summary.per_word_prob.trigram];
    bars.render({
      bars: [
        { label: "신경망", value: values[0], color: COLORS.neural, highlight: values[0] >= values[1] },
        { label: "3-그램", value: values[1], color: COLORS.trigram, highlight: values[1] > values[0] },
      ],
      max: Math.max(0.05, ...values) * 1.1,
      format: (v) => percent(v),
    });
  }

  // --- replies
  function applySummary(reply) {
    summary = reply;
    iteration.set(reply.iteration, formatCount(reply.iteration));
    loss.set(reply.loss, fixed(reply.loss, 3));
    perplexity.set(reply.perplexity, `${fixed(reply.perplexity.model, 1)} / ${fixed(reply.perplexity.trigram, 1)}`);
    const count = Object.keys(reply.vectors).length;
    vectors.set(reply.vectors, `단어 ${count}개 (벡터를 2차원에 옮긴 좌표)`);
    sentenceProb.set(
      reply.sentence_prob,
      `신경망 ${formatProbability(reply.sentence_prob.model)} · 3-그램 ${formatProbability(reply.sentence_prob.trigram)}`,
    );
    model.set(
      { seed: reply.seed, direct: reply.direct },
      `시드 ${reply.seed} · 직접 연결 ${onOff(reply.direct)} · 학습률 ${Number(reply.lr).toPrecision(3)}`,
    );
    renderWords(reply);
    if (curve.last !== reply.iteration && Number.isFinite(reply.perplexity.model))
      curve.push(reply.iteration, reply.perplexity.model);
    updateControls();
    markDirty();
  }

  function renderWords(reply) {
    const list = reply.sentence_words;
    sentence.textContent = `“${reply.sentence}”`;
    const logs = reply.sentence_logprobs;
    // One chip per predicted word: the last list.length - logs.length words are predicted.
    const offset = Math.max(0, list.length - logs.model.length);
    const chips = logs.model.map((m, k) => {
      const t = logs.trigram[k];
      const better = m > t;
      return element("span", { class: "nplm-word", title: `log p: 신경망 ${fixed(m)}, 3-그램 ${fixed(t)}` }, [
        element("span", { class: "nplm-word-text", text: list[offset + k] ?? "" }),
        element("span", { class: better ? "nplm-lp is-neural is-better" : "nplm-lp is-neural", text: fixed(m, 1) }),
        element("span", { class: better ? "nplm-lp is-trigram" : "nplm-lp is-trigram is-better", text: fixed(t, 1) }),
      ]);
    });
    words.replaceChildren(
      element("p", { class: "nplm-words-head" }, [
        element("span", { text: "단어마다 log p: " }),
        element("span", { class: "nplm-lp is-neural", text: "신경망" }),
        element("span", { text: " / " }),
        element("span", { class: "nplm-lp is-trigram", text: "3-그램" }),
        element("span", {
          text: ` · 합계 ${fixed(reply.sentence_logprob_sum.model, 1)} / ${fixed(reply.sentence_logprob_sum.trigram, 1)}`,
        }),
      ]),
      element("div", { class: "nplm-word-row" }, chips),
    );
  }

  // --- the request loop: explicit operations first, then training chunks
  const loop = trainingLoop({
    root,
    runtime,
    call: (fn, params) => python.call(ID, fn, params),
    chunk: CHUNK,
    snapshotEveryMs: SNAPSHOT_EVERY_MS,
    onTrained: applySummary,
    // A new worker knows nothing of our model: put the last snapshot back (or start from the seed).
    afterRestart(snapshot) {
      return {
        fn: snapshot ? "restore" : "reset",
        params: () => (snapshot ? { snapshot } : { seed: state.seed, direct: state.direct }),
        apply(reply) {
          curve.trimAfter(reply.iteration);
          applySummary(reply);
          message.show(`파이썬이 다시 시작되어 반복 ${formatCount(reply.iteration)}에 저장해 둔 모델에서 이어 갑니다.`);
        },
      };
    },
    onError: (text) => message.show(`모델 계산이 실패했습니다: ${text}`, { error: true }),
    onChange: updateControls,
  });

  function updateControls() {
    trainButton.disabled = loop.training;
    pauseButton.disabled = !loop.training;
  }

  // --- user actions
  function startTraining() {
    if (root.dataset.state === "error") message.clear();
    loop.start();
  }

  function pause() {
    loop.pause();
  }

  function reset() {
    message.clear();
    loop.enqueue(
      {
        fn: "reset",
        params: () => ({ seed: state.seed, direct: state.direct }),
        apply(reply) {
          curve.clear();
          loop.resetChunks();
          applySummary(reply);
        },
      },
      { stop: true },
    );
  }

  function retry() {
    message.clear();
    loop.retry();
  }

  directBox.addEventListener("change", () => {
    state.direct = directBox.checked;
    store.save(ID, SCHEMA, state);
    reset();
    message.show(
      `직접 연결을 ${state.direct ? "켠" : "끈"} 새 모델을 시드 ${state.seed}에서 다시 만들었습니다. ‘학습 시작’으로 학습하세요.`,
    );
  });

  // --- start: a fresh model from the URL's seed and direct setting
  updateControls();
  markDirty();
  reset();
  if (warnings.length) message.show(warnings.join(" "));
}
