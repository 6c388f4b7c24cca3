"""Installing the wheels on a fresh start (site/js/runtime/fast-start/wheels.js): a helper worker downloads and
inflates them while Python starts, checked file by file against Python's zipfile; where the helper
cannot run, Python unpacks them; a wheel that fails to download is a Korean error with a retry."""

import base64
import hashlib
import io
import zipfile

import pytest

from tests.browser.conftest import controlled_visit, imported_file, out_value, wait_ready
from tests.harness import SNAPSHOT_DROPPED, SNAPSHOT_STORED, wait_until
from tests.site_build import config

# {path: sha-256} of every file the browser inflates from the archive (base64), or the error's text.
INFLATE = """async (archive) => {
  const { wheelFiles } = await import('/source/js/runtime/fast-start/wheel-files.js');
  const bytes = Uint8Array.from(atob(archive), (c) => c.charCodeAt(0));
  try {
    const files = await wheelFiles(bytes);
    const hex = async (b) => [...new Uint8Array(await crypto.subtle.digest('SHA-256', b))].map((x) => x.toString(16).padStart(2, '0')).join('');
    return Object.fromEntries(await Promise.all(files.map(async ({ path, bytes }) => [path, await hex(bytes)])));
  } catch (err) {
    return String(err.message);
  }
}"""


def _files(archive: bytes) -> dict[str, str]:
    """{path: sha-256} of every file in a zip archive, read by Python's zipfile."""
    with zipfile.ZipFile(io.BytesIO(archive)) as z:
        return {i.filename: hashlib.sha256(z.read(i)).hexdigest() for i in z.infolist() if not i.is_dir()}


def _inflate(page, archive: bytes):
    return page.evaluate(INFLATE, base64.b64encode(archive).decode())


class _Unseekable(io.RawIOBase):
    """A write-only stream zipfile cannot seek back in, so it writes data descriptors after each file."""

    def __init__(self) -> None:
        self.data = bytearray()

    def writable(self) -> bool:
        return True

    def write(self, b) -> int:
        self.data += b
        return len(b)


def _crafted(compression: int, comment: bytes = b"", unseekable: bool = False, names=("a/b.txt",)) -> bytes:
    """A small archive of repetitive text files under the given names, with a directory entry."""
    out = _Unseekable() if unseekable else io.BytesIO()
    with zipfile.ZipFile(out, "w", compression) as z:
        z.writestr("a/", b"")
        for k, name in enumerate(names):
            info = zipfile.ZipInfo(name)
            info.compress_type = compression
            info.extra = b"\xca\xfe\x04\x00abcd"  # an extra field of an unknown kind, 4 bytes
            z.writestr(info, ("포인터 네트워크 " * (50 + k)).encode())
        z.comment = comment
    return bytes(out.data if unseekable else out.getvalue())


def _encrypted(archive: bytes) -> bytes:
    """The archive with its last file marked encrypted (bit 0 of the central directory's flags)."""
    at = archive.rindex(b"PK\x01\x02") + 8
    return archive[:at] + bytes([archive[at] | 1]) + archive[at + 1 :]


def test_the_browser_inflates_each_shipped_wheel_into_exactly_the_files_pythons_zipfile_reads(page, site_url):
    page.goto(site_url + "embed-guide.html")
    wheels = sorted((config.DIST / "pyodide").glob("*.whl"))
    assert {w.name.split("-")[0] for w in wheels} == {"numpy", "ptrnet"}
    for wheel in wheels:
        archive = wheel.read_bytes()
        assert _inflate(page, archive) == _files(archive), wheel.name


def test_stored_files_comments_extra_fields_and_data_descriptors_inflate_as_zipfile_reads_them(page, site_url):
    page.goto(site_url + "embed-guide.html")
    names = ("a/b.txt", "a/c/d.pyc", "e.so")
    for archive in (
        _crafted(zipfile.ZIP_STORED, names=names),
        _crafted(zipfile.ZIP_DEFLATED, comment=b"a comment of the archive", names=names),
        _crafted(zipfile.ZIP_DEFLATED, unseekable=True, names=names),
    ):
        assert _inflate(page, archive) == _files(archive)
        assert set(_files(archive)) == set(names)


@pytest.mark.parametrize(
    ("archive", "error"),
    [
        (_crafted(zipfile.ZIP_BZIP2), "compression method 12"),
        (_crafted(zipfile.ZIP_DEFLATED)[:-30], "no end of central directory"),
        (_crafted(zipfile.ZIP_DEFLATED, names=("../escape.txt",)), "leaves the folder"),
        (b"PK" + bytes(40), "no end of central directory"),
        (_encrypted(_crafted(zipfile.ZIP_DEFLATED)), "is encrypted"),
    ],
    ids=["bzip2", "truncated", "escaping-path", "not-a-zip", "encrypted"],
)
def test_archives_the_reader_cannot_take_are_refused_with_a_reason(page, site_url, archive: bytes, error: str):
    page.goto(site_url + "embed-guide.html")
    assert error in _inflate(page, archive)


def test_a_fresh_start_inflates_the_wheels_in_a_helper_worker_and_answers(page, site_url):
    workers = []
    page.on("worker", lambda worker: workers.append(worker.url.rsplit("/", 1)[-1]))
    page.goto(site_url + "index.html")
    wait_ready(page, "sequences")
    assert "wheel-worker.js" in workers
    assert page.evaluate("() => document.documentElement.dataset.pythonStart") == "fresh"
    numpy = imported_file(page, "numpy.random")
    assert numpy.endswith("/site-packages/numpy/random/__init__.pyc")
    assert out_value(page, "sequences", "hull")
    assert not page.watch.console_errors


def test_without_the_helper_worker_python_unpacks_the_wheels_and_the_page_answers(page, site_url):
    page.route("**/js/runtime/fast-start/wheel-worker.js", lambda route: route.fulfill(status=404, body="gone"))
    page.goto(site_url + "index.html")
    wait_ready(page, "sequences")
    assert imported_file(page, "ptrnet.api").endswith("/site-packages/ptrnet/api.pyc")
    assert out_value(page, "sequences", "hull")


def test_a_wheel_that_fails_to_download_is_a_korean_error_and_retry_recovers(page, site_url):
    page.route("**/pyodide/numpy-*.whl", lambda route: route.fulfill(status=404, body="gone"))
    page.goto(site_url + "index.html")
    page.wait_for_function("() => document.documentElement.dataset.python === 'error'", timeout=60_000)
    assert "numpy-2.0.2" in page.locator("[data-runtime-banner]").text_content()
    assert "내려받지 못했습니다" in page.locator("[data-runtime-banner]").text_content()
    page.unroute("**/pyodide/numpy-*.whl")
    page.click('[data-action="retry-python"]')
    wait_ready(page, "sequences")
    assert out_value(page, "sequences", "hull")


def test_offline_a_fresh_start_gets_the_wheels_from_the_service_worker_cache(browser, site_url):
    context, page = controlled_visit(browser, site_url + "index.html")
    wait_until(page, SNAPSHOT_STORED)
    page.evaluate(SNAPSHOT_DROPPED)  # so that the next start is a fresh one
    workers = []
    page.on("worker", lambda worker: workers.append(worker.url.rsplit("/", 1)[-1]))
    context.set_offline(True)
    page.reload()
    wait_ready(page, "sequences")
    assert page.evaluate("() => document.documentElement.dataset.pythonStart") == "fresh"
    assert "wheel-worker.js" in workers
    assert out_value(page, "sequences", "hull")
    context.close()
