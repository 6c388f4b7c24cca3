// "먼저 짐작해 보기": the reader picks a guess before the demo beside it answers. The build writes each
// question from Python (py/sitebuild/predictions.py): a root data-predict="<id>" data-answer="<value>", a
// named group of buttons data-choice="<value>", an empty polite live region and the reveal's text in a
// <template>. A choice reveals (data-revealed="true", data-chosen) and is remembered on this device only;
// clicking another choice changes it, ‘다시 고르기’ hides the answer again. Nothing here waits for Python.
import { element } from "./dom.js";

const STORAGE_PREFIX = "ptrnet.predict.";
// This visit's answers: they also stand in for localStorage where the browser refuses it (private
// mode, blocked site data), so that a choice still reveals and holds until the page is left.
const answered = new Map();

function recall(id) {
  if (answered.has(id)) return answered.get(id);
  try {
    return localStorage.getItem(STORAGE_PREFIX + id);
  } catch {
    return null;
  }
}

function remember(id, value) {
  answered.set(id, value);
  try {
    if (value === null) localStorage.removeItem(STORAGE_PREFIX + id);
    else localStorage.setItem(STORAGE_PREFIX + id, value);
  } catch {
    // kept in `answered` for this visit
  }
}

function bind(root) {
  const id = root.dataset.predict;
  const buttons = [...root.querySelectorAll("[data-choice]")];
  const live = root.querySelector(".predict-reveal");
  const explanation = root.querySelector("template.predict-answer");
  const labelOf = (value) => buttons.find((b) => b.dataset.choice === value)?.textContent;

  function show(value) {
    const right = value === root.dataset.answer;
    root.dataset.revealed = "true";
    root.dataset.chosen = value;
    for (const b of buttons) {
      b.setAttribute("aria-pressed", String(b.dataset.choice === value));
      b.classList.toggle("is-answer", b.dataset.choice === root.dataset.answer);
    }
    const again = element("button", { type: "button", class: "predict-again", text: "다시 고르기" });
    again.addEventListener("click", hide);
    live.replaceChildren(
      element("p", { class: "predict-verdict" }, [
        element("strong", {
          text: right ? "맞았습니다." : `아쉽지만 아닙니다. 답은 ‘${labelOf(root.dataset.answer)}’입니다.`,
        }),
        " ",
        explanation.content.cloneNode(true),
      ]),
      again,
    );
  }

  function hide() {
    remember(id, null);
    root.dataset.revealed = "false";
    delete root.dataset.chosen;
    for (const b of buttons) {
      b.setAttribute("aria-pressed", "false");
      b.classList.remove("is-answer");
    }
    live.replaceChildren();
    buttons[0].focus(); // ‘다시 고르기’ itself is gone
  }

  for (const b of buttons) {
    b.addEventListener("click", () => {
      remember(id, b.dataset.choice);
      show(b.dataset.choice);
    });
  }
  const earlier = recall(id);
  if (earlier !== null && labelOf(earlier) !== undefined) show(earlier);
  else root.dataset.revealed = "false";
}

// Make every question under `scope` answerable.
export function bindPredictions(scope = document) {
  for (const root of scope.querySelectorAll("[data-predict]")) bind(root);
}
