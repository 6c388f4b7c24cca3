"""A drag goes before background work: while the reader trains a model in [ptrnet-trainer], the companion drag's
requests (interactive calls, as callers.latestCaller makes them) are never queued behind a training chunk in the
page's one worker; the training resumes by itself once the drag stops."""

from ptrnet.limits import HULL_EXAMPLE
from tests.browser.conftest import out_value, wait_ready

TRAINER = "ptrnet-trainer"

# Records every request the page posts to its worker ([fn, time]) while `drags` interactive solve calls go one after
# another, as a drag's do, then until the first training request after them.
DRAG_WHILE_TRAINING = """async ({ drags, points }) => {
  const { getRuntime } = await import('./js/runtime/client.js');
  const runtime = getRuntime();
  const worker = runtime.worker;
  const sent = [];
  const post = worker.postMessage.bind(worker);
  worker.postMessage = (message, ...rest) => {
    if (message.channel === 'rpc') sent.push([message.fn, performance.now()]);
    return post(message, ...rest);
  };
  const first = performance.now();
  for (let k = 0; k < drags; k++)
    await runtime.call('three-problems', 'solve', { points, vote: false }, { interactive: true });
  const last = performance.now();
  const resumed = () => sent.some(([fn, at]) => fn === 'train' && at > last);
  while (!resumed() && performance.now() - last < 20000) await new Promise((resolve) => setTimeout(resolve, 20));
  delete worker.postMessage;
  return { first, last, sent };
}"""


def test_training_waits_while_the_reader_drags_and_resumes_after(page, site_url):
    page.goto(site_url + "three-problems.html")
    wait_ready(page, TRAINER)
    wait_ready(page, "three-problems")
    page.click(f'[data-demo="{TRAINER}"] [data-action="train"]')
    page.wait_for_function(
        f'() => JSON.parse(document.querySelector(\'[data-demo="{TRAINER}"] [data-out="iteration"]\')'
        ".dataset.value ?? '0') > 0",
        timeout=60_000,
    )
    log = page.evaluate(DRAG_WHILE_TRAINING, {"drags": 20, "points": HULL_EXAMPLE})
    # performance.now() is coarse (100 us in Chromium): the first call can be posted within the tick of `first`
    during = [fn for fn, at in log["sent"] if log["first"] <= at <= log["last"]]
    assert during.count("solve") == 20, during
    assert set(during) == {"solve"}, f"background work was sent during the drag: {during}"
    assert any(fn == "train" and at > log["last"] for fn, at in log["sent"]), "training did not resume"
    page.wait_for_function(
        '(k) => JSON.parse(document.querySelector(\'[data-demo="ptrnet-trainer"] [data-out="iteration"]\')'
        ".dataset.value) > k",
        arg=out_value(page, TRAINER, "iteration"),
        timeout=30_000,
    )
    page.click(f'[data-demo="{TRAINER}"] [data-action="pause"]')
    wait_ready(page, TRAINER)
    assert page.watch.console_errors == []
