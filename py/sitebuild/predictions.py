"""The article's "먼저 짐작해 보기" questions: the reader picks a guess before the demo beside it shows the answer.

Each question's right answer and the numbers its reveal gives are computed here, from our models, the sorter and
the paper's numbers, never typed; the build writes each question where its page has <!-- ptrnet:predict ID -->,
and site/js/ui/predict.js makes it answerable (DOM: data-predict, data-choice, data-revealed, data-chosen).
"""

import re
from dataclasses import dataclass
from html import escape
from pathlib import Path

from sitebuild.shell import BuildError

PLACEHOLDER = re.compile(r"^([ \t]*)<!-- ptrnet:predict ([\w-]+) -->$", re.M)  # a question, indented as written
SORTER_ITERATIONS = 1000  # training iterations of the two sorter runs (mask on, off) the §6 question reports
HIGH_ACCURACY = 0.5  # §6: a sequence accuracy at least this counts as "높다"


@dataclass(frozen=True)
class Question:
    """One guess the reader commits to before a demo answers."""

    id: str  # data-predict, its placeholder's name and the key its answer is remembered under
    prompt: str  # the question (HTML: text and the article's math spans)
    choices: tuple[tuple[str, str], ...]  # (data-choice value, label), 2 to 4
    answer: str  # the value of the right choice
    reveal: str  # where to look in the demo, and the answer's numbers (plain text)


def _math(tex: str, text: str) -> str:
    """An inline formula as the article writes it; KaTeX typesets it in the page."""
    return f'<span class="math" data-tex="{escape(tex)}">{escape(text)}</span>'


def _slots() -> Question:
    """§1: the seq2seq trained at n = 5 has no output slot for "6"."""
    from ptrnet.explain import random_points, slot_counts
    from ptrnet.formats import josa
    from ptrnet.geometry.notation import hull_sequence
    from ptrnet.limits import SEQ2SEQ_N, SLOT_DEFAULTS

    n, beyond = SLOT_DEFAULTS["n"], str(SEQ2SEQ_N + 1)
    opening = slot_counts(hull_sequence(random_points(n, SLOT_DEFAULTS["seed"])), n)
    vocab = opening["seq2seq_vocab"]
    say = f"“{beyond}”"
    return Question(
        id="slots",
        prompt=f"점 {SEQ2SEQ_N}개짜리 예제로만 학습한 seq2seq에게 점 {n}개를 주었고, "
        f"정답에 {beyond}번 점이 들어 있습니다. 이 모델이 {josa(say, '을')} 낼 수 있을까요?",
        choices=(("yes", "잘 배웠다면 낼 수 있다"), ("no", "아무리 배워도 낼 수 없다")),
        answer="yes" if beyond in vocab else "no",
        reveal=f"출력층의 칸은 {{{', '.join(vocab)}}} {len(vocab)}개뿐이라 {say}이라고 적을 칸이 없습니다. "
        f"아래 데모 1의 처음 배치(점 {n}개)에서는 정답 토큰 {opening['seq2seq_missing']}개가 seq2seq 줄의 빨간 점선 칸으로 "
        f"남고, 포인터 네트워크 줄은 칸 {opening['ptr_slots']}개로 모두 적습니다.",
    )


def _hull_steps() -> Question:
    """§4: the point our trained Ptr-Net points at in the second step of demo 4's opening example."""
    import numpy as np

    from ptrnet.formats import percent
    from ptrnet.geometry.notation import hull_sequence
    from ptrnet.limits import HULL_EXAMPLE
    from ptrnet.views.models import hull_steps

    steps = hull_steps(HULL_EXAMPLE, mask=False)["steps"]  # the demo opens on the real model, mask off
    first, second = steps[0]["choice"], steps[1]["choice"]
    ring = hull_sequence(HULL_EXAMPLE)[:-1]  # 1-based vertices, the start not repeated
    at = ring.index(first)
    inner = [k for k in range(1, len(HULL_EXAMPLE) + 1) if k not in ring]
    points = np.asarray(HULL_EXAMPLE)
    nearest_inner = min(inner, key=lambda k: float(np.linalg.norm(points[k - 1] - points[first - 1])))
    candidates = sorted({second, ring[at - 1], ring[(at + 1) % len(ring)], nearest_inner})  # both neighbours
    return Question(
        id="hull-steps",
        prompt=f"위 데모 4의 처음 배치에서 우리 모델이 첫 단계에 가리킨 점은 P{first}입니다. "
        "둘째 단계에서는 어느 점을 가리킬까요?",
        choices=tuple((str(k), f"P{k}") for k in candidates),
        answer=str(second),
        reveal=f"데모 4에서 ‘다음 ▶’을 한 번 누르면 가장 큰 원이 P{second} 위에 있고, "
        f"모델이 그 점에 준 확률은 {percent(steps[1]['probs'][second - 1])}입니다.",
    )


def _length_eval() -> Question:
    """§6: at length 50 the sorter trained with the mask still sorts; the one trained without it does not."""
    from ptrnet.formats import count, percent
    from ptrnet.limits import TEST_LENGTHS
    from ptrnet.sorter.evaluation import EVAL_COUNT, evaluate
    from ptrnet.sorter.model import SorterConfig
    from ptrnet.sorter.trainer import Trainer

    length, config = TEST_LENGTHS[1], SorterConfig()
    at_length = {}
    for mask in (True, False):
        trainer = Trainer(SorterConfig(mask=mask))
        trainer.train(SORTER_ITERATIONS)
        at_length[mask] = evaluate(trainer.params, [length], EVAL_COUNT, mask)
    high = {mask: at_length[mask]["seq_acc"][0] >= HIGH_ACCURACY for mask in at_length}
    answer = {(True, True): "both", (True, False): "mask", (False, True): "no-mask", (False, False): "neither"}
    train_n = f"{config.min_len}–{config.max_len}"
    return Question(
        id="length-eval",
        prompt=f"길이 {train_n}의 수열로만 학습한 정렬 모델에 길이 {length}짜리 수열을 주면, 마스크를 켜고 배운 모델과 "
        "끄고 배운 모델의 수열 정확도는 어떨까요?",
        choices=(
            ("both", "둘 다 높다"),
            ("mask", "마스크를 켠 모델만 높다"),
            ("no-mask", "마스크를 끈 모델만 높다"),
            ("neither", "둘 다 낮다"),
        ),
        answer=answer[high[True], high[False]],
        reveal=f"우리가 시드 {config.seed}에서 {count(SORTER_ITERATIONS)}번 반복 학습해 길이 {length}의 수열 "
        f"{count(EVAL_COUNT)}개로 재 보니, 마스크를 켠 모델은 {percent(at_length[True]['seq_acc'][0])}, 끈 모델은 "
        f"{percent(at_length[False]['seq_acc'][0])}를 맞혔습니다. 끈 모델의 출력 가운데 "
        f"{percent(at_length[False]['invalid'][0])}는 같은 위치를 두 번 가리켜 순열이 되지 못했습니다. "
        "데모 5에서 학습한 뒤 아래 데모 6의 "
        f"‘평가’를 눌러 파란 선과 빨간 점선의 오른쪽 끝을 보세요.",
    )


def _tsp_a1() -> Question:
    """§7: the paper's Ptr-Net taught by A1's tours at n = 50 against A1 itself."""
    from ptrnet.experiments.paper import PAPER
    from ptrnet.formats import TABLE_DIGITS, fixed, josa

    row = PAPER["tsp"]["ptrnet_a1_50"]
    teacher, student = (round(row[k], TABLE_DIGITS) for k in ("A1", "ptrnet"))
    answer = "shorter" if student < teacher else "longer" if student > teacher else "same"
    gap = fixed(abs(teacher - student), TABLE_DIGITS)
    verdict = {"shorter": f"제자가 {gap} 짧았습니다", "longer": f"제자가 {gap} 길었습니다", "same": "둘이 같았습니다"}
    return Question(
        id="tsp-a1",
        prompt=f"논문은 {_math('n = 50', 'n = 50')}에서 근사 알고리즘 A1이 낸 순회를 정답 삼아 "
        '<span class="nobreak">Ptr-Net</span>을 학습시켰습니다. 이 제자의 평균 순회는 스승 A1의 것과 견주어 어떨까요?',
        choices=(("shorter", "A1보다 짧다"), ("same", "A1과 같다"), ("longer", "A1보다 길다")),
        answer=answer,
        reveal=f"논문의 평균 순회 길이는 A1 {fixed(teacher, TABLE_DIGITS)}, A1에게 배운 Ptr-Net "
        f"{josa(fixed(student, TABLE_DIGITS), '로')} {verdict[answer]}. 동반 페이지의 데모 8에서"
        " ‘A1 순회’와 ‘A1에게 배운 모델의 순회’를 함께 켜면 우리 모델로 같은 비교를 볼 수 있습니다.",
    )


def questions() -> dict[str, Question]:
    """Every question, by id, with its answer computed now."""
    made = [make() for make in (_slots, _hull_steps, _length_eval, _tsp_a1)]
    for q in made:
        if not 2 <= len(q.choices) <= 4 or q.answer not in dict(q.choices):
            raise BuildError(f"question {q.id!r}: needs 2–4 choices, the answer {q.answer!r} among them.")
    return {q.id: q for q in made}


def render(q: Question, indent: str = "") -> str:
    """A question's HTML: a named group of choice buttons, an empty live region for the reveal, the reveal's text."""
    buttons = "".join(
        f'<button type="button" class="predict-choice" data-choice="{escape(value)}" aria-pressed="false">'
        f"{escape(label)}</button>"
        for value, label in q.choices
    )
    label = f"predict-{q.id}-question"
    lines = [
        f'<div class="predict" data-predict="{q.id}" data-answer="{escape(q.answer)}" role="group" '
        f'aria-labelledby="{label}">',
        f'  <p class="predict-question" id="{label}"><strong class="predict-tag">먼저 짐작해 보기</strong> {q.prompt}</p>',
        f'  <div class="predict-choices">{buttons}</div>',
        '  <div class="predict-reveal" aria-live="polite"></div>',
        f'  <template class="predict-answer">{escape(q.reveal)}</template>',
        "</div>",
    ]
    return "\n".join(indent + line for line in lines)


def write_predictions(dist: Path) -> None:
    """Write every question where a page asks for it; an unknown id, or a question written twice or nowhere, stops
    the build."""
    known, placed = questions(), []
    for page in sorted(dist.glob("*.html")):
        html = page.read_text(encoding="utf-8")

        def question(match: re.Match, page_name: str = page.name) -> str:
            indent, qid = match.groups()
            if qid not in known:
                raise BuildError(f"{page_name}: unknown question {qid!r} (sitebuild.predictions: {sorted(known)}).")
            placed.append(qid)
            return render(known[qid], indent)

        filled = PLACEHOLDER.sub(question, html)
        if filled != html:
            page.write_text(filled, encoding="utf-8")
    if sorted(placed) != sorted(known):
        raise BuildError(f"every question stands once on a page: placed {sorted(placed)} of {sorted(known)}.")
