"""The page's Python runtime: loading state, failure with a Korean message, retry."""

from tests.browser.conftest import controlled_visit, drag, imported_file, out_value, wait_ready
from tests.harness import SETTLED


def test_a_failed_python_load_shows_a_korean_error_and_retry_recovers(page, site_url):
    page.route("**/pyodide/python_stdlib.zip", lambda route: route.fulfill(status=404, body="gone"))
    page.goto(site_url + "index.html")
    page.wait_for_function("() => document.documentElement.dataset.python === 'error'", timeout=60_000)
    banner = page.locator("[data-runtime-banner]")
    assert "파이썬" in banner.text_content()
    retry = page.locator('[data-action="retry-python"]')
    assert retry.is_visible()
    # The article itself still reads fine without Python.
    assert page.locator("h1").is_visible() and page.locator("#sequences h2").is_visible()
    page.unroute("**/pyodide/python_stdlib.zip")
    retry.click()
    wait_ready(page, "sequences")
    assert out_value(page, "sequences", "hull")
    assert not banner.is_visible()


def test_canvases_and_controls_are_drawn_before_python_is_ready(page, site_url):
    # Hold the wasm back: the page must already show its demo while Python loads.
    held = []
    page.route("**/pyodide/pyodide.asm.wasm", lambda route: held.append(route))
    page.goto(site_url + "index.html")
    page.wait_for_function("() => document.querySelector('[data-demo=\"sequences\"] canvas')?.dataset.viewport")
    assert page.get_attribute("html", "data-python") == "loading"
    assert page.get_attribute('[data-demo="sequences"]', "data-state") == "busy"
    assert page.locator('[data-demo="sequences"] [data-action="reset"]').is_visible()
    assert "중…" in page.locator("[data-runtime-banner] span").text_content()
    page.wait_for_function("() => document.querySelector('[data-runtime-banner] progress')?.value > 0")
    for route in held:
        route.continue_()
    page.unroute("**/pyodide/pyodide.asm.wasm")
    wait_ready(page, "sequences")


def test_the_wasm_downloads_beside_the_runtime_script_not_after_it(page, site_url):
    # The 10 MB wasm is most of a cold load's bytes: its download must not wait for the 1.2 MB
    # pyodide.asm.js to arrive and run. With that script held back, the wasm is asked for all the same.
    held = []
    page.route("**/pyodide/pyodide.asm.js", lambda route: held.append(route))
    is_wasm = lambda request: request.url.endswith("/pyodide/pyodide.asm.wasm")  # noqa: E731
    is_script = lambda request: request.url.endswith("/pyodide/pyodide.asm.js")  # noqa: E731
    with page.expect_request(is_script, timeout=30_000), page.expect_request(is_wasm, timeout=30_000):
        page.goto(site_url + "index.html")  # the script's request comes right after; it stays unanswered meanwhile
    page.evaluate("0")  # Playwright hands a request to its route handler after the request event: one round trip
    assert len(held) == 1
    held[0].continue_()
    page.unroute("**/pyodide/pyodide.asm.js")
    wait_ready(page, "sequences")
    wasm_requests = [url for url in page.watch.requests if url.endswith("/pyodide/pyodide.asm.wasm")]
    assert len(wasm_requests) == 1  # Pyodide's own request, made early: nothing fetched it twice


def test_python_starts_on_a_page_that_never_gets_an_animation_frame(page, site_url):
    # A tab opened in the background paints nothing, so requestAnimationFrame never calls back; the
    # worker, which waits for the first paint, must start after its deadline anyway.
    page.add_init_script("window.requestAnimationFrame = () => 0;")
    page.goto(site_url + "index.html")
    # Playwright polls on animation frames by default, which this page never has: poll on a timer.
    page.wait_for_function("() => document.documentElement.dataset.python === 'ready'", polling=100, timeout=60_000)
    assert page.watch.console_errors == []


# Terminates the page's worker at a moment when none of its calls is pending (the other demos keep sending theirs).
TERMINATE_BETWEEN_CALLS = """async () => {
  const runtime = (await import('./js/runtime/client.js')).getRuntime();
  while (runtime.pending.size) await new Promise((resolve) => setTimeout(resolve, 10));
  runtime.worker.terminate();
}"""


def test_a_terminated_worker_is_restarted_and_the_demo_recovers_with_a_notice(page, site_url):
    from ptrnet.geometry.notation import hull_sequence
    from tests.browser.conftest import canvas_points

    page.goto(site_url + "index.html")
    wait_ready(page, "sequences")
    # Killed between calls (no error event comes): a worker killed inside a call is given the call's whole budget.
    page.evaluate(TERMINATE_BETWEEN_CALLS)
    canvas = '[data-demo="sequences"] canvas'
    start = canvas_points(page, canvas)[0]
    drag(page, canvas, start, (0.6, 0.9), steps=4)
    # How fast recovery is, is measured by tests/bench/bench_site.py; here: that it happens.
    # A worker between calls answers a ping at once: silent for 5 s, it is started again.
    page.wait_for_function(
        "() => document.querySelector('[data-runtime-banner]').dataset.stage === 'notice'", timeout=30_000
    )
    wait_ready(page, "sequences")
    assert "다시 시작" in page.text_content("[data-runtime-banner]")
    points = canvas_points(page, canvas)
    assert points[0] == [0.6, 0.9]
    assert out_value(page, "sequences", "hull") == hull_sequence(points)


def test_the_service_worker_removes_what_earlier_builds_cached(browser, site_url):
    context = browser.new_context(service_workers="allow")
    page = context.new_page()
    page.goto(site_url + "index.html")
    # Before this build's service worker: an older version's cache, and the Python snapshot that
    # earlier builds kept in Cache Storage.
    page.evaluate(
        """async () => {
          for (const name of ['ptrnet-0000000000000000', 'pyodide-snapshot'])
            await (await caches.open(name)).put('left-over', new Response('x'));
        }"""
    )
    wait_ready(page, "sequences")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=60_000)
    keys = page.evaluate("async () => caches.keys()")
    assert len([key for key in keys if key.startswith("ptrnet-")]) == 1
    assert "ptrnet-0000000000000000" not in keys and "pyodide-snapshot" not in keys
    context.close()


def test_a_second_visit_works_offline_from_the_service_worker_cache(browser, site_url):
    context, page = controlled_visit(browser, site_url + "index.html")
    # A controlling service worker has finished its install step, which caches every file up front.
    version = page.evaluate("async () => (await caches.keys()).find((k) => k.startsWith('ptrnet-'))")
    cached = page.evaluate("async (name) => (await (await caches.open(name)).keys()).length", version)
    assert cached > 20
    context.set_offline(True)
    page.reload()
    wait_ready(page, "sequences")
    assert out_value(page, "sequences", "hull")
    page.goto(site_url + "three-problems.html")
    wait_ready(page, "three-problems")
    assert out_value(page, "three-problems", "hull") == [3, 6, 4, 5, 3]
    # files are cached without a query, and the root under index.html
    page.goto(site_url + "three-problems.html?from=a-link")
    wait_ready(page, "three-problems")
    page.goto(site_url)
    wait_ready(page, "sequences")
    context.close()


def test_the_service_worker_is_registered_only_once_the_demos_in_view_have_answered(browser, site_url):
    # Caching the whole site takes the CPU that the first answers need: it waits for them.
    context = browser.new_context(service_workers="allow")
    page = context.new_page()
    page.add_init_script(f"""
      const register = navigator.serviceWorker.register.bind(navigator.serviceWorker);
      navigator.serviceWorker.register = (...args) => {{
        window.settledAtRegister = ({SETTLED})();
        return register(...args);
      }};
    """)
    page.goto(site_url + "index.html")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=60_000)
    assert page.evaluate("() => window.settledAtRegister") is True
    context.close()


def test_quiet_waits_for_the_pending_calls_or_at_most_its_limit(page, site_url):
    page.goto(site_url + "index.html")
    wait_ready(page, "sequences")
    waits = page.evaluate("""async () => {
      const { getRuntime } = await import('./js/runtime/client.js');
      const runtime = getRuntime();
      let training = true;
      const loop = (async () => {
        while (training) await runtime.call('sort-trainer', 'train', { instance: 'quiet', iterations: 20 });
      })();
      let asked = performance.now();
      await runtime.quiet(1000);
      const busy = { waited: performance.now() - asked, pending: runtime.pending.size };
      training = false;
      await loop;
      asked = performance.now();
      await runtime.quiet(60_000);
      return { busy, idle: { waited: performance.now() - asked, pending: runtime.pending.size } };
    }""")
    # calls kept coming: the limit ended the wait, with a call still pending
    assert waits["busy"]["waited"] >= 1000 and waits["busy"]["pending"] == 1
    # nothing pending: it waited its quiet spell (400 ms), far short of the limit
    assert 400 <= waits["idle"]["waited"] < 30_000 and waits["idle"]["pending"] == 0


def test_killing_the_worker_mid_training_resumes_from_the_last_snapshot(page, site_url):
    # Killed inside a chunk, after its "started", the worker looks like one busy with a long call: the
    # page waits out the call's budget (90 s on the site, for slow phones), here a few seconds.
    page.add_init_script("globalThis.PTRNET_CALL_BUDGET_MS = 5000;")
    page.goto(site_url + "index.html")
    wait_ready(page, "sort-trainer")
    page.click('[data-demo="sort-trainer"] [data-action="train"]')
    iteration = "() => JSON.parse(document.querySelector('[data-demo=\"sort-trainer\"] [data-out=\"iteration\"]').dataset.value || '0')"
    page.wait_for_function(f"() => ({iteration})() >= 300", timeout=60_000)
    # Paused, the loop goes idle only once it has snapshotted its last change: a snapshot past 300 iterations.
    page.click('[data-demo="sort-trainer"] [data-action="pause"]')
    page.wait_for_function("() => document.querySelector('[data-demo=\"sort-trainer\"]').dataset.state === 'idle'")
    page.click('[data-demo="sort-trainer"] [data-action="train"]')
    page.wait_for_function(f"(n) => ({iteration})() > n", arg=page.evaluate(iteration), timeout=60_000)
    page.evaluate("async () => (await import('./js/runtime/client.js')).getRuntime().worker.terminate()")
    page.wait_for_function(
        "() => document.querySelector('[data-runtime-banner]').dataset.stage === 'notice'", timeout=20_000
    )
    page.wait_for_function(
        "() => document.querySelector('[data-demo=\"sort-trainer\"] .demo-message').textContent.includes('이어 갑니다')",
        timeout=60_000,
    )
    message = page.text_content('[data-demo="sort-trainer"] .demo-message span')
    resumed_from = int("".join(ch for ch in message.split("반복")[1].split("에")[0] if ch.isdigit()))
    assert 300 <= resumed_from  # a snapshot taken after the first 300 iterations, not a fresh start
    page.wait_for_function(f"(n) => ({iteration})() > n", arg=resumed_from + 50, timeout=60_000)  # training goes on
    page.click('[data-demo="sort-trainer"] [data-action="pause"]')


def test_an_unexpected_python_error_shows_a_retry_and_the_demo_recovers(page, site_url):
    from ptrnet.geometry.notation import hull_sequence
    from tests.browser.conftest import canvas_points

    page.goto(site_url + "index.html")
    wait_ready(page, "sequences")
    page.evaluate(
        "async () => (await import('./js/runtime/client.js')).getRuntime().call('runtime', 'inject_fault', { demo: 'sequences', fn: 'solve' })"
    )
    canvas = '[data-demo="sequences"] canvas'
    drag(page, canvas, canvas_points(page, canvas)[0], (0.7, 0.7), steps=1)
    page.wait_for_function("() => document.querySelector('[data-demo=\"sequences\"]').dataset.state === 'error'")
    message = page.locator('[data-demo="sequences"] .demo-message')
    assert "일부러 넣은 오류" in message.text_content()
    points = canvas_points(page, canvas)
    assert points[0] == [0.7, 0.7]  # the reader's state is kept
    assert page.get_attribute("html", "data-python") == "ready"  # other demos are unaffected
    page.click('[data-demo="sequences"] [data-action="retry"]')
    wait_ready(page, "sequences")
    assert out_value(page, "sequences", "hull") == hull_sequence(points)
    assert not message.locator("button").is_visible()


def test_a_stdlib_module_outside_our_precompiled_zip_is_fetched_from_the_full_one(page, site_url):
    page.goto(site_url + "index.html")
    wait_ready(page, "sequences")
    assert imported_file(page, "json").startswith("/lib/python312.zip/")
    assert not [url for url in page.watch.requests if url.endswith("python_stdlib_full.zip")]
    # Packages our zip lacks (xml, unittest), a submodule of one it has (json.tool), and a
    # module that builds docstrings from those of a module in our zip (email.mime -> policy).
    for name in ["xml.dom.minidom", "unittest.mock", "json.tool", "email.mime.text"]:
        assert imported_file(page, name).startswith("/lib/python_stdlib_full.zip/"), name
    assert len([url for url in page.watch.requests if url.endswith("python_stdlib_full.zip")]) == 1
    assert not page.watch.console_errors


def test_the_trained_weights_are_fetched_only_by_pages_whose_demos_run_a_model(page, site_url):
    page.goto(site_url + "embed.html#demo=sequences")
    wait_ready(page, "sequences")
    assert not [url for url in page.watch.requests if "/models/" in url]
    page.goto(site_url + "index.html")
    wait_ready(page, "lm-shapes")  # the top of the article, where a first visit starts
    page.wait_for_function(
        "() => document.querySelector('[data-demo=\"slots\"]').dataset.state === 'idle'", timeout=30_000
    )
    # Until a demo with a model comes near the screen its weights stay on the server: demo 1 answers
    # without its models' row, demo 4 waits.
    assert not [url for url in page.watch.requests if "/models/" in url]
    assert out_value(page, "slots", "hull") and out_value(page, "slots", "real_ptrnet") is None
    deferred = "() => [...document.querySelectorAll('[data-deferred=view]')].map((el) => el.dataset.demo)"
    figures = ["hull-sweep", "tsp-student", "tsp-sweep"]  # section 7's live figures, further down
    assert page.evaluate(deferred) == ["slots", "attention-vs-pointer", "hull-steps", *figures]
    wait_ready(page, "hull-steps")
    wait_ready(page, "attention-vs-pointer")
    wait_ready(page, "slots")
    page.wait_for_function(
        '() => document.querySelector(\'[data-demo="slots"] [data-out="real_ptrnet"]\').dataset.value'
    )
    assert page.evaluate(deferred) == figures  # still off screen: their weights stay on the server too
    fetched = [url.rsplit("/", 1)[1] for url in page.watch.requests if "/models/" in url]
    assert sorted(fetched) == ["hull_attention.npz", "hull_ptrnet.npz"]  # once each; the n = 5 baseline not at n = 8
    assert out_value(page, "slots", "real_ptrnet") and out_value(page, "slots", "real_seq2seq") is None
    page.fill('[data-demo="slots"] [data-control="n"]', "5")
    page.wait_for_function(
        "() => document.querySelector('[data-demo=\"slots\"] [data-out=\"real_seq2seq\"]')?.dataset.value?.startsWith('[')"
    )
    fetched = [url.rsplit("/", 1)[1] for url in page.watch.requests if "/models/" in url]
    assert sorted(fetched) == ["hull_attention.npz", "hull_ptrnet.npz", "hull_seq2seq.npz"]
    assert not page.watch.console_errors


def test_a_demo_used_before_it_is_on_screen_answers_at_once(page, site_url):
    from tests.browser.test_hull_steps_model import assert_matches_model

    page.goto(site_url + "index.html")
    wait_ready(page, "lm-shapes")
    root = '[data-demo="hull-steps"]'
    assert page.get_attribute(root, "data-deferred") == "view"
    # Where the reader looks: the demo in view (scroll anchoring keeps it in place while content above grows).
    in_view = "() => document.querySelector('[data-demo=\"lm-shapes\"]').getBoundingClientRect().top"
    before = page.evaluate(in_view)
    page.evaluate(f"() => document.querySelector('{root} [data-control=\"mask\"]').click()")  # no scrolling
    page.wait_for_function(f"() => document.querySelector('{root}').dataset.state === 'idle'", timeout=30_000)
    assert page.get_attribute(root, "data-deferred") is None
    assert abs(page.evaluate(in_view) - before) < 1  # it started because it was used, not seen
    assert_matches_model(page, 1, True)
