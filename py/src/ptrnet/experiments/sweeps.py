"""The main article's fixed runs of the experiment runner (§7 "논문은 무엇을 보였나"): for each figure demo, the
runner's model, sizes, sets per size, decoding and seed. The page measures them through the runner's own requests
(handlers.experiments) and draws them with the runner's chart; few sets per size keep the article light."""

from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class Sweep:
    """One figure's run, as the runner's plan request takes it."""

    model: str  # runner.MODELS key
    sizes: tuple[int, ...]  # test sizes n, drawn on the figure's x axis
    sets: int  # sets per size: a few, so the run takes seconds (the results JSONs hold the full test sets)
    decoding: str  # runner.DECODINGS: the TSP figure decodes as the paper did, its beam's most probable tour
    seed: int  # TSP above Held-Karp's sizes needs one of runner.REFERENCE_SEEDS (the shipped LKH-3 tours)


SWEEPS = {  # figure demo id -> its run
    "hull-sweep": Sweep("hull", (5, 10, 20, 50, 100, 200), 20, "greedy", 1),
    "tsp-sweep": Sweep("tsp", (5, 10, 20, 25, 30, 40, 50), 20, "beam_probable", 1),  # the paper's pick
}


def settings(demo: str) -> dict:
    """A figure's run as the plan request's parameters (sizes as a list)."""
    return asdict(SWEEPS[demo]) | {"sizes": list(SWEEPS[demo].sizes)}
