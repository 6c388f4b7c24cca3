// Labelled form controls for the demos: a range slider with its value shown, and an on/off
// switch. Native <input>s, so the keyboard (arrows, Home/End, Space) works without extra code.
import { element } from "./dom.js";

// A slider with `data-control`; `format(value)` is the visible value text. onInput fires on
// every movement (drag or key), with the value already a number.
export function slider({ control, label, min, max, step = 1, value, format = String, onInput }) {
  const input = element("input", {
    type: "range",
    min: String(min),
    max: String(max),
    step: String(step),
    "data-control": control,
  });
  input.value = String(value);
  const shown = element("span", { class: "slider-value", "aria-hidden": "true" });
  const node = element("label", { class: "demo-control control-slider" }, [
    element("span", { class: "control-label", text: label }),
    input,
    shown,
  ]);
  function show(number) {
    shown.textContent = format(number);
    input.setAttribute("aria-valuetext", format(number));
  }
  input.addEventListener("input", () => {
    show(Number(input.value));
    onInput(Number(input.value));
  });
  show(value);
  return {
    node,
    input,
    set(number) {
      input.value = String(number);
      show(number);
    },
  };
}

// A checkbox switch with `data-control`.
export function toggle({ control, label, checked, onChange }) {
  const input = element("input", { type: "checkbox", "data-control": control });
  input.checked = checked;
  input.addEventListener("change", () => onChange(input.checked));
  const node = element("label", { class: "demo-control control-toggle" }, [
    input,
    element("span", { class: "control-label", text: label }),
  ]);
  return {
    node,
    input,
    set(value) {
      input.checked = value;
    },
  };
}

// Whether the reader asked the system for less motion (checked each time: it can change).
export const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;
