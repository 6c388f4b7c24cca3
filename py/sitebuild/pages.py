"""What the build writes into the pages: KaTeX, the results tables, the page constants, the service worker."""

import hashlib
import json
import re
import shutil
from html import escape as html_escape
from pathlib import Path

from sitebuild.config import DIST, KATEX_DIST, MODEL_DATA, RECORDS, ROOT, STDLIB_FULL
from sitebuild.shell import BuildError

RESULTS_PLACEHOLDER = "<!-- ptrnet:{task}-results -->"  # the visible table: the paper's columns, ours beside
FULL_RESULTS_PLACEHOLDER = "<!-- ptrnet:{task}-results-full -->"  # every column, in the implementation notes
RESULTS_CAPTIONS = {  # tasks whose tables the companion page shows
    "hull": "우리가 학습한 모델과 논문의 볼록 껍질 결과",
    "delaunay": "우리가 학습한 모델과 논문의 들로네 삼각분할 결과",
    "tsp": "우리가 학습한 모델, 우리 근사 알고리즘과 논문의 TSP 평균 순회 길이",
}
FACTS_PLACEHOLDER = "<!-- ptrnet:model-facts -->"
FACT = re.compile(r'<span class="fact" data-fact="([^"<>]*)"(?: data-josa="([^"<>]*)")?></span>')  # write_facts fills
TYPED_PARTICLE = re.compile(r'data-fact="[^"<>]*"></span>(?:과|와|을|를|은|는|으로|로|가)(?![가-힣])')  # use data-josa
# dist/ files the service worker does not download up front, to keep a first visit small: each
# page uses a few of KaTeX's fonts (the page hands those to the service worker), the trained
# weights are fetched when a demo that runs them comes near the screen (the seq2seq baseline only
# at n = 5), the full stdlib is rarely needed, and pyodide.js (the classic-script loader) serves
# only node, for the tests inside Pyodide.
ON_DEMAND = re.compile(
    r"vendor/katex/fonts/.*|models/\w+\.npz"
    rf"|pyodide/({re.escape(STDLIB_FULL)}|pyodide\.js)"
)


def bundle_stylesheets(css: Path) -> None:
    """Join each folder of stylesheets (site/css/<name>/, kept small by concern) into one <name>.css,
    files in name order, so that a page still loads one file per sheet."""
    for folder in sorted(p for p in css.iterdir() if p.is_dir()):
        parts = sorted(folder.glob("*.css"))
        if not parts:
            raise BuildError(f"{folder} holds no stylesheets.")
        (css / f"{folder.name}.css").write_text(
            "\n".join(p.read_text(encoding="utf-8") for p in parts), encoding="utf-8"
        )
        shutil.rmtree(folder)


def copy_katex(target: Path) -> None:
    """Self-hosted KaTeX for the article's formulas: an ES module, its CSS and woff2 fonts.

    KaTeX's own ES module is not minified (150 KB gzip-compressed); its minified UMD build is
    half that, and runs as a module once `module` and `exports` exist for it to fill.
    """
    (target / "fonts").mkdir(parents=True)
    shutil.copyfile(KATEX_DIST / "katex.min.css", target / "katex.min.css")
    umd = (KATEX_DIST / "katex.min.js").read_text(encoding="utf-8")
    (target / "katex.min.mjs").write_text(
        "// KaTeX's katex.min.js wrapped as an ES module by build.py.\n"
        f"const module = {{ exports: {{}} }};\nconst exports = module.exports;\n{umd}\nexport default module.exports;\n",
        encoding="utf-8",
    )
    for font in (KATEX_DIST / "fonts").glob("*.woff2"):
        shutil.copyfile(font, target / "fonts" / font.name)


def results_table(task: str, full: bool = False) -> str:
    """Our measured results of a task beside the paper's, as an HTML table made from its results JSON: the visible
    one (the paper's columns, ours greedy and beam) or, for the implementation notes, every column.

    The rows are training.reports.tables.markdown_rows (the full ones are the README's), so page and README cannot disagree.
    """
    from training.reports import tables

    path = RECORDS / f"{task}_results.json"
    if not path.exists():
        raise BuildError(f"{path} is missing: run `python -m training evaluate` (the companion page shows it).")
    head, *rows = tables.markdown_rows(json.loads(path.read_text()), brief=not full)
    header = _grouped_header(head)
    body = "".join(
        "<tr>" + _cell("th", r[0], scope="row", **{"class": "text"}) + "".join(_cell("td", v) for v in r[1:]) + "</tr>"
        for r in rows
    )
    caption = RESULTS_CAPTIONS[task] + (" (모든 열)" if full else "")
    label = f"table-{task}-ours" + ("-full" if full else "")
    return (
        f'<div class="{_scroll_class(head, full)}" role="region" aria-labelledby="{label}" tabindex="0">'
        f'<table class="data-table"><caption id="{label}">{html_escape(caption)}</caption>'
        f"<thead>{header}</thead><tbody>{body}</tbody></table></div>"
    )


WIDE_COLUMNS = 10  # a visible results table with more columns than this may widen past the text on desktops


def _scroll_class(head: list[str], full: bool) -> str:
    """The table's scrolling box: a wide visible table (TSP: models, references, baselines, the paper) may use the
    demos' width on a desktop, so its Ptr-Net columns are not scrolled out of view."""
    return "table-scroll is-wide" if not full and len(head) > WIDE_COLUMNS else "table-scroll"


def _grouped_header(head: list[str]) -> str:
    """Two header rows: 'group (column)' headings side by side share one group cell ('정확도' over 논문, 탐욕,
    빔), so a table of short columns fits the text's width; a heading without a group spans both rows."""
    groups: list[tuple[str | None, list[str]]] = []
    for h in head:
        group, _, sub = h.partition(" (")
        group, sub = (group, sub.removesuffix(")")) if sub else (None, h)
        if group is not None and groups and groups[-1][0] == group:
            groups[-1][1].append(sub)
        else:
            groups.append((group, [sub]))
    top, below = [], []
    for k, (group, subs) in enumerate(groups):
        text = {"class": "text"} if k == 0 else {}
        if group is None:
            top.append(_cell("th", subs[0], scope="col", rowspan="2", **text))
        else:
            top.append(_cell("th", group, scope="colgroup", colspan=str(len(subs)), **{"class": "group"}))
            below += [_cell("th", sub, scope="col") for sub in subs]
    return f"<tr>{''.join(top)}</tr><tr>{''.join(below)}</tr>"


def _cell(tag: str, text: str, **attributes: str) -> str:
    """One escaped table cell."""
    attrs = "".join(f' {k}="{html_escape(v)}"' for k, v in attributes.items())
    return f"<{tag}{attrs}>{html_escape(text)}</{tag}>"


def model_facts() -> str:
    """How each shipped Ptr-Net was trained, one line each from its model card."""
    from training.reports import facts

    cards = {task: MODEL_DATA / f"{task}_model_card.json" for task in RESULTS_CAPTIONS}
    lines = [facts.training_line(task, json.loads(path.read_text())) for task, path in cards.items() if path.exists()]
    return '<ul class="model-facts">' + "".join(f"<li>{html_escape(line)}</li>" for line in lines) + "</ul>"


def write_results_tables(page: Path) -> None:
    """Replace each task's placeholders in the page with its results tables, and the facts placeholder."""
    html = page.read_text()
    if FACTS_PLACEHOLDER not in html:
        raise BuildError(f"{page.name} lost its placeholder {FACTS_PLACEHOLDER}.")
    html = html.replace(FACTS_PLACEHOLDER, model_facts())
    for task in RESULTS_CAPTIONS:
        for placeholder, full in ((RESULTS_PLACEHOLDER, False), (FULL_RESULTS_PLACEHOLDER, True)):
            placeholder = placeholder.format(task=task)
            if placeholder not in html:
                raise BuildError(f"{page.name} lost its placeholder {placeholder}.")
            html = html.replace(placeholder, results_table(task, full))
    page.write_text(html)


def fill_facts(html: str, facts: dict[str, str], name: str) -> str:
    """Fill every <span class="fact" data-fact="KEY"></span> with its value, and where it carries data-josa="과"
    follow it with that particle in the form its value is read with (formats.josa: 2.13과, 4.20으로). Any other
    data-fact (an unknown key, a span that is not empty or not written this way) stops the build, as does a particle
    typed after a fact, which a new value could make wrong."""
    from ptrnet import formats

    def value(match: re.Match) -> str:
        key, particle = match.groups()
        if key not in facts:
            near = sorted(k for k in facts if k.split(".")[:2] == key.split(".")[:2])[:8]
            raise BuildError(f"{name}: unknown fact {key!r} (training.reports.facts.page_facts; keys like it: {near}).")
        text = f'<span class="fact" data-fact="{key}">{html_escape(facts[key])}</span>'
        if particle is None:
            return text
        if particle not in formats.PARTICLES:
            raise BuildError(f"{name}: fact {key!r} asks for an unknown particle {particle!r}.")
        return text + formats.josa(facts[key], particle).removeprefix(facts[key])

    if typed := TYPED_PARTICLE.findall(html):
        raise BuildError(f'{name}: a particle typed after a fact, {typed[0]!r}: write data-josa="…" on the span.')
    filled = FACT.sub(value, html)
    if filled.count("data-fact=") != len(FACT.findall(html)):
        raise BuildError(f'{name}: a data-fact that is not an empty <span class="fact" data-fact="KEY"></span>.')
    return filled


def write_facts(dist: Path) -> None:
    """Write the numbers about our models (training.reports.facts.page_facts) and the example's answers and
    figures (sitebuild.figures) into every page that asks for them."""
    from sitebuild import figures  # imports ptrnet, like facts: only inside the build's environment
    from training.reports import facts

    try:
        known = facts.page_facts(RECORDS, MODEL_DATA) | figures.example_facts()
    except facts.FactsError as e:
        raise BuildError(str(e)) from None
    for page in sorted(dist.glob("*.html")):
        html = page.read_text(encoding="utf-8")
        if "data-fact=" in html or "data-figure=" in html:
            page.write_text(figures.fill_figures(fill_facts(html, known, page.name), page.name), encoding="utf-8")


def generated_modules() -> dict[str, str]:
    """Every generated JS module (path relative to the repository -> its text): the page constants and the demo
    registries."""
    from sitebuild import demo_registry, page_constants

    return {
        page_constants.GENERATED: page_constants.module_text(),
        demo_registry.REGISTRY: demo_registry.registry_text(),
        demo_registry.CONTROLLERS: demo_registry.controllers_text(),
    }


def write_constants() -> list[Path]:
    """Regenerate the JS modules that Python writes (site/js/generated/, site/js/demos/index.js)."""
    written = []
    for name, text in generated_modules().items():
        path = ROOT / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def check_constants() -> None:
    """Refuse to build with a generated module that no longer matches Python."""
    for name, text in generated_modules().items():
        path = ROOT / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            raise BuildError(f"{name} is out of date with Python: run `python3 build.py constants`.")


def write_service_worker() -> None:
    """Fill in sw.js: the files to cache up front and a version that changes with any file."""
    service_worker = DIST / "sw.js"
    files = sorted(p for p in DIST.rglob("*") if p.is_file() and p != service_worker and not p.name.startswith("."))
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.relative_to(DIST).as_posix().encode() + b"\0" + path.read_bytes())
    assets = [name for p in files if not ON_DEMAND.fullmatch(name := p.relative_to(DIST).as_posix())]
    text = service_worker.read_text()
    fills = [
        ('"__BUILD_VERSION__"', json.dumps(digest.hexdigest()[:16])),
        ("/* __PRECACHE__ */ []", json.dumps(assets)),
    ]
    for placeholder, value in fills:
        if placeholder not in text:
            raise BuildError(f"site/sw.js lost its placeholder {placeholder}.")
        text = text.replace(placeholder, value)
    service_worker.write_text(text)
