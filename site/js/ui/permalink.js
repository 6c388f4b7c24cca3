// Demo state in the URL hash, one `<demo>.<field>=<value>` entry per field, so several demos
// on one page keep separate permalinks: #sequences.points=0.45,0.45_0.6,0.35
import { DEMOS } from "../generated/demos.js";

function hashParams() {
  return new URLSearchParams(location.hash.slice(1));
}

// A state from text values (`lookup(name)` gives the text or null): each field parsed, or its
// default when absent, plus Korean warnings about what was clamped or ignored.
function parseFields(schema, lookup) {
  const state = {};
  const warnings = [];
  for (const [name, field] of Object.entries(schema)) {
    const text = lookup(name);
    if (text === null) {
      state[name] = field.default();
      continue;
    }
    const parsed = field.parse(text);
    state[name] = parsed.value;
    warnings.push(...parsed.warnings);
  }
  return { state, warnings };
}

// The demo's state from the URL (or the defaults).
function loadState(demoId, schema) {
  const params = hashParams();
  return parseFields(schema, (name) => params.get(`${demoId}.${name}`));
}

function permalink(demoId, schema, state) {
  const params = hashParams();
  for (const [name, field] of Object.entries(schema)) params.set(`${demoId}.${name}`, field.format(state[name]));
  // Our own values use only digits, dots, commas and underscores; anything else in the hash (what
  // a link brought along) is written back encoded, so it cannot break the other entries.
  const encode = (text) => encodeURIComponent(text).replace(/%2C/g, ",");
  const hash = [...params].map(([key, value]) => `${encode(key)}=${encode(value)}`).join("&");
  return `${location.pathname}${location.search}#${hash}`;
}

function saveState(demoId, schema, state) {
  history.replaceState(null, "", permalink(demoId, schema, state));
}

// Where a demo keeps its state: `urlStore` for our own pages and the iframe embed (the URL is
// the permalink); `attributeStore` for a <ptr-demo> element on someone else's page, which
// reads the element's attributes once and never touches the host page's URL.
export const urlStore = {
  load: loadState,
  save: saveState,
  link: (demoId, schema, state) => new URL(permalink(demoId, schema, state), location.href).href,
};

const PASSIVE_ATTRIBUTES = new Set([
  "name",
  "id",
  "class",
  "style",
  "title",
  "lang",
  "hidden",
  "slot",
  "tabindex",
  "data-python",
]);

export function attributeStore(element, siteURL) {
  return {
    load(demoId, schema) {
      const { state, warnings } = parseFields(schema, (name) => element.getAttribute(name));
      for (const { name } of element.attributes) {
        const passive = PASSIVE_ATTRIBUTES.has(name) || name.startsWith("data-") || name.startsWith("aria-");
        if (!passive && !(name in schema))
          console.warn(`<ptr-demo name="${demoId}">: 알 수 없는 속성 "${name}"은(는) 무시합니다.`);
      }
      return { state, warnings: warnings.map((w) => w.replace("링크의", "속성의")) };
    },
    save() {},
    link(demoId, schema, state) {
      const hash = Object.entries(schema)
        .map(([name, field]) => `${demoId}.${name}=${field.format(state[name])}`)
        .join("&");
      return new URL(`${DEMOS[demoId].page}#${hash}`, siteURL).href; // the page that shows the demo
    },
  };
}
