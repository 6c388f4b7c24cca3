// Every demo's number and title, as the pages' captions show them ("데모 4 · …"); the embed guide
// and the iframe embed use them too. A test checks that the pages' captions agree.
export const DEMO_TITLES = Object.freeze({
  "lm-shapes": { no: "0-1", title: "LSTM 언어 모델의 한 단계" },
  nplm: { no: "0-2", title: "신경 확률 언어 모델(NPLM) 학습" },
  slots: { no: "1", title: "고정된 출력 칸과 포인터의 칸" },
  sequences: { no: "2", title: "같은 점, 두 가지 답" },
  "mix-vs-point": { no: "3", title: "섞기와 가리키기" },
  "attention-vs-pointer": { no: "3-2", title: "어텐션은 이미 가리키고 있었다" },
  "hull-steps": { no: "4", title: "볼록 껍질을 한 단계씩 디코딩하기" },
  "sort-trainer": { no: "5", title: "매개변수 96개로 정렬 배우기" },
  "length-eval": { no: "6", title: "길이 일반화 평가" },
  "pointer-generator": { no: "7", title: "만들어 낼까, 베껴 올까" },
  "three-problems": { no: "8", title: "논문의 세 문제: 정답과 저희 모델의 답" },
  experiments: { no: "9", title: "논문의 실험을 브라우저에서 다시 재기" },
});

export const demoCaption = (id) => `데모 ${DEMO_TITLES[id].no} · ${DEMO_TITLES[id].title}`;
