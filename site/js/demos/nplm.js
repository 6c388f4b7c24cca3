// Prelude demo [nplm]: the neural probabilistic language model of Bengio et al. (2003), trained
// live in the worker on a tiny corpus. Training is a job of the demo's request loop (chunks sized
// to ~30 ms, as in demo 5), so pause and reset are honoured within one chunk and the page keeps
// animating. Python reports held-out perplexity (model and trigram baseline), a 2-D map of the
// learned word vectors and the probability of a sentence the corpus never contains.
import { PY } from "../generated/constants.js";
import { instanceOf } from "../runtime/callers.js";
import { booleanField, integerField } from "../ui/fields.js";
import { redrawer } from "../ui/frame.js";
import { urlStore } from "../ui/permalink.js";
import { boundedSeries } from "../ui/bounded-series.js";
import {
  button,
  element,
  labelled,
  MAX_SEED,
  messageLine,
  onOff,
  output,
  stat,
  trainerControls,
  trainingSeedInput,
} from "./common.js";
import { curvePanel, mapPanel, sentencePanel } from "./nplm-panels.js";
import { trainingJob } from "../ui/request-loop.js";

const ID = "nplm";
const CHUNK = { min: 1, max: PY.nplm.maxChunk, first: 20, targetMs: 30 }; // iterations per train request
const MAX_CURVE_POINTS = 2000; // the perplexity curve keeps every k-th chunk past this

export const SCHEMA = {
  seed: integerField({ label: "시드", min: 0, max: MAX_SEED, fallback: 0 }),
  direct: booleanField({ label: "직접 연결", fallback: true }),
};

// `store` keeps the state: the URL on our pages, the element's attributes in an embed.
export function mount(root, runtime, store = urlStore) {
  const { state, warnings } = store.load(ID, SCHEMA);
  const python = instanceOf(runtime, root);

  let summary = null;
  const curve = boundedSeries(MAX_CURVE_POINTS); // held-out perplexity after each chunk since the last reset

  // --- controls, and the request loop: explicit operations first, then training chunks
  const directBox = element("input", { type: "checkbox", checked: state.direct, "data-control": "direct" });
  const message = messageLine(retry);
  const training = trainingJob(CHUNK, applySummary);
  const { loop, train, pause } = trainerControls({
    job: training,
    root,
    runtime,
    python,
    id: ID,
    message,
    resetParams: () => ({ seed: state.seed, direct: state.direct }),
    series: curve,
    applySummary,
  });
  const seedBox = trainingSeedInput(state.seed, message, {
    loop,
    model: () => summary,
    onSeed(seed) {
      state.seed = seed;
      store.save(ID, SCHEMA, state);
    },
    reset,
  });
  const toolbar = element("div", { class: "demo-toolbar" }, [
    train,
    pause,
    button("초기화", "reset", () => reset()),
    labelled("직접 연결 W (단어 벡터 → 점수)", directBox),
    labelled("시드", seedBox),
  ]);

  // --- displays
  const iteration = stat("iteration", "반복", "학습 횟수");
  const loss = stat("loss", "손실", "학습 문장의 교차 엔트로피");
  const perplexity = stat("perplexity", "퍼플렉서티 (신경망 / 3-그램)", "처음 보는 문장에서, 낮을수록 좋음");
  const curveChart = curvePanel();
  const map = mapPanel();
  const general = sentencePanel();
  const model = output("model", "모델 설정");
  root.replaceChildren(
    toolbar,
    element("div", { class: "stat-row" }, [iteration.box, loss.box, perplexity.box]),
    element("div", { class: "nplm-body" }, [curveChart.node, map.node]),
    general.node,
    element("p", { class: "out-minor model-line" }, [element("span", { text: "모델: " }), model.node]),
    message.node,
  );
  const markDirty = redrawer(() => {
    curveChart.draw(curve, summary?.perplexity?.trigram ?? null);
    map.draw(summary);
    general.draw(summary);
  });

  // --- replies
  function applySummary(reply) {
    summary = reply;
    iteration.set(reply.iteration, reply.text.iteration);
    loss.set(reply.loss, reply.text.loss);
    perplexity.set(reply.perplexity, reply.text.perplexity);
    map.show(reply);
    general.show(reply);
    model.set(
      { seed: reply.seed, direct: reply.direct },
      `시드 ${reply.seed} · 직접 연결 ${onOff(reply.direct)} · 학습률 ${reply.text.lr}`,
    );
    if (curve.last !== reply.iteration && Number.isFinite(reply.perplexity.model))
      curve.push(reply.iteration, reply.perplexity.model);
    markDirty();
  }

  // --- user actions
  function reset() {
    message.clear();
    const apply = (reply) => {
      curve.clear();
      training.reset();
      applySummary(reply);
    };
    loop.enqueue({ fn: "reset", params: () => ({ seed: state.seed, direct: state.direct }), apply }, { stop: true });
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
  markDirty();
  reset();
  if (warnings.length) message.show(warnings.join(" "));
}
