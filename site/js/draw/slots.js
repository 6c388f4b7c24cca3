// Rows of output slots (token boxes) in the DOM, so they wrap on narrow screens and read
// aloud as lists. Knows nothing of models: each slot has a text, an optional caption and a
// state that picks its look:
//   "used"    a slot the answer uses (filled)
//   "idle"    a slot the answer does not use
//   "ok"      an answer token some slot can produce
//   "missing" an answer token no slot can produce (red, dashed)
export function create(el, { label }) {
  const node = document.createElement("div");
  node.className = "slot-rows";
  node.setAttribute("role", "group");
  node.setAttribute("aria-label", label);
  el.append(node);

  // view: {rows: [{name, label, note, tokens: [{text, caption, state, title}]}]}
  function render({ rows }) {
    node.replaceChildren(
      ...rows.map((row) => {
        const list = document.createElement("ol");
        list.className = "slot-list";
        list.setAttribute("aria-label", row.label);
        for (const token of row.tokens) {
          const item = document.createElement("li");
          item.className = `slot is-${token.state}`;
          item.dataset.state = token.state;
          if (token.title) item.title = token.title;
          const text = document.createElement("span");
          text.className = "slot-text";
          text.textContent = token.text;
          item.append(text);
          if (token.caption) {
            const caption = document.createElement("span");
            caption.className = "slot-caption";
            caption.textContent = token.caption;
            item.append(caption);
          }
          list.append(item);
        }
        const head = document.createElement("div");
        head.className = "slot-row-head";
        const title = document.createElement("span");
        title.className = "slot-row-label";
        title.textContent = row.label;
        head.append(title);
        if (row.note) {
          const note = document.createElement("span");
          note.className = "slot-row-note";
          note.textContent = row.note;
          head.append(note);
        }
        const wrapper = document.createElement("div");
        wrapper.className = "slot-row";
        if (row.name) wrapper.dataset.row = row.name;
        wrapper.append(head, list);
        return wrapper;
      }),
    );
  }

  return { node, render };
}
