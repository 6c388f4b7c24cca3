"""Counts (iterations, sets, runs) are written as Korean writes them, by our own formatter: the browser's
number formatting loads locale data on the page's main thread while Python starts beside it."""

from tests.browser.conftest import wait_settled


def test_counts_read_as_korean_number_formatting_writes_them(article):
    # Intl.NumberFormat for ko-KR is the oracle: a comma every three digits.
    pairs = article.evaluate(
        """async () => {
            const { formatCount } = await import('/source/js/demos/common.js');
            const oracle = new Intl.NumberFormat('ko-KR');
            const values = [0, 7, 999, 1000, 1001, 12345, 100000, 999999, 1000000, 123456789, -4321, 2 ** 40];
            return values.map((v) => [formatCount(v), oracle.format(v)]);
        }"""
    )
    assert [ours for ours, _ in pairs] == [oracle for _, oracle in pairs]


def test_a_page_load_never_starts_the_browsers_number_formatting(page, site_url):
    # Its first use loads locale data on the main thread while Python starts beside it (see common.js).
    page.add_init_script(
        """(() => {
            window.__numberFormats = 0;
            const Native = Intl.NumberFormat;
            Intl.NumberFormat = function (...args) { window.__numberFormats++; return new Native(...args); };
            const toLocaleString = Number.prototype.toLocaleString;
            Number.prototype.toLocaleString = function (...args) { window.__numberFormats++; return toLocaleString.apply(this, args); };
        })()"""
    )
    page.goto(site_url + "index.html")
    wait_settled(page)
    assert page.evaluate("() => document.documentElement.dataset.python") == "ready"
    assert page.evaluate("() => window.__numberFormats") == 0
