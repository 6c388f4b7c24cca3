"""The reader's Ptr-Net [ptrnet-trainer] trained like a reader would, with the CPython trainer as the oracle: the loss
falls, pause stops, reset starts over, a new worker continues from the snapshot, and exported weights come back
with the same answers while a malformed file is refused with a Korean message."""

import numpy as np
import pytest

from ptrnet.api import dispatch
from ptrnet.experiments import runner
from ptrnet.learn import grad as G
from ptrnet.learn.hull_trainer import Recipe, Trainer
from ptrnet.limits import HULL_EXAMPLE
from ptrnet.pointer import tasks, weights
from ptrnet.views.trainer import answer as model_answer
from tests.browser.conftest import out_value, wait_ready
from tests.browser.settle import calls_ahead, open_with_clock
from training.reports import evaluation

DEMO = '[data-demo="ptrnet-trainer"]'
RUNTIME = "import('./js/runtime/client.js')"


def value(page, name):
    return out_value(page, "ptrnet-trainer", name)


def click(page, action):
    page.click(f'{DEMO} [data-action="{action}"]')


def train_until(page, iterations):
    """Train until at least `iterations` updates, then pause and wait until the loop is idle."""
    click(page, "train")
    page.wait_for_function(
        """(n) => JSON.parse(document.querySelector('[data-demo="ptrnet-trainer"] [data-out="iteration"]')
            .dataset.value ?? '0') >= n""",
        arg=iterations,
        timeout=120_000,
    )
    click(page, "pause")
    wait_ready(page, "ptrnet-trainer")
    return value(page, "iteration")


def oracle(iterations: int) -> Trainer:
    """The CPython trainer after the same updates from the page's default seed and width."""
    t = Trainer(Recipe())
    t.train(iterations)
    return t


def test_the_loss_falls_and_pause_reset_and_a_new_worker_continue_exactly(page, site_url):
    open_with_clock(page, site_url + "three-problems.html")
    wait_ready(page, "ptrnet-trainer")
    start = dispatch("ptrnet-trainer", "reset", {"seed": 0, "hidden": 32, "points": HULL_EXAMPLE})
    assert value(page, "iteration") == 0 and value(page, "loss") is None
    assert value(page, "answer") == start["answer"]["output"]
    k = train_until(page, 40)
    trained = oracle(k)
    untrained = G.forward(Trainer(Recipe()).params, trained.batch(k - 1))[0]  # the same batch before training
    assert value(page, "loss") < untrained - 0.1
    assert value(page, "loss") == pytest.approx(trained.last_loss, rel=1e-6)
    assert set(value(page, "accuracy")) == {"5", "10", "20"}
    assert calls_ahead(page) == []  # paused: nothing more is asked
    assert value(page, "iteration") == k
    # A new worker: the page puts the snapshot back, and training goes on from update k.
    page.evaluate(f"async () => (await {RUNTIME}).getRuntime().worker.terminate()")
    k2 = train_until(page, k + 20)
    assert "이어 갑니다" in page.text_content(f"{DEMO} .demo-message")
    assert value(page, "loss") == pytest.approx(oracle(k2).last_loss, rel=1e-6)
    # Reset: back to the seed's starting point.
    click(page, "reset")
    wait_ready(page, "ptrnet-trainer")
    assert value(page, "iteration") == 0 and value(page, "answer") == start["answer"]["output"]
    assert page.watch.console_errors == []


def test_exported_weights_come_back_with_the_same_answers_and_a_bad_file_is_refused(page, site_url, tmp_path):
    page.goto(site_url + "three-problems.html")
    wait_ready(page, "ptrnet-trainer")
    k = train_until(page, 20)
    with page.expect_download() as download:
        click(page, "export")
    path = tmp_path / "mine.npz"
    download.value.save_as(path)
    assert download.value.suggested_filename.endswith(".npz")
    exported = weights.load(path.read_bytes())
    assert set(exported) == set(Trainer().params)  # the shipped format: weights.load reads it
    # A malformed file: a Korean message, and the model in memory stays as it was.
    before = (value(page, "iteration"), value(page, "answer"))
    page.set_input_files(f'{DEMO} [data-control="import"]', {"name": "bad.npz", "mimeType": "x", "buffer": b"no"})
    page.wait_for_function(
        "() => document.querySelector('[data-demo=\"ptrnet-trainer\"] .demo-message').textContent.includes('.npz')"
    )
    wait_ready(page, "ptrnet-trainer")
    assert "읽지 않았습니다" in page.text_content(f"{DEMO} .demo-message")
    assert (value(page, "iteration"), value(page, "answer")) == before == (k, before[1])
    # The exported file: the page's answers are those CPython decodes from the same file.
    page.set_input_files(f'{DEMO} [data-control="import"]', str(path))
    page.wait_for_function(
        "() => document.querySelector('[data-demo=\"ptrnet-trainer\"] .demo-message').textContent.includes('가져왔습니다')"
    )
    wait_ready(page, "ptrnet-trainer")
    imported = Trainer()
    imported.load(exported)
    assert value(page, "answer") == model_answer(imported, HULL_EXAMPLE)["output"]
    assert value(page, "model") == {"seed": 0, "hidden": 32, "imported": True}
    with page.expect_download() as again:
        click(page, "export")
    again_path = tmp_path / "again.npz"
    again.value.save_as(again_path)
    again_weights = weights.load(again_path.read_bytes())  # int8 again: equal up to the float32 row scales
    assert all(np.allclose(again_weights[k], exported[k], rtol=1e-6, atol=0) for k in exported)
    assert page.watch.console_errors == []


def test_the_runner_measures_the_readers_model(page, site_url):
    page.goto(
        site_url
        + "three-problems.html#experiments.model=mine&experiments.sizes=5,20&experiments.sets=40&experiments.seed=5"
    )
    wait_ready(page, "ptrnet-trainer")
    k = train_until(page, 150)
    wait_ready(page, "experiments")
    page.click('[data-demo="experiments"] [data-action="run"]')
    page.wait_for_function(
        """() => { const v = document.querySelector('[data-demo="experiments"] [data-out="results"]').dataset.value;
            return v && JSON.parse(v).complete; }""",
        timeout=120_000,
    )
    results = out_value(page, "experiments", "results")
    assert results["model"] == "mine"
    mine = oracle(k).params
    for row, n in zip(results["rows"], (5, 20), strict=True):
        points = [runner.point_set(5, n, i) for i in range(40)]
        offline = evaluation.measure(mine, "hull", [(p, tasks.SPECS["hull"].label(p)) for p in points], 1)
        assert row["n"] == n and row["sets"] == 40
        assert row["accuracy"] == offline["accuracy"] and row["not_simple"] == offline["not_simple"]
    assert page.watch.console_errors == []
