// Demo state in the URL hash, one `<demo>.<field>=<value>` entry per field, so several demos
// on one page keep separate permalinks: #sequences.points=0.45,0.45_0.6,0.35
import { LIMITS } from "../config.js";

// A list of points in the unit square, at most `max` of them.
export function pointsField(max, defaults) {
  return {
    default: () => defaults.map((point) => [...point]),
    parse(text) {
      const pairs = text.split("_").filter(Boolean).map((pair) => pair.split(",").map(Number));
      const valid = pairs.filter((pair) => pair.length === 2 && pair.every(Number.isFinite));
      const points = valid.map((pair) => pair.map((v) => Math.min(1, Math.max(0, v))));
      const warnings = [];
      if (pairs.length && !valid.length) return { value: this.default(), warnings: ["링크의 점 좌표를 하나도 읽을 수 없어 건너뛰었습니다. 기본 점 배치를 씁니다."] };
      if (valid.length !== pairs.length) warnings.push("링크에 읽을 수 없는 좌표가 있어 건너뛰었습니다.");
      if (points.length > max) warnings.push(`링크의 점이 ${max}개를 넘어 앞의 ${max}개만 씁니다.`);
      return { value: points.slice(0, max), warnings };
    },
    format: (points) => points.map((p) => p.map((v) => +v.toFixed(LIMITS.urlDecimals)).join(",")).join("_"),
  };
}

function hashParams() {
  return new URLSearchParams(location.hash.slice(1));
}

// The demo's state from the URL (or the defaults), plus Korean warnings about what was ignored.
export function loadState(demoId, schema) {
  const params = hashParams();
  const state = {};
  const warnings = [];
  for (const [name, field] of Object.entries(schema)) {
    const text = params.get(`${demoId}.${name}`);
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

export function permalink(demoId, schema, state) {
  const params = hashParams();
  for (const [name, field] of Object.entries(schema)) params.set(`${demoId}.${name}`, field.format(state[name]));
  // Our values only use digits, dots, commas and underscores, which are safe in a fragment.
  const hash = [...params].map(([key, value]) => `${key}=${value}`).join("&");
  return `${location.pathname}${location.search}#${hash}`;
}

export function saveState(demoId, schema, state) {
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

const PASSIVE_ATTRIBUTES = new Set(["name", "id", "class", "style", "title", "lang", "hidden", "slot", "tabindex", "data-python"]);

export function attributeStore(element, siteURL) {
  return {
    load(demoId, schema) {
      const state = {};
      const warnings = [];
      for (const [name, field] of Object.entries(schema)) {
        const text = element.getAttribute(name);
        if (text === null) {
          state[name] = field.default();
          continue;
        }
        const parsed = field.parse(text);
        state[name] = parsed.value;
        warnings.push(...parsed.warnings.map((w) => w.replace("링크의", "속성의")));
      }
      for (const { name } of element.attributes) {
        const passive = PASSIVE_ATTRIBUTES.has(name) || name.startsWith("data-") || name.startsWith("aria-");
        if (!passive && !(name in schema)) console.warn(`<ptr-demo name="${demoId}">: 알 수 없는 속성 "${name}"은(는) 무시합니다.`);
      }
      return { state, warnings };
    },
    save() {},
    link(demoId, schema, state) {
      const hash = Object.entries(schema).map(([name, field]) => `${demoId}.${name}=${field.format(state[name])}`).join("&");
      return new URL(`index.html#${hash}`, siteURL).href;
    },
  };
}
