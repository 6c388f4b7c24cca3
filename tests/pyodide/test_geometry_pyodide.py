"""The geometry modules inside Pyodide (the browser's runtime): the spec's example, paper hull lines, numpy pin."""

from pytest_pyodide import run_in_pyodide

from training import datasets


@run_in_pyodide(packages=["ptrnet"])
def test_runtime_has_the_pinned_numpy_and_ptrnet(selenium):
    import numpy as np

    import ptrnet
    from ptrnet.api import dispatch

    assert np.__version__ == "2.0.2"
    assert dispatch("runtime", "ping", {}) == {"numpy": "2.0.2", "ptrnet": ptrnet.__version__}


@run_in_pyodide(packages=["ptrnet"])
def test_reference_example_gives_the_specs_three_answers(selenium):
    import json

    from ptrnet.api import dispatch
    from ptrnet.geometry.notation import delaunay_sequence, hull_sequence, tsp_sequence

    pts = [[0.45, 0.45], [0.60, 0.35], [0.15, 0.30], [0.85, 0.75], [0.30, 0.85], [0.80, 0.15], [0.50, 0.65]]
    delaunay = [[1, 3, 5], [1, 5, 7], [1, 2, 3], [1, 2, 7], [4, 5, 7], [2, 3, 6], [2, 4, 7], [2, 4, 6]]
    assert hull_sequence(pts) == [3, 6, 4, 5, 3]
    assert tsp_sequence(pts) == [1, 2, 6, 4, 7, 5, 3, 1]
    assert delaunay_sequence(pts) == delaunay
    out = json.loads(json.dumps(dispatch("sequences", "solve", {"points": pts})))
    assert out["hull"] == [3, 6, 4, 5, 3] and out["tsp"] == [1, 2, 6, 4, 7, 5, 3, 1]
    assert abs(out["tsp_length"] - 2.6175) < 5e-5  # the companion page's models: test_trained_pyodide.py


@run_in_pyodide(packages=["ptrnet"])
def _hull_lines_match(selenium, lines):
    from ptrnet.geometry.notation import hull_sequence

    for line in lines:
        coords, output = line.split("output")
        xs = [float(v) for v in coords.split()]
        pts = [xs[k : k + 2] for k in range(0, len(xs), 2)]
        assert hull_sequence(pts) == [int(v) for v in output.split()], line


def test_paper_hull_lines_are_reproduced(selenium):
    lines = datasets.official_text("convex_hull_5_test.txt").splitlines()
    _hull_lines_match(selenium, lines[:20])


@run_in_pyodide(packages=["ptrnet"])
def test_degenerate_inputs_and_input_errors(selenium):
    from ptrnet.api import InputError, dispatch
    from ptrnet.geometry.delaunay import delaunay
    from ptrnet.geometry.tsp import held_karp

    assert delaunay([[0.1, 0.1], [0.2, 0.2], [0.3, 0.3]]).shape == (0, 3)
    assert held_karp([[0.5, 0.5]] * 3)[1] == 0.0
    try:
        dispatch("sequences", "solve", {"points": [[0.5, 0.5]] * 13})
    except InputError as err:
        assert "12개까지만" in str(err)
    else:
        raise AssertionError("13 points must be rejected")


def test_degenerate_notes_match_cpython(selenium):
    from ptrnet.geometry.degenerate import notes

    cases = [
        [[0.25, 0.25], [0.75, 0.25], [0.75, 0.75], [0.25, 0.75], [0.5, 0.25], [0.25, 0.25]],  # a repeat, a hull edge
        [[0.1, 0.1], [0.5, 0.5], [0.9, 0.9]],  # one line
        [[0.45, 0.45], [0.1, 0.9], [0.9, 0.9], [0.3, 0.2], [0.75, 0.3], [0.6, 0.65], [0.15, 0.5]],  # none
    ]
    expected = [notes(points, triangulation=True) for points in cases]
    assert expected[0] and expected[1] and not expected[2]
    assert _notes_in_pyodide(selenium, cases) == expected


@run_in_pyodide(packages=["ptrnet"])
def _notes_in_pyodide(selenium, cases):
    from ptrnet.geometry.degenerate import notes

    return [notes(points, triangulation=True) for points in cases]
