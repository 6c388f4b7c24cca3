// Demo 3-2's evidence on "did attention already point?": at the current step, the share of the
// seq2seq's attention on the point it emits against chance (1/n); over the test sets, the shipped
// model's accuracy and attention on its outputs; over training, the same measures of a separate
// short run. Every number is as Python wrote it (views.models.attention_vs_pointer).
import { COLORS } from "../config.js";
import * as lineChart from "../draw/linechart.js";
import * as shareBar from "../draw/share-bar.js";
import { PY } from "../generated/constants.js";
import { percent } from "../ui/format.js";
import { element, formatCount, output } from "./common.js";

const SIZES = PY.attentionPoints; // the test sizes measured: the model's fewest and most points
const SIZE_COLORS = [COLORS.hull, COLORS.mixed];
const wholePercent = (share) => percent(share, 0);

// The current step: how much of the attention lies on the point the output layer emitted.
export function stepShare() {
  const mass = output("mass", "이번에 낸 점에 실린 어텐션");
  const chance = output("chance", "어텐션을 균등하게 나눌 때 그 점의 몫");
  const line = element("p", { class: "out-minor" });
  const figure = element("div", { class: "share-bar" });
  const bar = shareBar.create(figure, { label: "이번에 낸 점에 실린 어텐션과 균등한 몫" });
  const node = element("div", { class: "attention-share" }, [line, figure]);

  function show(step, n) {
    if (step.mass === null) {
      mass.set(null, "");
      chance.set(null, "");
      line.replaceChildren(`이번 출력은 ${step.token === 0 ? "⇐" : "⇒"}라 어텐션과 견줄 점이 없습니다.`);
      bar.render({ value: null, label: "이번 단계에는 견줄 점이 없습니다" });
      return;
    }
    mass.set(step.mass, step.text.mass);
    chance.set(step.chance, step.text.chance);
    const point = `P${step.token}`;
    const lead = step.token > n ? `이 배치에 없는 점(${point})을 낸 단계의 어텐션 ` : `${point}에 실린 어텐션 `;
    line.replaceChildren(lead, mass.node, " · 균등하게 나누면 ", chance.node, " (점선)");
    bar.render({
      value: step.mass,
      marker: step.chance,
      label: `${point}에 실린 어텐션 ${step.text.mass}, 균등하게 나누면 ${step.text.chance}`,
    });
  }
  return { node, show };
}

// The shipped model over the test sets, one row per size.
export function testSets() {
  const body = element("tbody");
  const record = output("test_sets", "시험 세트에서 잰 값");
  const head = [
    "점 수",
    "세트 수",
    "껍질을 맞힌 비율",
    "어텐션이 가장 큰 점을 낸 단계",
    "낸 점에 실린 어텐션",
    "균등한 몫",
  ];
  const title = "실린 어텐션 seq2seq를 시험 세트에서 잰 값 (점을 낸 단계들의 평균)";
  const node = element("div", { class: "attention-record" }, [
    element("p", { class: "out-minor" }, [title, record.node]),
    element("div", { class: "table-scroll", role: "region", "aria-label": title, tabIndex: 0 }, [
      element("table", { class: "data-table" }, [
        element("thead", {}, [
          element(
            "tr",
            {},
            head.map((text) => element("th", { text, scope: "col" })),
          ),
        ]),
        body,
      ]),
    ]),
  ]);

  function show(answer) {
    record.set(answer.test_sets, "");
    const text = answer.text.test_sets;
    body.replaceChildren(
      ...Object.keys(text).map((n) =>
        element("tr", {}, [
          element("th", { text: n, scope: "row" }),
          ...["lines", "accuracy", "peak", "mass", "chance"].map((key) => element("td", { text: text[n][key] })),
        ]),
      ),
    );
  }
  return { node, show };
}

// A separate short run's kept steps: accuracy and attention on the emitted point against chance.
export function overTraining() {
  const record = output("over_training", "따로 짧게 학습한 모델의 기록");
  const caption = element("figcaption", { class: "out-minor" });
  const chart = element("div");
  const drawing = lineChart.create(chart, {
    label: "학습하는 동안 낸 점에 실린 어텐션, 균등한 몫, 껍질을 맞힌 비율",
    aspect: 0.42,
  });
  const node = element("figure", { class: "panel attention-training" }, [chart, caption, record.node]);

  function show(answer) {
    const run = answer.over_training;
    record.set(run, "");
    const text = answer.text.over_training;
    caption.textContent =
      `실린 모델의 학습 기록이 아니라, 같은 설정으로 균등 초기화에서 따로 짧게 학습하며 ` +
      `${text.every}번 반복마다 저장한 가중치(마지막 ${text.last_step}번)를 같은 시험 세트에서 잰 값입니다.`;
    const xs = run.steps;
    const lines = SIZES.flatMap((n, k) => [
      { xs, ys: run[`mass_${n}`], color: SIZE_COLORS[k], width: 2.5 },
      { xs, ys: run[`chance_${n}`], color: SIZE_COLORS[k], width: 1.5, dash: [6, 4] },
      { xs, ys: run[`accuracy_${n}`], color: SIZE_COLORS[k], width: 1.5, dash: [2, 3], alpha: 0.8 },
    ]);
    drawing.render({
      x: { min: 0, max: Math.max(1, xs[xs.length - 1]), label: "학습 반복", format: formatCount },
      y: { min: 0, max: 1, ticks: [0, 0.25, 0.5, 0.75, 1], format: wholePercent, label: "비율" },
      bands: [],
      series: lines,
      legend: [
        ...SIZES.map((n, k) => ({ label: `점 ${n}개: 낸 점에 실린 어텐션`, color: SIZE_COLORS[k], width: 2.5 })),
        { label: "균등한 몫", color: COLORS.muted, width: 1.5, dash: [6, 4] },
        { label: "껍질을 맞힌 비율", color: COLORS.muted, width: 1.5, dash: [2, 3] },
      ],
    });
  }
  return { node, show };
}
