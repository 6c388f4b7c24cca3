"""The prelude demos: one generation step of the LSTM language model (ptrnet.prelude.lm), and one NPLM (Bengio et
al. 2003, ptrnet.prelude.nplm) per demo instance."""

from ptrnet.handlers.base import (
    INSTANCES,
    InputError,
    bool_param,
    handler,
    instance_param,
    int_param,
    is_finite_number,
    snapshot_handlers,
)
from ptrnet.limits import MAX_NPLM_CHUNK, MAX_SEED
from ptrnet.views import prelude as view

NPLMS: dict = INSTANCES["nplm"]  # instance -> nplm.Trainer


@handler("lm-shapes", "step")
def _lm_step(params: dict) -> dict:
    """One generation step of the small LSTM LM after the given prefix, every tensor with its shape."""
    from ptrnet.prelude import lm
    from ptrnet.prelude.corpus import BOS

    vocab, _ = lm.load()
    tokens = params.get("tokens")
    if not isinstance(tokens, list) or not 1 <= len(tokens) <= lm.MAX_TOKENS:
        raise InputError(f"tokens는 단어 번호 1개부터 {lm.MAX_TOKENS}개까지의 목록이어야 합니다.")
    ids = [int_param({"tokens": t}, "tokens", 0, 0, len(vocab) - 1) for t in tokens]
    if vocab[ids[0]] != BOS:
        raise InputError(f"tokens의 첫 단어는 {BOS}(번호 {vocab.index(BOS)})여야 합니다.")
    mode = params.get("mode", lm.MODES[0])
    if mode not in lm.MODES:
        choices = " 또는 ".join(f'"{m}"' for m in lm.MODES)
        raise InputError(f"mode 값은 {choices}여야 합니다.")
    temperature = params.get("temperature", 1.0)
    low, high = lm.TEMPERATURE
    if not is_finite_number(temperature) or not low <= temperature <= high:
        raise InputError(f"temperature 값은 {low:g}부터 {high:g} 사이의 수여야 합니다.")
    seed = int_param(params, "seed", 0, 0, MAX_SEED)
    return view.lm_step(lm.generation_step(ids, mode == "greedy", float(temperature), seed))


@handler("nplm", "reset")
def _nplm_reset(params: dict) -> dict:
    """Re-initialise the NPLM from a seed, with or without the direct connection W."""
    t = _nplm(params)
    t.reset(int_param(params, "seed", t.config.seed, 0, MAX_SEED), bool_param(params, "direct", t.config.direct))
    return _nplm_summary(t)


@handler("nplm", "train")
def _nplm_train(params: dict) -> dict:
    """Run a chunk of SGD steps and return the new summary."""
    t = _nplm(params)
    t.train(int_param(params, "iterations", 200, 1, MAX_NPLM_CHUNK))
    return _nplm_summary(t)


@handler("nplm", "view")
def _nplm_view(params: dict) -> dict:
    """The current summary: perplexities, word vectors and the unseen sentence's probability."""
    return _nplm_summary(_nplm(params))


def _nplm(params: dict):  # noqa: ANN202 — nplm is imported lazily (it loads its corpus)
    """The NPLM of the request's instance, created on first use."""
    from ptrnet.prelude import nplm

    name = instance_param(params)
    if name not in NPLMS:
        NPLMS[name] = nplm.Trainer()
    return NPLMS[name]


def _nplm_summary(t) -> dict:  # noqa: ANN001 — an nplm.Trainer (nplm is imported lazily)
    """What the NPLM demo shows of t, its numbers written (a restored NPLM answers with it too)."""
    from ptrnet.prelude import nplm

    return view.nplm(nplm.summary(t))


snapshot_handlers("nplm", _nplm, _nplm_summary)
