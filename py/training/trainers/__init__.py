"""The trainers: PyTorch (Ptr-Nets, seq2seq baselines) and numpy (hull baselines, the prelude LM), with their gradients."""
