"""formats.josa picks a particle's form by how a number is read aloud; the oracle reads the number in full."""

import numpy as np
import pytest

from ptrnet import formats

DIGITS = ["", "일", "이", "삼", "사", "오", "육", "칠", "팔", "구"]


def _read_below_10000(n: int) -> str:
    """'1234' -> '천이백삼십사' (a 1 before 십, 백, 천 is not read)."""
    words = []
    for place, unit in ((1000, "천"), (100, "백"), (10, "십"), (1, "")):
        d = n // place % 10
        if d:
            words.append(("" if d == 1 and unit else DIGITS[d]) + unit)
    return "".join(words)


def _read(text: str) -> str:
    """A number as a Korean reader says it in full: '214,925' -> '이십일만사천구백이십오', '2.13' -> '이점일삼'."""
    whole, _, decimals = text.replace(",", "").partition(".")
    n, groups = int(whole), []
    for unit in ("", "만", "억"):
        if n % 10000:
            groups.append(_read_below_10000(n % 10000) + unit)
        n //= 10000
    spoken = "".join(reversed(groups)) or "영"
    return spoken + ("점" + "".join(DIGITS[int(d)] or "영" for d in decimals) if decimals else "")


def _expected(text: str, particle: str) -> str:
    after_consonant, after_vowel = formats.PARTICLES[particle]
    final = (ord(_read(text)[-1]) - ord("가")) % 28
    return after_vowel if final == 0 or (after_consonant == "으로" and final == 8) else after_consonant


@pytest.mark.parametrize("particle", sorted(formats.PARTICLES))
def test_the_particle_fits_the_number_as_read_in_full(particle: str) -> None:
    rng = np.random.default_rng(5)
    numbers = [str(int(k)) for k in rng.integers(0, 10**9, 300)] + [str(10**k) for k in range(9)]
    numbers += [f"{x:.{d}f}" for x, d in zip(rng.random(200) * 100, rng.integers(1, 4, 200), strict=True)]
    numbers += [f"{int(k):,}" for k in rng.integers(1000, 10**7, 50)]
    for text in numbers:
        assert formats.josa(text, particle) == text + _expected(text, particle), text


@pytest.mark.parametrize(
    ("text", "particle", "written"),
    [
        ("2.13", "와", "2.13과"),
        ("4.20", "로", "4.20으로"),
        ("96.1\u00a0%", "을", "96.1\u00a0%를"),
        ("7", "으로", "7로"),
        ("“6”", "을", "“6”을"),  # closing marks are not read
        ("n = 5", "은", "n = 5는"),
        ("(P3)", "를", "(P3)을"),
        ("FAIL", "로", "FAIL로"),  # 페일
    ],
)
def test_the_articles_examples(text: str, particle: str, written: str) -> None:
    assert formats.josa(text, particle) == written


def test_a_text_with_no_korean_reading_is_refused() -> None:
    with pytest.raises(ValueError):
        formats.josa("PASS", "을")
