"""Python started from this browser's memory snapshot (site/js/runtime/fast-start/snapshot.js): the first visit
leaves one, a later visit starts from it and answers as a fresh start does, and a snapshot that does
not fit is dropped for a normal start."""

from tests.browser.conftest import PageWatch, imported_file, out_value, wait_ready
from tests.harness import SNAPSHOT_FILE, SNAPSHOT_FILES, SNAPSHOT_STORED, wait_until

STORED = SNAPSHOT_STORED
START = "() => document.documentElement.dataset.pythonStart"
# The start of a script that tampers with the stored file: its bytes, its head's length, and `put`,
# which writes bytes in its place.
OPEN_STORED = f"""async () => {{
  const handle = await ({SNAPSHOT_FILE})();
  const bytes = new Uint8Array(await (await handle.getFile()).arrayBuffer());
  const length = new DataView(bytes.buffer).getUint32(0, true);
  const put = async (data) => {{
    const writable = await handle.createWritable();
    await writable.write(data);
    await writable.close();
  }};"""
ITERATION = "() => JSON.parse(document.querySelector('[data-demo=\"sort-trainer\"] [data-out=\"iteration\"]').dataset.value || '0')"


def _visit(context, url: str):
    page = context.new_page()
    page.watch = PageWatch(page)
    page.warnings = []  # the worker's console warnings: a failed restore says so there
    page.on("console", lambda message: message.type == "warning" and page.warnings.append(message.text))
    page.goto(url)
    return page


def _stored_by_a_first_visit(context, site_url: str):
    """A first visit, once it has answered and stored its snapshot."""
    first = _visit(context, site_url + "index.html")
    wait_ready(first, "sequences")
    wait_until(first, STORED)
    return first


def _dropped_for_a_fresh_start(context, site_url: str, tried: bool) -> None:
    """The next visit starts fresh and answers (having tried the bad snapshot, or not even that), the
    fresh start stores a good snapshot in place of the bad one, and the visit after it starts from that."""
    page = _visit(context, site_url + "index.html")
    wait_ready(page, "sequences")
    assert page.evaluate(START) == "fresh"
    assert any("스냅숏을 쓰지 못해" in text for text in page.warnings) == tried
    assert out_value(page, "sequences", "hull")
    assert not page.watch.console_errors  # a warning, not an error: the reader sees a normal start
    wait_until(page, STORED)
    page.close()
    again = _visit(context, site_url + "index.html")
    wait_ready(again, "sequences")
    assert again.evaluate(START) == "snapshot"


def _tampered_and_dropped(browser, site_url: str, change: str, tried: bool):
    """A first visit's stored snapshot, changed by the script `change` (run after OPEN_STORED), is
    dropped for a fresh start (_dropped_for_a_fresh_start); returns what `change` returned."""
    context = browser.new_context()
    first = _stored_by_a_first_visit(context, site_url)
    returned = first.evaluate(OPEN_STORED + change + "}")
    first.close()
    _dropped_for_a_fresh_start(context, site_url, tried)
    context.close()
    return returned


def test_a_later_visit_starts_from_the_snapshot_and_answers_as_the_first(browser, site_url):
    context = browser.new_context()
    first = _visit(context, site_url + "index.html")
    wait_ready(first, "sequences")
    assert first.evaluate(START) == "fresh"
    fresh_hull = out_value(first, "sequences", "hull")
    wait_until(first, STORED)
    first.close()

    page = _visit(context, site_url + "index.html")
    wait_ready(page, "sequences")
    assert page.evaluate(START) == "snapshot"
    assert out_value(page, "sequences", "hull") == fresh_hull
    # numpy.random was not imported when the snapshot was taken: its extension modules are
    # loaded now, on the restored memory; the trainer draws from it and trains.
    assert imported_file(page, "numpy.random").endswith("numpy/random/__init__.pyc")
    wait_ready(page, "sort-trainer")
    page.click('[data-demo="sort-trainer"] [data-action="train"]')
    page.wait_for_function(f"() => ({ITERATION})() >= 200", timeout=60_000)
    page.click('[data-demo="sort-trainer"] [data-action="pause"]')
    # A module from the full stdlib, fetched after the restore.
    assert imported_file(page, "xml.dom.minidom").startswith("/lib/python_stdlib_full.zip/")
    assert not page.watch.console_errors

    # A page whose demo fetches trained weights into the restored runtime's files.
    problems = _visit(context, site_url + "three-problems.html")
    wait_ready(problems, "three-problems")
    assert problems.evaluate(START) == "snapshot"
    assert out_value(problems, "three-problems", "hull") == [3, 6, 4, 5, 3]
    assert not problems.watch.console_errors
    context.close()


def test_a_snapshot_that_does_not_fit_is_dropped_and_python_starts_fresh(browser, site_url):
    # Rename the extension modules' init functions in the record of the function table (same
    # length, so the stored layout holds): restoring can no longer put the table back as it was.
    _tampered_and_dropped(
        browser,
        site_url,
        """
          const record = new TextDecoder().decode(bytes.subarray(4, 4 + length)).replaceAll(':PyInit_', ':PyInXt_');
          if (!record.includes(':PyInXt_')) throw new Error('no init function in the record');
          bytes.set(new TextEncoder().encode(record), 4);
          await put(bytes);""",
        tried=True,  # as long as its head says: only restoring finds out
    )


def test_the_snapshot_leaves_out_zero_memory_pages_and_a_cut_one_is_dropped(browser, site_url):
    # The stored snapshot loses its last 4 KiB.
    stored = _tampered_and_dropped(
        browser,
        site_url,
        """
          const head = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + length)));
          await put(bytes.subarray(0, bytes.length - 4096));
          return { size: bytes.length, head: length, files: head.record.filesLength, memory: head.memory };""",
        tried=False,  # shorter than its head says: never tried
    )
    runs = stored["memory"]["runs"]
    kept = sum(end - start for start, end in runs)
    assert stored["size"] == 4 + stored["head"] + stored["files"] + kept
    assert kept < 0.9 * stored["memory"]["length"]  # the zero pages (about a third) are not stored
    assert all(start % 65536 == 0 and start < end for start, end in runs)
    assert all(a[1] < b[0] for a, b in zip(runs, runs[1:], strict=False))  # ordered, apart


def test_a_snapshot_whose_writing_was_cut_short_is_dropped(browser, site_url):
    # The head's length is written last: a write cut short leaves zero there.
    _tampered_and_dropped(
        browser, site_url, "bytes.fill(0, 0, 4); await put(bytes.subarray(0, bytes.length >> 1));", tried=False
    )


def test_a_browser_without_synchronous_access_handles_starts_fresh_and_leaves_no_file(browser, site_url):
    # As in WebKit: the origin's file system is there, but createSyncAccessHandle rejects.
    refuse = (
        "FileSystemFileHandle.prototype.createSyncAccessHandle = () =>"
        " Promise.reject(new DOMException('not here', 'NotSupportedError'));\n"
    )

    def refusing_worker(route):
        response = route.fetch()
        route.fulfill(response=response, body=refuse + response.text())

    context = browser.new_context()
    context.route("**/js/runtime/worker.js", refusing_worker)
    for _ in range(2):
        page = _visit(context, site_url + "index.html")
        wait_ready(page, "sequences")
        assert page.evaluate(START) == "fresh"
        page.evaluate("async () => (await import('./js/runtime/client.js')).getRuntime().quiet(15000)")
        assert page.evaluate(f"async () => (await ({SNAPSHOT_FILES})()).length") == 0
        assert not any("스냅숏을 쓰지 못해" in text for text in page.warnings)  # no empty file was tried
        assert not page.watch.console_errors
        page.close()
    context.close()


def test_storing_a_snapshot_removes_another_builds(browser, site_url):
    context = browser.new_context()
    first = _stored_by_a_first_visit(context, site_url)
    # In place of this build's snapshot, one stored by another build (another key; all zero, so that
    # STORED waits for the new one).
    first.evaluate(
        """async () => {
          const folder = await (await navigator.storage.getDirectory()).getDirectoryHandle('pyodide-snapshot');
          for await (const name of folder.keys()) await folder.removeEntry(name);
          const other = await (await folder.getFileHandle('0'.repeat(64), { create: true })).createWritable();
          await other.write(new Uint8Array(4096));
          await other.close();
        }"""
    )
    first.close()
    page = _visit(context, site_url + "index.html")
    wait_ready(page, "sequences")
    assert page.evaluate(START) == "fresh"
    wait_until(page, STORED)
    names = page.evaluate(f"async () => (await ({SNAPSHOT_FILES})()).map((handle) => handle.name)")
    assert len(names) == 1 and names[0] != "0" * 64
    context.close()


def test_the_snapshot_is_written_away_at_the_first_pause_in_the_calls(browser, site_url):
    # Writing tens of MB takes the worker's time that the first answers need: it waits for a pause.
    context = browser.new_context()
    page = _visit(context, site_url + "index.html")
    page.wait_for_function("() => document.documentElement.dataset.python === 'ready'", timeout=60_000)
    page.evaluate("""async () => {
      const { getRuntime } = await import('./js/runtime/client.js');
      window.training = true;
      window.loop = (async () => {
        while (window.training) await getRuntime().call('sort-trainer', 'train', { instance: 'busy', iterations: 20 });
      })();
    }""")
    stored_while_busy = page.evaluate(f"""async () => {{
      const until = performance.now() + 3000;
      while (performance.now() < until) {{
        if (await ({STORED})()) return true;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }}
      return false;
    }}""")
    page.evaluate("async () => { window.training = false; await window.loop; }")
    assert stored_while_busy is False  # 3 s of calls without a pause: not yet
    wait_until(page, STORED)  # the pause came: written away
    assert page.evaluate(START) == "fresh"
    context.close()
