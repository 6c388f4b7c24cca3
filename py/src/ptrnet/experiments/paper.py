"""The paper's numbers that ours stand beside (SPEC section 7): Table 1 (hull), the Delaunay results and
Table 2 (TSP), by our model kind and test n. The offline results tables and the experiment runner read them here."""

PAPER = {
    "hull": {
        "ptrnet_5": {"accuracy": 0.920, "area_coverage": 0.996},
        "ptrnet_10": {"accuracy": 0.870, "area_coverage": 0.998},
        "ptrnet_50": {"accuracy": 0.696, "area_coverage": 0.999},
        "ptrnet_100": {"accuracy": 0.503, "area_coverage": 0.999},
        "ptrnet_200": {"accuracy": 0.221, "area_coverage": 0.999},
        "ptrnet_500": {"accuracy": 0.013, "area_coverage": 0.992},
        "seq2seq_5": {"accuracy": 0.877, "area_coverage": 0.996},
        "seq2seq_10_10": {"accuracy": 0.299, "area_fail": True},
        "seq2seq_50_50": {"accuracy": 0.019, "area_fail": True},
        "attention_50": {"accuracy": 0.389, "area_coverage": 0.997},
    },
    "tsp": {
        "ptrnet_5": {"optimal": 2.12, "A1": 2.18, "A2": 2.12, "A3": 2.12, "ptrnet": 2.12},
        "ptrnet_10": {"optimal": 2.87, "A1": 3.07, "A2": 2.87, "A3": 2.87, "ptrnet": 2.88},
        "ptrnet_20": {"optimal": 3.83, "A1": 4.24, "A2": 3.86, "A3": 3.85, "ptrnet": 3.88, "train_n": "5-20"},
        "ptrnet_25": {"A1": 4.71, "A2": 4.27, "A3": 4.24, "ptrnet": 4.30, "train_n": "5-20"},
        "ptrnet_30": {"A1": 5.11, "A2": 4.63, "A3": 4.60, "ptrnet": 4.72, "train_n": "5-20"},
        "ptrnet_40": {"A1": 5.82, "A2": 5.27, "A3": 5.23, "ptrnet": 5.91, "train_n": "5-20"},
        "ptrnet_50": {"A1": 6.46, "A2": 5.84, "A3": 5.79, "ptrnet": 7.66, "train_n": "5-20"},
        "ptrnet_a1_50": {"A1": 6.46, "A2": 5.84, "A3": 5.79, "ptrnet": 6.42, "train_n": "50"},
    },
    "delaunay": {
        "ptrnet_5": {"accuracy": 0.807, "triangle_coverage": 0.930},
        "ptrnet_10": {"accuracy": 0.226, "triangle_coverage": 0.813},
        "ptrnet_50": {"accuracy": 0.0, "triangle_coverage": 0.528},
    },
}
