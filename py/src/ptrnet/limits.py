"""The pages' limits, example point sets and decimal rules, declared once: the handlers check requests against
them, the computations and the offline tools (training) read them, and sitebuild.page_constants hands them to JS.
Nothing here imports the rest of ptrnet, so every floor may read it."""

# --- points a request may hold

HELD_KARP_MAX = 12  # the most cities Held-Karp solves live (a drag's tour, a runner set's reference); LKH-3 above
MIN_MODEL_POINTS = 3  # demos 1 and 4 and the companion page: fewer points have no hull, triangle or tour
MAX_MODEL_POINTS = 12  # the trained models run live on every drag
SEQ2SEQ_N = 5  # the seq2seq baseline was trained at n = 5: its outputs are {1..5, ⇒, ⇐}, so it answers only there
ATTENTION_POINTS = (5, 10)  # the attention seq2seq's training sizes: its output layer names the points 1..10
POINT_DECIMALS = 3  # a point's coordinates as the editors keep them, the permalinks write them and demo 1 draws them

# --- how much one request may ask for

MAX_SORTER_CHUNK = 500  # training iterations per request, so pause and reset are honoured quickly
MAX_NPLM_CHUNK = 2000  # the NPLM's iterations per request (one is far cheaper than the sorter's)
MAX_PTR_TRAIN_CHUNK = 200  # the reader's Ptr-Net: Adam updates per request (each takes milliseconds to tens)
TRAINER_HIDDEN = (32, 64)  # the LSTM widths the reader may train; the first is the default
MAX_WEIGHTS_BYTES = 2_000_000  # the largest .npz the reader may import into the trainer
MAX_EVAL_COUNT = 1000  # demo 6: random sequences per length one evaluation may ask for
TEST_LENGTHS = (2, 50)  # demo 5's test-length slider and demo 6's lengths
MAX_SEED = 2**31 - 1  # seeds are 31-bit so that Python and JS agree on them
MAX_INSTANCE_ID = 64  # characters of a demo element's id

# --- the experiment runner

MAX_SETS = 1000  # sets per size
MAX_POINTS_PER_SIZE = 100_000  # sets x n per size: large n runs with fewer sets (hull 500: 200 sets)
MAX_SIZES = 8  # sizes per run
MAX_RUNNER_CHUNK = 200  # sets per measure request (the page asks for far fewer, to answer within ~150 ms)
MAX_FAILURES = 24  # failed cases a run keeps for the gallery

# --- example point sets the pages open with

HULL_EXAMPLE = [[0.45, 0.45], [0.60, 0.35], [0.15, 0.30], [0.85, 0.75], [0.30, 0.85], [0.80, 0.15], [0.50, 0.65]]
HESITANT = 0.9  # demo 4's hard presets: a step whose likeliest candidate is below this is one the model hesitates at
HULL_PRESETS = {  # demo 4's point sets, the 7-point example first (the default); the others were found by
    # `python -m training.hard_cases`, and the shipped hull model hesitates or errs on each (tests/py checks it)
    "example": {"label": "7점 예제", "points": HULL_EXAMPLE},
    "nearly-collinear": {
        "label": "거의 한 줄로 늘어선 껍질 꼭짓점",
        "points": [
            [0.456, 0.49],
            [0.349, 0.764],
            [0.54, 0.631],
            [0.509, 0.385],
            [0.827, 0.566],
            [0.413, 0.59],
            [0.632, 0.178],
            [0.461, 0.819],
        ],
    },
    "just-inside": {
        "label": "변 바로 안쪽에 붙은 점",
        "points": [
            [0.883, 0.658],
            [0.484, 0.539],
            [0.595, 0.62],
            [0.153, 0.431],
            [0.874, 0.381],
            [0.153, 0.634],
            [0.903, 0.513],
        ],
    },
    "just-outside": {
        "label": "변 바로 바깥으로 살짝 나온 꼭짓점",
        "points": [
            [0.437, 0.608],
            [0.294, 0.716],
            [0.65, 0.842],
            [0.656, 0.591],
            [0.454, 0.85],
            [0.785, 0.724],
            [0.279, 0.247],
        ],
    },
}
SEQUENCES_EXAMPLE = [
    [0.2, 0.25],
    [0.55, 0.15],
    [0.85, 0.35],
    [0.7, 0.6],
    [0.45, 0.5],
    [0.3, 0.8],
    [0.75, 0.88],
    [0.12, 0.55],
]  # demo 2's points before the reader moves them
SLOT_N = (MIN_MODEL_POINTS, MAX_MODEL_POINTS)  # demo 1's slider: how many random points (the models answer them)
SLOT_DEFAULTS = {"n": 8, "seed": 6}  # demo 1 opens at n = 8, seed 6: three answer tokens above 5
