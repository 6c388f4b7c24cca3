// Every demo controller by its data-demo id: our pages, embed.html and <ptr-demo> all use this.
import * as attentionVsPointer from "./attention-vs-pointer.js";
import * as experiments from "./experiments.js";
import * as hullSteps from "./hull-steps.js";
import * as lengthEval from "./length-eval.js";
import * as lmShapes from "./lm-shapes.js";
import * as mixVsPoint from "./mix-vs-point.js";
import * as nplm from "./nplm.js";
import * as pointerGenerator from "./pointer-generator.js";
import * as sequences from "./sequences.js";
import * as slots from "./slots.js";
import * as sortTrainer from "./sort-trainer.js";
import * as threeProblems from "./three-problems.js";

export const CONTROLLERS = Object.freeze({
  "lm-shapes": lmShapes,
  nplm,
  slots,
  sequences,
  "mix-vs-point": mixVsPoint,
  "attention-vs-pointer": attentionVsPointer,
  "hull-steps": hullSteps,
  "sort-trainer": sortTrainer,
  "length-eval": lengthEval,
  "pointer-generator": pointerGenerator,
  "three-problems": threeProblems,
  experiments,
});
