"""The article's "먼저 짐작해 보기" questions (py/sitebuild/predictions.py): each written once where the page asks, with
its answer among its choices; a question the page does not place, or places twice, or does not know, stops the build."""

import re
import shutil

import pytest

from tests.site_build import config

ROOT = re.compile(r'<div class="predict" data-predict="([\w-]+)" data-answer="([^"]*)"')
CHOICE = re.compile(r'data-choice="([^"]*)"')


def test_every_question_stands_once_in_the_built_article_with_its_answer_among_its_choices():
    source = (config.SITE / "index.html").read_text(encoding="utf-8")
    built = (config.DIST / "index.html").read_text(encoding="utf-8")
    asked = re.findall(r"<!-- ptrnet:predict ([\w-]+) -->", source)
    assert len(asked) >= 4 and "ptrnet:predict" not in built
    roots = ROOT.findall(built)
    assert [qid for qid, _ in roots] == asked
    for block, (qid, answer) in zip(built.split('<div class="predict" ')[1:], roots, strict=True):
        choices = CHOICE.findall(block.split("</template>")[0])  # a question ends with its reveal
        assert 2 <= len(choices) <= 4 and answer in choices, qid


@pytest.fixture(scope="module")
def known():
    from sitebuild import predictions

    return predictions.questions()


@pytest.mark.parametrize(
    ("old", "new", "complaint"),
    [
        ("predict slots -->", "predict slot -->", "unknown question 'slot'"),
        ("<!-- ptrnet:predict slots -->", "", "stands once"),
        (
            "<!-- ptrnet:predict slots -->",
            "<!-- ptrnet:predict slots -->\n<!-- ptrnet:predict slots -->",
            "stands once",
        ),
    ],
)
def test_a_question_placed_wrong_stops_the_build(tmp_path, monkeypatch, known, old, new, complaint):
    from sitebuild import predictions

    monkeypatch.setattr(predictions, "questions", lambda: known)
    shutil.copyfile(config.SITE / "index.html", page := tmp_path / "index.html")
    text = page.read_text(encoding="utf-8")
    assert old in text
    page.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(SystemExit, match=complaint):
        predictions.write_predictions(tmp_path)
