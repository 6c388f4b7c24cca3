"""The main article's live figures (ptrnet.experiments.sweeps): runs the runner accepts, light enough for the
article, and fixed by Python whatever the page sends."""

import pytest

from ptrnet import api
from ptrnet.experiments import runner, sweeps

ESTIMATE_AT_MOST_S = 10  # Pyodide seconds a figure's run may take by the runner's own estimate (an idle machine)


@pytest.mark.parametrize("demo", sorted(sweeps.SWEEPS))
def test_a_figure_runs_its_fixed_settings_whatever_the_page_sends(demo):
    other = "tsp" if sweeps.SWEEPS[demo].model == "hull" else "hull"
    reply = api.call(demo, "plan", {"model": other, "sizes": [5], "sets": 3, "seed": 77})
    assert reply["ok"], reply
    plan = reply["result"]
    assert {k: plan[k] for k in ("model", "sizes", "sets", "decoding", "seed")} == sweeps.settings(demo)
    assert plan["estimate_seconds"] <= ESTIMATE_AT_MOST_S
    assert plan["paper"] == runner.paper_rows(sweeps.SWEEPS[demo].model)


def test_the_runner_itself_still_runs_what_the_page_asks():
    reply = api.call("experiments", "plan", {"model": "tsp", "sizes": [5], "sets": 3, "seed": 77})
    assert reply["ok"] and reply["result"]["model"] == "tsp" and reply["result"]["sets"] == 3
