// Demo 1 [slots]: a seq2seq trained at n = 5 has a fixed output layer {1…5, ⇒, ⇐} and cannot
// say "6"; a Ptr-Net has exactly n + 1 output slots, whatever n is. Python draws the seeded
// random points, solves their hull and counts the slots; this controller only shows them.
import * as pointsCanvas from "../draw/points.js";
import * as slotRows from "../draw/slots.js";
import { slider } from "../ui/controls.js";
import { integerField } from "../ui/fields.js";
import { redrawer } from "../ui/frame.js";
import { whenNearScreen } from "../ui/near-screen.js";
import { urlStore } from "../ui/permalink.js";
import { PY } from "../generated/constants.js";
import { button, demoRequests, element, MAX_SEED, messageLine, output, toZeroBased } from "./common.js";

const ID = "slots";
const N_RANGE = PY.slots.n;
export const SCHEMA = {
  n: integerField({ label: "점 개수 n", min: N_RANGE[0], max: N_RANGE[1], fallback: PY.slots.defaults.n }),
  seed: integerField({ label: "시드", min: 0, max: MAX_SEED, fallback: PY.slots.defaults.seed }),
};

// Labels the reader sees for the answer's tokens in the Ptr-Net row: P3 rather than 3.
const pointerLabel = (token) => (/^\d+$/.test(token) ? `P${token}` : token);

// `store` keeps the state: the URL on our pages, the element's attributes in an embed.
export function mount(root, runtime, store = urlStore) {
  const { state, warnings } = store.load(ID, SCHEMA);
  let result = null;

  const nSlider = slider({
    control: "n",
    label: "점 개수 n",
    min: N_RANGE[0],
    max: N_RANGE[1],
    value: state.n,
    format: (n) => `${n}개`,
    onInput(n) {
      state.n = n;
      changed();
    },
  });
  const toolbar = element("div", { class: "demo-toolbar" }, [
    nSlider.node,
    button("다른 점 뽑기", "reroll", () => {
      state.seed = Math.floor(Math.random() * 1e6);
      changed();
    }),
  ]);

  const figure = element("div", { class: "demo-figure" });
  const drawing = pointsCanvas.create(figure, { label: "무작위 점과 그 볼록 껍질" });
  const { canvas } = drawing;
  const hull = output("hull", "볼록 껍질 정답 출력 순서");
  const missing = output("seq2seq_missing", "seq2seq가 낼 수 없는 정답 토큰 수");
  const ptrSlots = output("ptr_slots", "Ptr-Net 출력 칸 수");
  const counters = element("div", { class: "slot-counters" }, [
    element("div", { class: "counter counter-missing" }, [
      missing.node,
      element("span", { class: "counter-label", text: "seq2seq가 낼 수 없는 정답 토큰" }),
    ]),
    element("div", { class: "counter counter-ptr" }, [
      ptrSlots.node,
      element("span", { class: "counter-label", text: "Ptr-Net 출력 칸 (n + 1)" }),
    ]),
  ]);
  const rowsHolder = element("div", { class: "slot-area" });
  // What our trained models (issue 6) actually answer for these points.
  const realPtr = output("real_ptrnet", "학습한 Ptr-Net의 출력");
  const realSeq = output("real_seq2seq", "학습한 seq2seq(n = 5)의 출력");
  const realVerdicts = [element("span", { class: "real-verdict" }), element("span", { class: "real-verdict" })];
  const ptrLegend = element("span", { class: "legend", text: "Ptr-Net" });
  const seqNote = element("p", { class: "real-note", "data-out": "seq2seq_note" });
  const real = element("div", { class: "real-outputs" }, [
    element("p", { class: "real-title", text: "우리가 학습한 두 모델이 이 점들에 실제로 낸 답" }),
    element("div", { class: "out-row" }, [ptrLegend, realPtr.node, realVerdicts[0]]),
    element("div", { class: "out-row" }, [
      element("span", { class: "legend", text: "seq2seq (n = 5로 학습)" }),
      realSeq.node,
      realVerdicts[1],
    ]),
    seqNote,
  ]);
  const side = element("div", { class: "demo-outputs" }, [
    element("div", { class: "out-row" }, [
      element("span", { class: "legend legend-hull", text: "볼록 껍질 정답" }),
      hull.node,
    ]),
    counters,
    rowsHolder,
    real,
  ]);
  const rows = slotRows.create(rowsHolder, { label: "정답 토큰과 두 모델의 출력 칸" });
  const note = element("p", {
    class: "demo-note",
    text:
      "점을 3–4개로 줄이면 seq2seq의 칸은 넉넉하지만, 점 다섯 개만 보고 배운 모델에게는 낯선 입력입니다. 그 답이 어떻게 되는지 직접 보세요. " +
      "Ptr-Net은 점이 몇 개든 같은 가중치로 n + 1개의 칸을 만들어 답합니다.",
  });
  const message = messageLine(() => compute());
  root.replaceChildren(toolbar, element("div", { class: "demo-body slots-body" }, [figure, side]), note, message.node);
  root.dataset.state = "busy";

  const request = demoRequests(root, runtime, ID, "solve", message, {
    onAnswer(answer) {
      result = answer;
      hull.set(answer.hull, answer.text.hull);
      missing.set(answer.seq2seq_missing, String(answer.seq2seq_missing));
      missing.node.classList.toggle("is-zero", answer.seq2seq_missing === 0);
      ptrSlots.set(answer.ptr_slots, String(answer.ptr_slots));
      canvas.dataset.points = JSON.stringify(answer.points);
      renderRows(answer);
      renderReal(answer);
      markDirty();
    },
  });

  function renderRows(answer) {
    const vocab = answer.seq2seq_vocab;
    const used = new Set(answer.answer);
    rows.render({
      rows: [
        {
          name: "answer",
          label: "정답 토큰",
          note: `${answer.answer.length}개`,
          tokens: answer.answer.map((token, k) =>
            answer.emittable[k]
              ? {
                  text: token,
                  caption: `칸 ${vocab.indexOf(token) + 1}`,
                  state: "ok",
                  title: `seq2seq 출력층의 ${vocab.indexOf(token) + 1}번째 칸으로 낼 수 있습니다`,
                }
              : {
                  text: token,
                  caption: "출력 불가",
                  state: "missing",
                  title: "seq2seq 출력층에 이 토큰의 칸이 없습니다",
                },
          ),
        },
        {
          name: "seq2seq",
          label: "seq2seq 출력층 (n = 5로 학습)",
          note: `고정 ${vocab.length}칸`,
          tokens: vocab.map((token, k) => ({
            text: token,
            caption: `칸 ${k + 1}`,
            state: used.has(token) ? "used" : "idle",
          })),
        },
        {
          name: "ptr",
          label: "Ptr-Net 출력 분포",
          note: `n + 1 = ${answer.ptr_slots}칸`,
          tokens: answer.ptr_labels.map((label) => ({
            text: label,
            state: answer.answer.some((token) => pointerLabel(token) === label) ? "used" : "idle",
          })),
        },
      ],
    });
  }

  function renderReal({ real: models }) {
    if (!models) {
      realPtr.clear("화면에 나타나면 학습한 모델의 답을 불러옵니다.");
      realSeq.clear("—");
      seqNote.hidden = true;
      for (const node of realVerdicts) node.textContent = "";
      return;
    }
    const verdict = (node, correct) => {
      node.textContent = correct ? "정답" : "오답";
      node.classList.toggle("is-wrong", !correct);
    };
    ptrLegend.textContent = `Ptr-Net (학습 n = ${models.model.train_n.replace("-", "–")})`;
    realPtr.set(models.ptrnet, models.text.ptrnet);
    verdict(realVerdicts[0], models.correct.ptrnet);
    seqNote.textContent = models.text.seq2seq_note ?? "";
    seqNote.hidden = !models.text.seq2seq_note;
    if (models.seq2seq) {
      realSeq.set(models.seq2seq, models.text.seq2seq);
      verdict(realVerdicts[1], models.correct.seq2seq);
    } else {
      realSeq.set(null, models.seq2seq_reason);
      realVerdicts[1].textContent = "";
    }
  }

  const markDirty = redrawer(() => {
    drawing.render({ points: result ? result.points : [], hull: result ? toZeroBased(result.hull) : [] });
  });

  // The trained models' answers need their weights (fetched on first use): asked for once the demo
  // is near the screen, and from then on with every answer.
  const nearScreen = whenNearScreen(root, compute);

  function compute() {
    request({ n: state.n, seed: state.seed, models: nearScreen.started() });
  }

  function changed() {
    store.save(ID, SCHEMA, state);
    if (!message.node.classList.contains("is-error")) message.clear();
    nearScreen.now(); // also when used before it came into view (a script, the keyboard)
  }

  if (warnings.length) message.show(warnings.join(" "));
  compute();
  markDirty();
}
