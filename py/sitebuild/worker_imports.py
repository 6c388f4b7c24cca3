"""Run by the build under CPython with our package and the site's numpy: answers an example of every request the
worker handles and writes (JSON, to the path given) every module then imported: numpy's lazy imports among them
(inside functions, or a codec looked up by name), which no scan of import statements finds. bytecode.extra_modules
ships those that are stdlib in the site's stdlib subset, so that the subset needs no hand-kept list.

Every registered handler needs an example here (the build stops naming one that has none), and every example must
be answered as it says; a handler that imports a new module lazily is then traced by its example.
"""

import json
import sys
from collections.abc import Callable

Replies = dict[tuple[str, str], dict]
# demo, fn, the request's params from the earlier replies, and whether it is answered (one fails on purpose)
Example = tuple[str, str, Callable[[Replies], dict], bool]


def _examples() -> list[Example]:
    """One request per handler as a page sends it, in an order where each finds what it needs (a snapshot before
    its restore); the experiment runner's three requests for every model and decoding it offers."""
    from ptrnet.experiments import runner, sweeps
    from ptrnet.limits import HULL_EXAMPLE

    points = {"points": HULL_EXAMPLE}
    examples: list[Example] = [
        ("runtime", "ping", lambda _: {}, True),
        ("runtime", "import_module", lambda _: {"name": "json"}, True),
        ("sequences", "solve", lambda _: points, True),
        ("three-problems", "solve", lambda _: points, True),
        ("slots", "solve", lambda _: {}, True),
        ("slots", "real", lambda _: points, True),
        ("mix-vs-point", "solve", lambda _: {}, True),
        ("attention-vs-pointer", "solve", lambda _: points, True),
        ("hull-steps", "solve", lambda _: {}, True),
        ("hull-steps", "real", lambda _: points, True),
        ("pointer-generator", "solve", lambda _: {}, True),
        ("lm-shapes", "step", lambda _: {"tokens": [0]}, True),
    ]
    for demo, fns in (("sort-trainer", ("reset", "train", "set_mask", "view")), ("nplm", ("reset", "train", "view"))):
        examples += [(demo, fn, lambda _: {}, True) for fn in (*fns, "snapshot")]
        examples.append((demo, "restore", lambda replies, demo=demo: {"snapshot": replies[(demo, "snapshot")]}, True))
    examples.append(("length-eval", "evaluate", lambda _: {"lengths": [5, 50]}, True))
    trainer = "ptrnet-trainer"  # the reader's Ptr-Net: its weights go out and come back in through export/import
    examples += [(trainer, fn, lambda _: {}, True) for fn in ("reset", "view", "evaluate", "export", "snapshot")]
    examples += [
        (trainer, "train", lambda _: {"iterations": 1}, True),
        (trainer, "import", lambda replies: {"npz": replies[(trainer, "export")]["npz"]}, True),
        (trainer, "restore", lambda replies: {"snapshot": replies[(trainer, "snapshot")]}, True),
        ("three-problems", "solve", lambda _: points | {"mine": "main"}, True),  # the reader's model beside ours
    ]
    for model, spec in runner.MODELS.items():
        for decoding in [
            d for d in runner.DECODINGS if d == "greedy" or (spec.beam and (d != "beam_probable" or spec.task == "tsp"))
        ]:
            run = {"model": model, "sizes": runner.offered_sizes(model)[:1], "sets": 1, "decoding": decoding}
            run |= {"mine": "main"} if model == runner.MINE else {}  # the trainer instance the examples above made
            examples += [
                ("experiments", "plan", lambda _, run=run: run, True),
                ("experiments", "measure", lambda _, run=run: run | {"n": run["sizes"][0]}, True),
                (
                    "experiments",
                    "summarize",
                    lambda replies, run=run: (
                        run | {"sums": {str(run["sizes"][0]): [replies[("experiments", "measure")]["sums"]]}}
                    ),
                    True,
                ),
            ]
    for demo in sweeps.SWEEPS:  # the article's figures: the runner's requests, their settings fixed by Python
        run = sweeps.settings(demo)
        first = {"n": run["sizes"][0]}
        examples += [
            (demo, "plan", lambda _, run=run: run, True),
            (demo, "measure", lambda _, run=run, first=first: run | first, True),
            (
                demo,
                "summarize",
                lambda replies, run=run, demo=demo: (
                    run | {"sums": {str(run["sizes"][0]): [replies[(demo, "measure")]["sums"]]}}
                ),
                True,
            ),
        ]
    examples.append(("tsp-student", "solve", lambda _: points, True))
    examples += [
        ("runtime", "inject_fault", lambda _: {"demo": "runtime", "fn": "free"}, True),
        ("runtime", "free", lambda _: {}, False),  # fails on purpose: the reply to an unexpected error is traced too
        ("runtime", "free", lambda _: {}, True),
    ]
    return examples


def main(target: str) -> None:
    """Answer every example and write every module imported by then, sorted, to target."""
    from ptrnet import api, handlers
    from ptrnet.handlers import base

    for demos in handlers.FAMILIES.values():
        handlers.load(demos[0])  # every handler registered, so that none goes without an example
    examples = _examples()
    untried = set(base.HANDLERS) - {(demo, fn) for demo, fn, _, _ in examples}
    if untried:
        sys.exit(f"No example request for {sorted(untried)} in py/sitebuild/worker_imports.py: add one.")
    replies: Replies = {}
    for demo, fn, params, answered in examples:
        answer = api.call(demo, fn, params(replies))
        if answer["ok"] != answered:
            sys.exit(f"The example request {demo}/{fn} was {'not ' * answered}answered: {answer}")
        replies[(demo, fn)] = answer.get("result")
    with open(target, "w", encoding="utf-8") as out:
        json.dump(sorted(set(sys.modules)), out)


if __name__ == "__main__":
    main(sys.argv[1])
