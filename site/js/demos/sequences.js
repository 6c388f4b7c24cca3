// Demo 2 [sequences]: the same points, two different index sequences (convex hull and TSP),
// recomputed in Python on every move.
import { PY } from "../generated/constants.js";
import { LIMITS } from "../config.js";
import * as pointsCanvas from "../draw/points.js";
import { redrawer } from "../ui/frame.js";
import { pointsField } from "../ui/fields.js";
import { urlStore } from "../ui/permalink.js";
import { attach } from "../ui/point-editor.js";
import { button, demoRequests, element, messageLine, notesLine, output, toZeroBased } from "./common.js";

const ID = "sequences";
export const SCHEMA = { points: pointsField(LIMITS.maxPoints, PY.sequencesPoints) };

export function mount(root, runtime, store = urlStore) {
  const { state, warnings } = store.load(ID, SCHEMA);
  let result = null; // the latest answer, for the points it was computed from
  let selected = -1;

  const count = element("span", { class: "demo-count", "data-out": "count" });
  const toolbar = element("div", { class: "demo-toolbar" }, [
    button("처음 점으로", "reset", () => setPoints(SCHEMA.points.default())),
    button("링크 복사", "permalink", copyLink),
    count,
  ]);
  const figure = element("div", { class: "demo-figure" });
  const drawing = pointsCanvas.create(figure, {
    label:
      "점 편집 캔버스: 빈 곳을 눌러 점 추가, 끌어서 이동, 두 번 눌러 삭제. 키보드: [ ] 로 점 선택, 화살표로 이동, Delete로 삭제, +로 추가",
  });
  const { canvas } = drawing;
  const hull = output("hull", "볼록 껍질 출력 순서");
  const tsp = output("tsp", "외판원 순회 출력 순서");
  const tspLength = output("tsp_length", "순회 길이");
  const notes = notesLine();
  const outputs = element("div", { class: "demo-outputs" }, [
    element("div", { class: "out-row" }, [
      element("span", { class: "legend legend-hull", text: "볼록 껍질" }),
      hull.node,
    ]),
    element("div", { class: "out-row" }, [
      element("span", { class: "legend legend-tour", text: "외판원 순회" }),
      tsp.node,
    ]),
    element("div", { class: "out-row out-minor" }, [
      element("span", { class: "legend", text: "순회 길이" }),
      tspLength.node,
    ]),
    notes.node,
  ]);
  const message = messageLine(() => compute());
  root.replaceChildren(toolbar, element("div", { class: "demo-body" }, [figure, outputs]), message.node);
  root.dataset.state = "busy";

  const request = demoRequests(root, runtime, ID, "solve", message, {
    onAnswer(answer) {
      result = answer;
      hull.set(answer.hull, answer.text.hull);
      tsp.set(answer.tsp, answer.text.tsp);
      tspLength.set(answer.tsp_length, answer.text.tsp_length);
      notes.set(answer.notes);
      markDirty();
    },
  });

  const markDirty = redrawer(() => {
    const points = state.points;
    canvas.dataset.points = JSON.stringify(points);
    const fresh = result?.hull.every((k) => k <= points.length) && result.tsp.every((k) => k <= points.length);
    drawing.render({
      points,
      hull: fresh ? toZeroBased(result.hull) : [],
      tour: fresh ? toZeroBased(result.tsp) : [],
      selected,
    });
    count.textContent = `점 ${points.length} / ${LIMITS.maxPoints}`;
  });
  function compute() {
    request({ points: state.points });
  }

  function setPoints(points, { dragging = false } = {}) {
    state.points = points;
    canvas.dataset.points = JSON.stringify(points);
    if (!dragging) store.save(ID, SCHEMA, state);
    if (!message.node.classList.contains("is-error")) message.clear();
    compute();
    markDirty();
  }

  async function copyLink() {
    const url = store.link(ID, SCHEMA, state);
    try {
      await navigator.clipboard.writeText(url);
      message.show("이 점 배치의 링크를 복사했습니다.");
    } catch {
      message.show(`링크: ${url}`);
    }
  }

  attach(drawing, {
    getPoints: () => state.points,
    setPoints,
    onDragEnd: () => store.save(ID, SCHEMA, state),
    onLimit: () => message.show(`점은 ${LIMITS.maxPoints}개까지만 놓을 수 있습니다. 점을 지우거나 옮겨 보세요.`),
    onSelect: (index) => {
      selected = index;
      markDirty();
    },
  });

  canvas.dataset.points = JSON.stringify(state.points);
  if (warnings.length) message.show(warnings.join(" "));
  compute();
  markDirty();
}
