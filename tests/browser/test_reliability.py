"""Issue 13 in the browser: every demo element owns its model in the worker, no call is ever left
pending, a hanging or failing start is survived, and controls can change at any moment."""

import pytest

from tests.browser.conftest import out_value, wait_ready
from tests.harness import serving, url_of, wait_until

TWO_OF_EACH = """<!DOCTYPE html>
<html lang="ko"><head><meta charset="utf-8"><title>두 개씩</title><link rel="icon" href="data:,">
<script type="module" src="{site}embed.js"></script>
</head><body>
<ptr-demo id="t1" name="sort-trainer" seed="3" mask="1"></ptr-demo>
<ptr-demo id="t2" name="sort-trainer" seed="9" mask="0"></ptr-demo>
<ptr-demo id="n1" name="nplm" seed="1" direct="1"></ptr-demo>
<ptr-demo id="n2" name="nplm" seed="2" direct="0"></ptr-demo>
</body></html>"""

RUNTIME = "import('./js/runtime/client.js')"


@pytest.fixture(scope="module")
def two_url(site_url, tmp_path_factory):
    """A page on another origin with two sort-trainers and two NPLMs."""
    folder = tmp_path_factory.mktemp("two")
    (folder / "index.html").write_text(TWO_OF_EACH.format(site=site_url), encoding="utf-8")
    with serving(folder, site=False) as server:
        yield url_of(server, "/index.html")


def _idle(page, element_id):
    page.wait_for_function(
        "(id) => document.getElementById(id)?.shadowRoot?.querySelector('[data-demo]')?.dataset.state === 'idle'",
        arg=element_id,
        timeout=90_000,
    )


def _value(page, element_id, name):
    return page.evaluate(
        "([id, name]) => JSON.parse(document.getElementById(id).shadowRoot.querySelector(`[data-out=\"${name}\"]`)?.dataset.value ?? 'null')",
        [element_id, name],
    )


def _click(page, element_id, action):
    page.locator(f'#{element_id} [data-action="{action}"]').click()


def _train_until(page, element_id, iterations):
    _click(page, element_id, "train")
    page.wait_for_function(
        "([id, n]) => JSON.parse(document.getElementById(id).shadowRoot.querySelector('[data-out=\"iteration\"]')?.dataset.value ?? '0') >= n",
        arg=[element_id, iterations],
        timeout=60_000,
    )
    _click(page, element_id, "pause")
    _idle(page, element_id)


@pytest.fixture
def two(page, two_url, site_url):
    page.goto(two_url)
    for element_id in ("t1", "t2", "n1", "n2"):
        _idle(page, element_id)
    page.runtime = f"import('{site_url}js/runtime/client.js')"  # the embeds' own module (another origin)
    return page


def test_two_trainer_embeds_each_train_their_own_model(two):
    assert _value(two, "t1", "model") == {"seed": 3, "mask": True, "diverged": False}
    assert _value(two, "t2", "model") == {"seed": 9, "mask": False, "diverged": False}
    _train_until(two, "t1", 200)
    first = _value(two, "t1", "iteration")
    assert _value(two, "t2", "iteration") == 0  # training one did not move the other
    _train_until(two, "t2", 50)
    assert _value(two, "t1", "iteration") == first
    ids = two.evaluate(
        "() => ['t1', 't2'].map((id) => document.getElementById(id).shadowRoot.querySelector('[data-demo]').dataset.instance)"
    )
    assert len(set(ids)) == 2
    views = [
        two.evaluate(
            f"async (instance) => (await {two.runtime}).getRuntime().call('sort-trainer', 'view', {{ instance }})", i
        )
        for i in ids
    ]
    assert [v["iteration"] for v in views] == [first, _value(two, "t2", "iteration")]
    assert [v["mask"] for v in views] == [True, False]
    assert not two.watch.console_errors


def test_two_nplm_embeds_are_independent(two):
    _train_until(two, "n1", 40)
    assert _value(two, "n2", "iteration") == 0
    assert _value(two, "n1", "model")["direct"] is True and _value(two, "n2", "model")["direct"] is False


def test_a_worker_restart_puts_back_each_instances_own_model(two):
    _train_until(two, "t1", 150)
    _train_until(two, "n2", 30)  # idle: each loop has snapshotted its last change (ui/request-loop.js)
    before = {i: _value(two, i, "iteration") for i in ("t1", "t2", "n1", "n2")}
    two.evaluate(f"async () => (await {two.runtime}).getRuntime().worker.terminate()")
    two.locator('#t2 [data-action="step"]').click()  # a request finds the dead worker
    wait_until(two, f"async () => (await {two.runtime}).getRuntime().status.stage === 'ready'")
    for element_id in ("t1", "t2", "n1", "n2"):
        two.locator(f'#{element_id} [data-action="reset"]').wait_for()
    _idle(two, "t2")
    views = {
        i: two.evaluate(
            f"async (id) => {{ const el = document.getElementById(id).shadowRoot.querySelector('[data-demo]');"
            f" return (await {two.runtime}).getRuntime().call(el.dataset.demo, 'view', {{ instance: el.dataset.instance }}); }}",
            i,
        )
        for i in ("t1", "n2")
    }
    assert views["t1"]["iteration"] == before["t1"] and views["t1"]["seed"] == 3
    assert views["n2"]["iteration"] == before["n2"] and views["n2"]["direct"] is False
    assert _value(two, "t2", "iteration") == before["t2"] + 1  # the step, on its own restored model


def test_a_removed_embed_lets_the_worker_forget_its_model(two):
    _train_until(two, "t1", 100)
    instance = two.evaluate(
        "() => document.getElementById('t1').shadowRoot.querySelector('[data-demo]').dataset.instance"
    )
    two.evaluate("() => { window.removed = document.getElementById('t1'); window.removed.remove(); }")
    # The element empties its shadow root right after sending `free` (embed.js): the view asked below follows it.
    two.wait_for_function("() => window.removed.shadowRoot.childElementCount === 0")
    view = two.evaluate(
        f"async (instance) => (await {two.runtime}).getRuntime().call('sort-trainer', 'view', {{ instance }})", instance
    )
    assert view["iteration"] == 0  # a new, untrained sorter: the old one was freed
    assert _value(two, "t2", "iteration") == 0 and not two.watch.console_errors


def test_when_the_worker_cannot_come_back_pending_calls_fail_with_a_korean_message_and_retry_recovers(page, site_url):
    page.goto(site_url + "index.html")
    wait_ready(page, "sequences")
    page.route("**/js/runtime/worker.js", lambda route: route.fulfill(status=404, body="gone"))
    page.evaluate(f"async () => (await {RUNTIME}).getRuntime().worker.terminate()")
    page.locator('[data-demo="sequences"] [data-action="reset"]').click()  # pending on a dead worker
    page.wait_for_function(
        "() => document.querySelector('[data-demo=\"sequences\"]').dataset.state === 'error'", timeout=30_000
    )
    assert "파이썬" in page.text_content('[data-demo="sequences"] .demo-message')
    assert page.locator('[data-demo="sequences"] [data-action="retry"]').is_visible()
    later = page.evaluate(
        f"async () => {{ try {{ await (await {RUNTIME}).getRuntime().call('runtime', 'ping', {{}}); return 'resolved'; }}"
        " catch (err) { return err.kind + ': ' + err.message; } }"
    )
    assert later.startswith("unavailable: ") and "파이썬" in later
    page.unroute("**/js/runtime/worker.js")
    page.locator('[data-action="retry-python"]').click()
    wait_ready(page, "sequences")
    assert out_value(page, "sequences", "hull")


def test_a_start_that_hangs_counts_as_a_dead_worker(page, site_url):
    page.add_init_script("globalThis.PTRNET_START_STALL_MS = 1500;")
    held = []
    page.route("**/pyodide/pyodide.asm.wasm", lambda route: held.append(route))
    page.goto(site_url + "index.html")
    page.wait_for_function("() => document.documentElement.dataset.python === 'error'", timeout=30_000)
    assert "멈췄습니다" in page.text_content("[data-runtime-banner]")
    assert len(held) >= 2  # it started again before giving up
    for route in held:  # a request left pending would hold the browser's cache entry for that URL
        route.abort()
    page.unroute("**/pyodide/pyodide.asm.wasm")
    # the retry starts with the page's own allowance: 1.5 s per stage is only for the hang above
    page.evaluate("delete globalThis.PTRNET_START_STALL_MS")
    page.locator('[data-action="retry-python"]').click()
    wait_ready(page, "sequences")


def test_the_service_worker_registers_after_a_failed_load_and_a_retry(browser, site_url):
    context = browser.new_context()
    page = context.new_page()
    page.route("**/pyodide/python_stdlib.zip", lambda route: route.fulfill(status=404, body="gone"))
    page.goto(site_url + "index.html")
    page.wait_for_function("() => document.documentElement.dataset.python === 'error'", timeout=60_000)
    page.unroute("**/pyodide/python_stdlib.zip")
    page.locator('[data-action="retry-python"]').click()
    page.wait_for_function("() => document.documentElement.dataset.python === 'ready'", timeout=60_000)
    wait_until(page, "async () => Boolean(await navigator.serviceWorker.getRegistration())", timeout=30)
    context.close()


def test_train_then_a_new_seed_before_the_first_reply_is_fine(page, site_url):
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    held = []
    page.route("**/pyodide/pyodide.asm.wasm", lambda route: held.append(route))
    page.goto(site_url + "index.html")
    root = '[data-demo="sort-trainer"]'
    page.locator(f'{root} [data-action="train"]').click()
    page.fill(f'{root} [data-control="seed"]', "11")
    page.locator(f'{root} [data-control="seed"]').dispatch_event("change")
    for route in held:
        route.continue_()
    page.unroute("**/pyodide/pyodide.asm.wasm")
    page.wait_for_function(
        "() => JSON.parse(document.querySelector('[data-demo=\"sort-trainer\"] [data-out=\"iteration\"]')?.dataset.value ?? '0') > 20",
        timeout=60_000,
    )
    page.locator(f'{root} [data-action="pause"]').click()
    assert errors == []
    assert "새 시드(11)" in page.text_content(f"{root} .demo-message")


def test_histories_keep_memory_flat(page, site_url):
    page.goto(site_url + "index.html")
    kept = page.evaluate("""async () => {
        const { boundedSeries } = await import('/source/js/ui/bounded-series.js');
        const series = boundedSeries(1000);
        for (let i = 1; i <= 100000; i++) series.push(i, 1 / i);
        return { n: series.xs.length, first: series.xs[0], last: series.last, sorted: series.xs.every((x, k) => !k || x > series.xs[k - 1]) };
    }""")
    assert 500 <= kept["n"] <= 1000 and kept["first"] == 1 and kept["sorted"] and kept["last"] > 99000


def test_python_none_arrives_as_null(page, site_url):
    page.goto(site_url + "index.html")
    wait_ready(page, "sequences")
    loss = page.evaluate(
        f"async () => {{ const r = await (await {RUNTIME}).getRuntime().call('sort-trainer', 'reset', {{ instance: 'none-test' }}); return [r.loss === null, 'loss' in r]; }}"
    )
    assert loss == [True, True]
