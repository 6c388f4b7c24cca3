// The fields of a demo's state schema, as ui/permalink.js reads and writes them: each has
// default(), parse(text) → {value, warnings} and format(value). Values a link or an attribute
// gets wrong are clamped or replaced by the default, with a Korean warning for the reader.
import { LIMITS } from "../config.js";

const SHOWN_CHARS = 24; // a rejected value is quoted back this long at most: a link can carry a very long one

// A value from a link as a warning quotes it: trimmed, shortened, or "빈 값" when there is nothing.
export function shown(text) {
  const trimmed = text.trim();
  if (!trimmed) return "빈 값";
  const chars = [...trimmed]; // whole characters, not halves of a surrogate pair
  return chars.length > SHOWN_CHARS ? `${chars.slice(0, SHOWN_CHARS).join("")}…` : trimmed;
}

// A list of points in the unit square, at most `max` of them.
export function pointsField(max, defaults, min = 0) {
  return {
    default: () => defaults.map((point) => [...point]),
    parse(text) {
      const pairs = text
        .split("_")
        .filter(Boolean)
        .map((pair) => pair.split(",").map(Number));
      const valid = pairs.filter((pair) => pair.length === 2 && pair.every(Number.isFinite));
      const points = valid.map((pair) => pair.map((v) => Math.min(1, Math.max(0, v))));
      const warnings = [];
      if (pairs.length && !valid.length)
        return {
          value: this.default(),
          warnings: ["링크의 점 좌표를 하나도 읽을 수 없어 건너뛰었습니다. 기본 점 배치를 씁니다."],
        };
      if (valid.length !== pairs.length) warnings.push("링크에 읽을 수 없는 좌표가 있어 건너뛰었습니다.");
      if (points.length > max) warnings.push(`링크의 점이 ${max}개를 넘어 앞의 ${max}개만 씁니다.`);
      if (points.length < min)
        return {
          value: this.default(),
          warnings: [...warnings, `링크의 점이 ${min}개보다 적어 기본 점 배치를 씁니다.`],
        };
      return { value: points.slice(0, max), warnings };
    },
    format: (points) => points.map((p) => p.map((v) => +v.toFixed(LIMITS.pointDecimals)).join(",")).join("_"),
  };
}

// A whole number in [min, max]; `label` names it in warnings (e.g. "시드").
export function integerField({ label, min, max, fallback }) {
  return {
    default: () => fallback,
    parse(text) {
      const trimmed = text.trim();
      if (!/^[-+]?\d+$/.test(trimmed)) {
        return {
          value: fallback,
          warnings: [`링크의 ${label} 값(${shown(text)})을 읽을 수 없어 기본값 ${fallback}(으)로 둡니다.`],
        };
      }
      const value = Number(trimmed);
      const clamped = Math.min(max, Math.max(min, value));
      if (clamped === value) return { value, warnings: [] };
      return {
        value: clamped,
        warnings: [
          `링크의 ${label} 값(${shown(text)})이 범위(${min}–${max})를 벗어나 가장 가까운 값 ${clamped}(으)로 맞췄습니다.`,
        ],
      };
    },
    format: (value) => String(value),
  };
}

const TRUE_WORDS = new Set(["1", "true", "on", "yes"]);
const FALSE_WORDS = new Set(["0", "false", "off", "no"]);

// An on/off switch, written as 1 or 0.
export function booleanField({ label, fallback }) {
  return {
    default: () => fallback,
    parse(text) {
      const word = text.trim().toLowerCase();
      if (TRUE_WORDS.has(word)) return { value: true, warnings: [] };
      if (FALSE_WORDS.has(word)) return { value: false, warnings: [] };
      return {
        value: fallback,
        warnings: [
          `링크의 ${label} 값(${shown(text)})은 0이나 1이어야 해서 기본값(${fallback ? "켬" : "끔"})으로 둡니다.`,
        ],
      };
    },
    format: (value) => (value ? "1" : "0"),
  };
}

// A number in [min, max], kept to `decimals` places (e.g. demo 7's p_gen).
export function numberField({ label, min, max, fallback, decimals = 2 }) {
  const round = (value) => Number(value.toFixed(decimals));
  return {
    default: () => fallback,
    parse(text) {
      const trimmed = text.trim();
      const value = trimmed === "" ? NaN : Number(trimmed);
      if (!Number.isFinite(value)) {
        return {
          value: fallback,
          warnings: [`링크의 ${label} 값(${shown(text)})을 읽을 수 없어 기본값 ${fallback}(으)로 둡니다.`],
        };
      }
      const clamped = round(Math.min(max, Math.max(min, value)));
      if (Math.min(max, Math.max(min, value)) === value) return { value: clamped, warnings: [] };
      return {
        value: clamped,
        warnings: [
          `링크의 ${label} 값(${shown(text)})이 범위(${min}–${max})를 벗어나 가장 가까운 값 ${clamped}(으)로 맞췄습니다.`,
        ],
      };
    },
    format: (value) => String(round(value)),
  };
}

// A 2-D vector [x, y], written "x,y", each coordinate clamped to [min, max] and kept to
// `decimals` places (e.g. demo 3's decoder vector d).
export function vectorField({ label, min, max, fallback, decimals = 2 }) {
  const round = (value) => Number(value.toFixed(decimals));
  return {
    default: () => [...fallback],
    parse(text) {
      const parts = text.split(",").map((part) => (part.trim() === "" ? NaN : Number(part)));
      if (parts.length !== 2 || !parts.every(Number.isFinite)) {
        return {
          value: [...fallback],
          warnings: [
            `링크의 ${label} 값(${shown(text)})은 "x,y" 꼴의 두 수여야 해서 기본값 (${fallback.join(", ")})(으)로 둡니다.`,
          ],
        };
      }
      const value = parts.map((v) => round(Math.min(max, Math.max(min, v))));
      if (parts.every((v) => v >= min && v <= max)) return { value, warnings: [] };
      return {
        value,
        warnings: [
          `링크의 ${label} 값(${shown(text)})이 범위(${min}–${max})를 벗어나 (${value.join(", ")})(으)로 맞췄습니다.`,
        ],
      };
    },
    format: (value) => value.map(round).join(","),
  };
}

// One of a fixed set of words (e.g. the runner's model); anything else falls back with a warning.
export function choiceField({ label, options, fallback }) {
  return {
    default: () => fallback,
    parse(text) {
      const word = text.trim();
      if (options.includes(word)) return { value: word, warnings: [] };
      return {
        value: fallback,
        warnings: [`링크의 ${label} 값(${shown(text)})을 알 수 없어 기본값 ${fallback}(으)로 둡니다.`],
      };
    },
    format: (value) => value,
  };
}

// A list of whole numbers written "5,10,50" (e.g. the runner's sizes); unreadable entries are
// dropped with a warning, an empty list falls back to the default. Python checks the range.
export function integerListField({ label, fallback, max }) {
  return {
    default: () => [...fallback],
    parse(text) {
      const parts = text.split(",").map((part) => part.trim());
      const numbers = parts.filter((part) => /^\d{1,6}$/.test(part)).map(Number);
      const warnings = [];
      if (numbers.length !== parts.length) warnings.push(`링크의 ${label} 가운데 정수가 아닌 값은 건너뛰었습니다.`);
      if (!numbers.length)
        return {
          value: [...fallback],
          warnings: [`링크의 ‘${label}’ 값을 읽을 수 없어 기본값(${fallback.join(",")})을 씁니다.`],
        };
      if (numbers.length > max) warnings.push(`링크의 ‘${label}’ 값이 ${max}개를 넘어 앞의 ${max}개만 씁니다.`);
      return { value: [...new Set(numbers)].slice(0, max), warnings };
    },
    format: (value) => value.join(","),
  };
}
