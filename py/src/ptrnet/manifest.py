"""Every demo, once: its id, number and title, the handler families that answer it, its page and its state fields.

The handler registry (ptrnet.handlers) reads this table; the build writes the JS registries from it
(site/js/generated/demos.js, site/js/demos/index.js) and each demo's captioned frame into its page.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Demo:
    """One demo as the site knows it."""

    id: str  # data-demo, the prefix of its URL fields, the name of its controller (site/js/demos/<id>.js)
    number: str  # as its caption numbers it: "데모 3-2"
    title: str  # its caption's Korean title
    families: tuple[str, ...]  # the modules ptrnet.handlers.<family> that register its requests
    page: str  # the page that shows it (every demo is an embed as well)
    fields: tuple[str, ...]  # its controller's state schema: the URL fields and <ptr-demo> attributes, in order

    @property
    def caption(self) -> str:
        """The caption the pages and the embeds show."""
        return f"데모 {self.number} · {self.title}"

    @property
    def anchor(self) -> str:
        """The id of its frame on its page (index.html#demo-4)."""
        return f"demo-{self.number}"


ARTICLE, COMPANION = "index.html", "three-problems.html"


def _demo(id: str, number: str, title: str, families: str, page: str, fields: str) -> Demo:
    """A row of the table below, its families and fields written as words."""
    return Demo(id, number, title, tuple(families.split()), page, tuple(fields.split()))


DEMOS = (  # id, number, title, handler families, page, state fields; in the order the pages number them
    _demo("nplm", "0-1", "신경 확률 언어 모델(NPLM) 학습", "prelude", ARTICLE, "seed direct"),
    _demo("lm-shapes", "0-2", "LSTM 언어 모델의 한 단계", "prelude", ARTICLE, "seed mode temperature"),
    _demo("slots", "1", "고정된 출력 칸과 포인터의 칸", "models explained", ARTICLE, "n seed"),
    _demo("sequences", "2", "같은 점, 두 가지 답", "geometry", ARTICLE, "points"),
    _demo("mix-vs-point", "3", "섞기와 가리키기", "explained", ARTICLE, "d"),
    _demo("attention-vs-pointer", "3-2", "어텐션은 이미 가리키고 있었을까?", "models", ARTICLE, "points step"),
    _demo("hull-steps", "4", "껍질의 점을 하나씩 짚는 디코더", "models explained", ARTICLE, "step mask model points"),
    _demo("sort-trainer", "5", "매개변수 96개로 정렬 배우기", "sorting", ARTICLE, "seed mask length sample"),
    _demo("length-eval", "6", "길이 일반화 평가", "sorting", ARTICLE, ""),
    _demo("hull-sweep", "6-2", "볼록 껍질: 점이 늘어날 때", "experiments", ARTICLE, ""),
    _demo("tsp-student", "6-3", "스승 A1과 A1에게 배운 Ptr-Net", "geometry", ARTICLE, "points"),
    _demo("tsp-sweep", "6-4", "외판원 문제: 학습 범위를 넘어설 때", "experiments", ARTICLE, ""),
    _demo("pointer-generator", "7", "만들어 낼까, 베껴 올까", "explained", ARTICLE, "p_gen"),
    _demo(
        "three-problems",
        "8",
        "논문의 세 문제: 정답과 우리 모델의 답",
        "geometry",
        COMPANION,
        "points a1 a2 vote student mine",
    ),
    _demo("ptrnet-trainer", "8-2", "내 브라우저에서 Ptr-Net 학습시키기", "learning", COMPANION, "seed hidden points"),
    _demo(
        "experiments",
        "9",
        "논문의 실험을 브라우저에서 다시 재기",
        "experiments",
        COMPANION,
        "model sizes sets decoding seed",
    ),
)
BY_ID = {demo.id: demo for demo in DEMOS}
SERVICES = {"runtime": ("runtime",)}  # request targets that are no demo (the runtime's own requests) -> their families


def families() -> dict[str, tuple[str, ...]]:
    """Each handler module -> the demos (and services) whose requests it registers."""
    targets = [(demo.id, demo.families) for demo in DEMOS] + list(SERVICES.items())
    table: dict[str, tuple[str, ...]] = {}
    for target, modules in targets:
        for module in modules:
            table[module] = (*table.get(module, ()), target)
    return table
