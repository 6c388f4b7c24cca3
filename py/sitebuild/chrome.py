"""The pages' shared frame, written at build time from one template and ptrnet.manifest: the document around each
page in NAV, its site header whose navigation links every page in NAV, its footer, and each demo's numbered,
captioned frame. A page in site/ keeps only its own content:

    <!-- ptrnet:page -->            (or `ptrnet:page frames` where it shows live embeds)
    <title>…</title> and its own head lines (description, stylesheets beyond the two every page has, scripts)
    <main> its content, with <!-- ptrnet:demo ID --> where a demo stands </main>
    <footer> its footer's content </footer>

A page that shows demos (by the manifest) gets the runtime banner and <html data-python="loading">.
"""

import re
from html import escape
from pathlib import Path

from sitebuild.shell import BuildError

SITE_TITLE = "포인터 네트워크, 직접 만져 보기"
NAV = {  # the pages written from the template, in the navigation's order -> their link text
    "index.html": "본문",
    "three-problems.html": "동반 페이지: 논문의 세 문제",
    "embed-guide.html": "임베드 안내",
}
SOURCE = re.compile(
    r"<!-- ptrnet:page(?P<frames> frames)? -->\n(?P<head>.*?)\n+"
    r"<main>\n(?P<main>.*?)\n</main>\n+<footer>\n(?P<footer>.*?)\n</footer>\n*",
    re.S,
)
DEMO = re.compile(r"^([ \t]*)<!-- ptrnet:demo ([\w-]+) -->$", re.M)  # a demo's frame, indented as its placeholder
DEMO_COUNT = "<!-- ptrnet:demo-count -->"  # how many demos the page shows: "10"
DEMO_LIST = "<!-- ptrnet:demo-list -->"  # their numbers, each a link to its frame: "0-1, 0-2, 1, …"
LAYOUT = """<!DOCTYPE html>
<html lang="ko"{python}>
<head>
<!-- ptrnet:head{frames} -->
<link rel="stylesheet" href="css/site.css">
<link rel="stylesheet" href="css/article.css">
{head}
</head>
<body>
{banner}<a class="skip-link" href="#main">본문으로 건너뛰기</a>

<header class="site-header">
  <div class="site-header-inner">
    <a class="site-title" href="index.html">{title}</a>
    <nav class="site-nav" aria-label="사이트">
      <ul>
{links}
      </ul>
    </nav>
  </div>
</header>

<main id="main" tabindex="-1">
{main}
</main>

<footer class="site-footer">
  <div class="site-footer-inner">
{footer}
  </div>
</footer>
</body>
</html>
"""
BANNER = '<div class="runtime-banner" data-runtime-banner role="status" aria-live="polite"></div>\n'
FRAME = """<figure class="demo-frame" id="{anchor}" aria-labelledby="{anchor}-title">
  <figcaption class="demo-caption" id="{anchor}-title"><span class="demo-no">데모 {number}</span> · {title}</figcaption>
  <div class="demo" data-demo="{id}"></div>
</figure>"""


def page_html(name: str, source: str) -> str:
    """A page in NAV as the site serves it (but for the shared <head> lines, heads.write_heads): its source inside
    the template, its own navigation link marked current."""
    from ptrnet import manifest  # the build's own Python has no ptrnet until build.py runs in the venv

    parts = SOURCE.fullmatch(source)
    if not parts:
        raise BuildError(f"{name}: not a page source (<!-- ptrnet:page -->, head lines, <main>, <footer>).")
    shows_demos = any(demo.page == name for demo in manifest.DEMOS)
    current = {page: ' aria-current="page"' if page == name else "" for page in NAV}
    return LAYOUT.format(
        python=' data-python="loading"' if shows_demos else "",
        frames=parts["frames"] or "",
        head=parts["head"],
        banner=BANNER if shows_demos else "",
        title=escape(SITE_TITLE),
        links="\n".join(
            f'        <li><a href="{page}"{current[page]}>{escape(text)}</a></li>' for page, text in NAV.items()
        ),
        main=parts["main"],
        footer="\n".join(f"  {line}" if line else line for line in parts["footer"].split("\n")),
    )


def demo_frame(demo, indent: str = "") -> str:
    """A demo's frame as its page shows it: the anchor the links use, the caption, the element its controller fills."""
    frame = FRAME.format(anchor=demo.anchor, number=demo.number, title=escape(demo.title), id=demo.id)
    return "\n".join(indent + line for line in frame.split("\n"))


def demo_counts(html: str, page: str) -> str:
    """A page's demo count and linked list of demo numbers, where its text asks for them, from the manifest."""
    from ptrnet import manifest

    mine = [demo for demo in manifest.DEMOS if demo.page == page]
    links = ", ".join(f'<a href="#{demo.anchor}">{demo.number}</a>' for demo in mine)
    return html.replace(DEMO_COUNT, str(len(mine))).replace(DEMO_LIST, links)


def write_pages(dist: Path) -> None:
    """Write every page in NAV from its source and fill every page's demo placeholders. A page in NAV missing, a
    page source outside NAV, an unknown demo, a demo on another page than the manifest's, or a demo placed other than
    once, stops the build."""
    from ptrnet import manifest

    missing = [name for name in NAV if not (dist / name).exists()]
    if missing:
        raise BuildError(f"Pages in the navigation that site/ lacks: {missing}.")
    placed: list[str] = []
    for path in sorted(dist.glob("*.html")):
        html = path.read_text(encoding="utf-8")
        if path.name in NAV:
            html = page_html(path.name, html)
        elif "ptrnet:page" in html:
            raise BuildError(f"{path.name}: a page source that chrome.NAV does not name.")

        def frame(match: re.Match, page: str = path.name) -> str:
            indent, demo_id = match.groups()
            demo = manifest.BY_ID.get(demo_id)
            if demo is None or demo.page != page:
                where = f"belongs on {demo.page}" if demo else f"is not in ptrnet.manifest ({list(manifest.BY_ID)})"
                raise BuildError(f"{page}: demo {demo_id!r} {where}.")
            placed.append(demo_id)
            return demo_frame(demo, indent)

        path.write_text(demo_counts(DEMO.sub(frame, html), path.name), encoding="utf-8")
    if sorted(placed) != sorted(manifest.BY_ID):
        raise BuildError(f"Every demo in ptrnet.manifest stands once on its page; placed: {sorted(placed)}.")
