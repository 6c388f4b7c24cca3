"""Smoke tests of the PyTorch trainers (training.trainers.ptr_torch, s2s_torch): one tiny run each, resumed and
exported, where PyTorch is installed (the project does not depend on it; skipped otherwise)."""

import json

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from ptrnet.pointer import decoding, weights  # noqa: E402
from training.trainers import ptr_export, ptr_train, s2s_torch  # noqa: E402
from training.trainers.ptr_model import Config  # noqa: E402

TINY = Config(task="hull", hidden=8, batch=4, min_n=5, max_n=6, seed=1)


def test_ptr_trainer_takes_a_step_resumes_and_exports_weights_the_numpy_model_decodes_alike(tmp_path):
    ptr_train.train(TINY, tmp_path, minutes=1, steps=2, resume=None, ckpt_every=1e9, val_every=10**6)
    checkpoint = tmp_path / "hull.pt"
    ptr_train.train(TINY, tmp_path, minutes=1, steps=3, resume=checkpoint, ckpt_every=1e9, val_every=10**6)
    model, ckpt = ptr_train.load_checkpoint(checkpoint)
    assert ckpt["step"] == 3
    assert all(torch.isfinite(p).all() for p in model.parameters())

    ptr_export.export(checkpoint, tmp_path, records=tmp_path)
    params = weights.load((tmp_path / "hull_ptrnet.npz").read_bytes())
    golden = json.loads((tmp_path / "hull_golden.json").read_text())
    for case in golden["cases"]:  # PyTorch's decodings of the exported int8 weights, as numpy makes them
        steps = len(case["probs"])
        choices, probs = decoding.greedy(params, np.array(case["points"])[None], max_steps=steps)
        assert choices[0, :steps].tolist() == case["choices"]
        assert np.abs(probs[0, :steps] - np.array(case["probs"])).max() < 1e-4


def test_seq2seq_trainer_takes_steps_and_checkpoints(tmp_path):
    config = s2s_torch.S2SConfig(hidden=8, batch=4, min_n=5, max_n=5, seed=1)
    s2s_torch.train(config, tmp_path, minutes=0.02, resume=None)
    ckpt = torch.load(tmp_path / f"hull_{s2s_torch.kind(config)}.pt", weights_only=False)
    assert ckpt["step"] > 0
    assert all(torch.isfinite(t).all() for t in ckpt["model"].values())


def test_seq2seq_trainer_keeps_numbered_weights_the_numpy_model_loads(tmp_path):
    config = s2s_torch.S2SConfig(attention=True, hidden=8, batch=4, min_n=5, max_n=6, seed=1)
    s2s_torch.train(config, tmp_path, minutes=0.02, resume=None, keep_every=2)
    final = torch.load(tmp_path / "hull_attention.pt", weights_only=False)["step"]
    kept = sorted((tmp_path / "kept").glob("hull_attention_*.npz"))
    assert [int(p.stem.rsplit("_", 1)[1]) for p in kept] == list(range(0, final, 2))
    assert json.loads((tmp_path / "kept" / "run.json").read_text())["config"]["seed"] == 1
    params = weights.load(kept[-1])
    choices, _, attention = decoding.greedy_attention(params, np.random.default_rng(0).random((3, 5, 2)), 12)
    assert np.isfinite(attention).all() and attention.sum(axis=2) == pytest.approx(1.0)
