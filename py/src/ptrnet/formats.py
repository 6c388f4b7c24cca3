"""How every number and answer Python decides is written for a reader: the pages show these strings as they are
(JS formats no number Python sends), and the offline results tables and page facts (training) write theirs here too.
Nothing here imports the rest of ptrnet, so every floor may use it."""

import math
from collections.abc import Sequence

NBSP = "\u00a0"  # between a number and its % sign on the pages, as the article writes "92.0 %"
MISSING = "–"  # a table cell without a value (the paper gives none, or nothing was measured)
MASKED = "가림"  # demo 4's label for a candidate the mask removed

LENGTH_DIGITS = 4  # one tour's length on the companion page
MEAN_LENGTH_DIGITS = 3  # a mean tour length and a ratio the experiment runner measured
TABLE_DIGITS = 2  # tour lengths as the paper's tables give them (and ours beside them)
RATIO_DIGITS = 3  # a tour length over the reference tour's
LOSS_DIGITS = 4  # demo 5's smoothed training loss
SORT_VALUE_DIGITS = 2  # demo 5's test sequence is drawn with these decimals, and so written
WEIGHT_DIGITS = 3  # an attention weight a_j (demo 3)
VECTOR_DIGITS = 2  # a 2-D vector and its length (demo 3)
P_GEN_DIGITS = 2  # p_gen and 1 − p_gen (demo 7), as its slider steps
ENTROPY_DIGITS = 2  # an entropy in nats (demo 3)
TOP_WORDS = 3  # demo 7 names its final distribution's three likeliest words


def percent(share: float | None, space: str = NBSP) -> str:
    """A share as a percentage with one decimal, or two where one would round to 100 % (SPEC section 4):
    0.961 -> '96.1 %', 0.9996 -> '99.96 %', 1.0 -> '100.00 %'; '–' if missing."""
    if share is None:
        return MISSING
    one = f"{100 * share:.1f}"
    return f"{one if one != '100.0' else f'{100 * share:.2f}'}{space}%"


def probability(p: float) -> str:
    """A pointer candidate's probability as demo 4 labels it: whole percent from 10 %, one decimal below, a trace
    as '<0.1 %' and near-certainty as '>99.9 %' (never a '100 %' that is not): 0.4321 -> '43 %', 0.0123 -> '1.2 %',
    0.00002 -> '<0.1 %', 0.0 -> '0 %', 0.99996 -> '>99.9 %', 1.0 -> '100 %'."""
    if 0.999 < p < 1:
        return f">99.9{NBSP}%"
    if 0.995 <= p < 1:  # a whole percent would say 100
        return f"{100 * p:.1f}{NBSP}%"
    if p >= 0.1:
        return f"{100 * p:.0f}{NBSP}%"
    if p >= 0.001:
        return f"{100 * p:.1f}{NBSP}%"
    return f"<0.1{NBSP}%" if p > 0 else f"0{NBSP}%"


def shares_line(probs: Sequence[float], names: Sequence[str]) -> str:
    """A step's distribution in one line, each share as probability() writes it: 'P1 <0.1 % · P2 37 % · ⇐ 0 %'."""
    return " · ".join(f"{name} {probability(p)}" for name, p in zip(names, probs, strict=True))


def points_path(indices: Sequence[int]) -> str:
    """A decoded answer by point names, 0 standing for ⇐: '⇒ P3 → P6 → P3 ⇐'."""
    return "⇒ " + " → ".join("⇐" if j == 0 else f"P{j}" for j in indices) + " ⇐"


def candidates(probs: Sequence[float], masked: Sequence[bool]) -> list[str]:
    """The labels of one decoding step's candidates [P1..Pn, ⇐]: each probability, or MASKED where the mask removed it."""
    return [MASKED if off else probability(p) for p, off in zip(probs, masked, strict=True)]


def area(summary: dict, space: str = NBSP) -> str:
    """Area coverage as a percentage, or FAIL when over 1 % of the outputs are not simple polygons."""
    return "FAIL" if summary.get("area_fail") else percent(summary.get("area_coverage"), space)


def fixed(value: float | None, digits: int) -> str:
    """A number with a fixed count of decimals; '–' if missing."""
    return MISSING if value is None else f"{value:.{digits}f}"


def vector(v: Sequence[float], digits: int) -> str:
    """A vector's coordinates in brackets: (1.2, 1) -> '(1.20, 1.00)'."""
    return "(" + ", ".join(fixed(x, digits) for x in v) + ")"


def top_shares(shares: dict[str, float], k: int) -> str:
    """The k largest shares, largest first (equals keep their order), as 'word 36.4 % · word 12.0 %'."""
    ranked = sorted(shares.items(), key=lambda item: -item[1])[:k]
    return " · ".join(f"{word} {percent(share)}" for word, share in ranked)


def significant(value: float, digits: int) -> str:
    """A number with a fixed count of significant digits, trailing zeros kept: (0.1, 3) -> '0.100'."""
    return f"{value:#.{digits}g}"


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def small_probability(p: float | None) -> str:
    """A probability that may be far below 1e-10: four decimals from 0.001 up, else two and a power of ten
    (3.2e-12 -> '3.20 × 10⁻¹²'); '–' if missing."""
    if p is None or not math.isfinite(p):
        return MISSING
    if p == 0:
        return "0"
    if p >= 1e-3:
        return f"{p:.4f}"
    mantissa, exponent = f"{p:.2e}".split("e")
    return f"{mantissa}{NBSP}×{NBSP}10{str(int(exponent)).translate(_SUPERSCRIPT)}"


def count(n: int) -> str:
    """A whole number with a comma every three digits, as Korean writes counts: 12345 -> '12,345'."""
    return f"{n:,}"


def span(train_n: str) -> str:
    """A range of sizes as the pages write it: '5-50' -> '5–50'."""
    return str(train_n).replace("-", "–")


# --- answers in the notation


def sequence(seq: Sequence[int]) -> str:
    """An index sequence: '⇒ 3 → 6 → 4 → 5 → 3 ⇐'."""
    return " ".join(["⇒", " → ".join(map(str, seq)), "⇐"]) if seq else "⇒ ⇐"


def partial(output: Sequence[int]) -> str:
    """A decoding so far (0 stands for ⇐): '⇒ 3 → 6 → 4', then '⇒ 3 → 6 → 4 → 5 → 3 ⇐'."""
    points = [j for j in output if j != 0]
    return " ".join(["⇒", *([" → ".join(map(str, points))] if points else []), *(["⇐"] if 0 in output else [])])


# A hull verdict's words: (it is the true hull, it is not though every edge is the true hull's, the words before the
# count of edges the true hull lacks); our model's panel and the trainer write OURS, demo 8's line of the reader's
# own model MINE.
HULL_VERDICT_OURS = ("정답과 같습니다", "정답과 다릅니다", "")
HULL_VERDICT_MINE = ("정답", "오답", "오답: ")


def hull_verdict(correct: bool, wrong_edges: int, words: tuple[str, str, str] = HULL_VERDICT_OURS) -> str:
    """A hull answer's verdict, counting the edges the true hull lacks where there are any."""
    right, mistaken, before_count = words
    if correct:
        return right
    return f"{before_count}정답에 없는 변 {wrong_edges}개" if wrong_edges else mistaken


def triangles(tris: Sequence[Sequence[int]]) -> str:
    """A triangle list: '⇒ (1,3,5), (1,5,7) ⇐'."""
    return " ".join(["⇒", ", ".join("(" + ",".join(map(str, t)) + ")" for t in tris), "⇐"]) if tris else "⇒ ⇐"


# --- Korean particles after numbers: 2.13과, 4.20으로, 96.1 %를 (the number as read aloud decides)

PARTICLES = {  # either form -> (after a final consonant, after a vowel)
    **dict.fromkeys(("과", "와"), ("과", "와")),
    **dict.fromkeys(("을", "를"), ("을", "를")),
    **dict.fromkeys(("은", "는"), ("은", "는")),
    **dict.fromkeys(("이", "가"), ("이", "가")),
    **dict.fromkeys(("으로", "로"), ("으로", "로")),
}
_DIGIT_ENDS = "영일이삼사오육칠팔구"  # each digit as read: 0 영 ... 9 구
_PLACE_ENDS = {1: "십", 2: "백", 3: "천", 4: "만", 8: "억"}  # a whole number's trailing zeros, as read


def _last_syllable(text: str) -> str:
    """The syllable a Korean reader ends the text on: '2.13' -> '삼', '250' -> '십', '96.1 %' -> '트', '“6”' -> '육'."""
    text = text.strip().replace(",", "").replace(NBSP, " ").rstrip("”’\"')]}")  # closing marks are not read
    if text.endswith("%"):
        return "트"  # 퍼센트
    if text == "FAIL":
        return "일"  # 페일, as area() writes a failed area test
    if "." in text or not text.isdigit():
        return _DIGIT_ENDS[int(text[-1])] if text[-1].isdigit() else text[-1]  # decimals are read digit by digit
    zeros = len(text) - len(text.rstrip("0"))
    if zeros == 0 or text == "0":
        return _DIGIT_ENDS[int(text[-1])]
    return _PLACE_ENDS[max(k for k in _PLACE_ENDS if k <= zeros)] if zeros % 4 == 0 else _PLACE_ENDS[zeros % 4]


def josa(text: str, particle: str) -> str:
    """text followed by the particle's form that fits how text is read: josa('2.13', '와') -> '2.13과',
    josa('4.20', '로') -> '4.20으로', josa('7', '으로') -> '7로' (after ㄹ, 로)."""
    after_consonant, after_vowel = PARTICLES[particle]
    syllable = _last_syllable(text)
    if not "가" <= syllable <= "힣":
        raise ValueError(f"no Korean reading for the end of {text!r}")
    final = (ord(syllable) - ord("가")) % 28  # 0: no final consonant, 8: ㄹ
    consonant = final != 0 and not (after_consonant == "으로" and final == 8)
    return text + (after_consonant if consonant else after_vowel)
