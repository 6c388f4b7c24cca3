// Rows of output slots (token boxes) in the DOM, so they wrap on narrow screens and read
// aloud as lists. Knows nothing of models: each slot has a text, an optional caption and a
// state that picks its look:
//   "used"    a slot the answer uses (filled)
//   "idle"    a slot the answer does not use
//   "ok"      an answer token some slot can produce
//   "missing" an answer token no slot can produce (red, dashed)
import { element } from "../ui/dom.js";

export function create(el, { label }) {
  const node = element("div", { class: "slot-rows", role: "group", "aria-label": label });
  el.append(node);

  function slot({ text, caption, state, title }) {
    const captionNode = caption ? [element("span", { class: "slot-caption", text: caption })] : [];
    return element("li", { class: `slot is-${state}`, "data-state": state, ...(title ? { title } : {}) }, [
      element("span", { class: "slot-text", text }),
      ...captionNode,
    ]);
  }

  // view: {rows: [{name, label, note, tokens: [{text, caption, state, title}]}]}
  function render({ rows }) {
    node.replaceChildren(
      ...rows.map((row) => {
        const note = row.note ? [element("span", { class: "slot-row-note", text: row.note })] : [];
        const head = element("div", { class: "slot-row-head" }, [
          element("span", { class: "slot-row-label", text: row.label }),
          ...note,
        ]);
        const list = element("ol", { class: "slot-list", "aria-label": row.label }, row.tokens.map(slot));
        return element("div", { class: "slot-row", ...(row.name ? { "data-row": row.name } : {}) }, [head, list]);
      }),
    );
  }

  return { node, render };
}
