"""When the page restarts its Python worker: only when it has really died. A stand-in worker that speaks
the protocol (site/js/runtime/protocol.js) holds its thread for as long as a test asks, as Python does
during a long call on a slow phone, so these run in seconds on any machine."""

import pytest

# The page's worker replaced by one that is ready at once and, for each call, says it started, then
# holds its thread for params.holdMs (or forever, with params.hang) before it answers.
STAND_IN_WORKER = """
postMessage({ channel: "status", stage: "runtime", progress: 0.05, message: "…" });
postMessage({ channel: "status", stage: "ready", progress: 1, message: "파이썬 준비 완료", start: "fresh" });
let dead = false; // a worker that died quietly: from params.silent on it answers nothing, not even pings
onmessage = ({ data }) => {
  dead ||= Boolean(data.params?.silent);
  if (dead) return;
  if (data.channel === "ping") return postMessage({ channel: "pong" });
  if (data.channel !== "rpc") return;
  postMessage({ channel: "started", id: data.id });
  const until = data.params.hang ? Infinity : performance.now() + data.params.holdMs;
  while (performance.now() < until) {}
  postMessage({ channel: "rpc", id: data.id, ok: true, result: { held: data.params.holdMs } });
};
"""

CALL = """async (params) => {
  const runtime = (await import('./js/runtime/client.js')).getRuntime();
  try { return { result: await runtime.call('test', 'hold', params) }; }
  catch (err) { return { kind: err.kind, message: err.message }; }
}"""


def _with_stand_in(page, site_url):
    """embed.html with no demo (its runtime only), its worker the stand-in."""
    page.route(
        "**/js/runtime/worker.js",
        lambda route: route.fulfill(status=200, content_type="text/javascript", body=STAND_IN_WORKER),
    )
    page.goto(site_url + "embed.html")
    page.wait_for_function("() => document.documentElement.dataset.python === 'ready'")
    return page


@pytest.fixture
def stand_in(page, site_url):
    return _with_stand_in(page, site_url)


def test_a_call_that_holds_the_worker_for_seconds_is_waited_for_and_shown_as_computing(stand_in):
    stand_in.evaluate(f"() => {{ window.__long = ({CALL})({{ holdMs: 6000 }}); }}")
    # Past the old 2 s "dead" mark and the 3 s "slow" mark, the banner says Python is computing.
    stand_in.wait_for_function(
        "() => document.querySelector('[data-runtime-banner]').dataset.stage === 'computing'", timeout=10_000
    )
    assert "계산 중" in stand_in.text_content("[data-runtime-banner]")
    assert stand_in.evaluate("() => window.__long") == {"result": {"held": 6000}}
    assert stand_in.get_attribute("html", "data-python-starts") == "1"
    assert stand_in.get_attribute("[data-runtime-banner]", "data-stage") == "ready"
    assert stand_in.watch.console_errors == []


def test_a_call_past_its_budget_restarts_the_worker_and_says_why(page, site_url):
    page.add_init_script("globalThis.PTRNET_CALL_BUDGET_MS = 4000;")
    stand_in = _with_stand_in(page, site_url)
    outcome = stand_in.evaluate(CALL, {"hang": True})
    assert outcome["kind"] == "restarted" and "다시 시작" in outcome["message"]
    stand_in.wait_for_function("() => document.documentElement.dataset.pythonStarts === '2'")
    stand_in.wait_for_function("() => document.querySelector('[data-runtime-banner]').dataset.stage === 'notice'")
    assert "4초 안에 끝나지 않았습니다" in stand_in.text_content("[data-runtime-banner]")
    # The new worker serves the next call.
    assert stand_in.evaluate(CALL, {"holdMs": 10}) == {"result": {"held": 10}}


def test_a_worker_silent_between_calls_is_restarted(stand_in):
    outcome = stand_in.evaluate(
        f"async () => {{ const t = performance.now(); const o = await ({CALL})({{ silent: true }});"
        " return { ...o, ms: performance.now() - t }; }"
    )
    assert outcome["kind"] == "restarted"
    assert 4_000 < outcome["ms"] < 15_000  # after about SILENT_BETWEEN_CALLS_MS (5 s) of unanswered pings
    assert stand_in.get_attribute("html", "data-python-starts") == "2"
