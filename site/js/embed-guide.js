// The embed guide: copy-paste snippets for each demo, made from this site's own address,
// with a live iframe preview. Snippets are text (textContent), never parsed as HTML here.
import { PY } from "./generated/constants.js";
import { DEMOS } from "./generated/demos.js";

const SITE_URL = new URL("../", import.meta.url).href;

// An example of each demo's attributes (its state fields, ptrnet.manifest); a demo not named here
// is shown with none.
const EXAMPLES = {
  "lm-shapes": { seed: "3", mode: "sample", temperature: "1" },
  nplm: { seed: "0", direct: "1" },
  slots: { n: "8", seed: "3" },
  sequences: { points: "0.2,0.25_0.55,0.15_0.85,0.35_0.7,0.6_0.45,0.5_0.3,0.8" },
  "mix-vs-point": { d: "1.5,0.8" },
  "attention-vs-pointer": { step: "2" },
  "hull-steps": { step: "3", mask: "1" },
  "sort-trainer": { seed: "7", mask: "1", length: "12" },
  "pointer-generator": { p_gen: "0.3" },
  experiments: { model: "hull", sizes: "5,10,50", sets: "100", decoding: "greedy", seed: "1" },
};
const GUIDED = Object.keys(DEMOS).map((name) => ({ name, attributes: EXAMPLES[name] ?? {} }));

const ATTRIBUTE_HELP = {
  points: `점 좌표 x,y를 밑줄(_)로 이은 목록, 0–1 사이, 최대 ${PY.points.max}개`,
  n: `점의 개수 ${PY.slots.n.join("–")}`,
  seed: "난수 시드 (0 이상의 정수)",
  mask: "마스크 켬 1 / 끔 0",
  length: `시험 길이 ${PY.sorter.testLengths.join("–")}`,
  sample: "시험 수열 번호 (0 이상의 정수)",
  step: "디코딩 단계 (1부터)",
  d: "디코더 벡터 dx,dy",
  p_gen: "생성 확률 p_gen 0–1",
  mode: "다음 단어 고르기: sample(확률대로) / greedy(가장 높은 것)",
  temperature: `온도 ${PY.lm.temperature.min}–${PY.lm.temperature.max}`,
  direct: "직접 연결 W 켬 1 / 끔 0",
  model: "잴 모델: hull, tsp, tsp-a1, delaunay, seq2seq-5 …",
  sizes: "점의 수 n을 쉼표로 (예: 5,10,50)",
  sets: "크기마다 잴 세트 수",
  decoding: "greedy(탐욕) / beam(빔 서치)",
};

const select = document.querySelector('[data-control="embed-demo"]');
const preview = document.querySelector(".embed-preview");

function snippets({ name, attributes }) {
  const attributeText = Object.entries(attributes)
    .map(([key, value]) => ` ${key}="${value}"`)
    .join("");
  const hash = [`demo=${name}`, ...Object.entries(attributes).map(([key, value]) => `${name}.${key}=${value}`)].join(
    "&",
  );
  const frameURL = `${SITE_URL}embed.html#${hash}`;
  return {
    frameURL,
    script: `<script type="module" src="${SITE_URL}embed.js"></script>\n<ptr-demo name="${name}"${attributeText}></ptr-demo>`,
    iframe: `<iframe data-ptrnet-embed src="${frameURL}"\n        title="${DEMOS[name].caption}" width="100%" height="640" style="border:0"></iframe>\n<script src="${SITE_URL}embed-host.js"></script>`,
  };
}

function show(demo) {
  const texts = snippets(demo);
  for (const kind of ["script", "iframe"]) document.querySelector(`[data-snippet="${kind}"]`).textContent = texts[kind];
  const list = document.querySelector("[data-attribute-list]");
  list.replaceChildren();
  for (const key of Object.keys(demo.attributes)) {
    const term = document.createElement("dt");
    term.textContent = key;
    const description = document.createElement("dd");
    description.textContent = ATTRIBUTE_HELP[key] ?? "";
    list.append(term, description);
  }
  list.hidden = !Object.keys(demo.attributes).length;
  preview.src = texts.frameURL;
  history.replaceState(null, "", `#${demo.name}`);
}

for (const demo of GUIDED) select.append(new Option(DEMOS[demo.name].caption, demo.name));
const initial =
  GUIDED.find((demo) => demo.name === location.hash.slice(1)) ?? GUIDED.find((demo) => demo.name === "sequences");
select.value = initial.name;
select.addEventListener("change", () => show(GUIDED.find((demo) => demo.name === select.value)));
show(initial);

for (const button of document.querySelectorAll('[data-action="copy"]')) {
  button.addEventListener("click", async () => {
    const kind = button.dataset.copy;
    const status = document.querySelector(`[data-copy-status="${kind}"]`);
    try {
      await navigator.clipboard.writeText(document.querySelector(`[data-snippet="${kind}"]`).textContent);
      status.textContent = "복사했습니다.";
    } catch {
      status.textContent = "복사하지 못했습니다. 코드를 직접 선택해 복사해 주세요.";
    }
  });
}
