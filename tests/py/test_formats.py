"""ptrnet.formats' small writers for the demos' numbers, against strings written out by hand."""

from ptrnet import formats


def test_vector_writes_each_coordinate_with_the_same_decimals():
    assert formats.vector([1.2, 1], 2) == "(1.20, 1.00)"
    assert formats.vector([-0.006, 0.4449], 2) == "(-0.01, 0.44)"
    assert formats.vector([0.12345, -2], 3) == "(0.123, -2.000)"


def test_top_shares_names_the_largest_first_and_keeps_the_order_of_equals():
    shares = {"a": 0.1, "b": 0.35, "c": 0.2, "d": 0.35}
    assert formats.top_shares(shares, 3) == "b 35.0\u00a0% · d 35.0\u00a0% · c 20.0\u00a0%"
    assert formats.top_shares({"x": 0.9996, "y": 0.0004}, 3) == "x 99.96\u00a0% · y 0.0\u00a0%"
    assert formats.top_shares(shares, 1) == "b 35.0\u00a0%"


def test_percent_and_fixed_write_a_missing_value_as_a_dash():
    assert formats.percent(None) == formats.fixed(None, 4) == "–"
    assert formats.fixed(0.69314, formats.LOSS_DIGITS) == "0.6931"
