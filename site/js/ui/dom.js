// Building DOM nodes in one call: element("p", { class, text, "data-…", "aria-…", … }, children).

export function element(tag, attributes = {}, children = []) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === "text") node.textContent = value;
    else if (name === "class") node.className = value;
    else if (
      name.startsWith("data-") ||
      name.startsWith("aria-") ||
      name === "role" ||
      name === "for" ||
      name === "title"
    )
      node.setAttribute(name, value);
    else node[name] = value;
  }
  node.append(...children);
  return node;
}
