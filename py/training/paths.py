"""Where the offline tools read and write in the repository (the wheel never sees this package)."""

from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PACKAGE_DATA = REPO / "py" / "src" / "ptrnet" / "data"  # what ships: the weights (.npz) and model cards
TRAINING = Path(__file__).resolve().parent
RECORDS = TRAINING / "records"  # results JSON, golden outputs and training records
HISTORY = TRAINING / "HISTORY.md"  # every shipped model's training lineage, rendered from RECORDS
CACHE = REPO / ".cache"  # generated test sets, checkpoints: ignored by git
README = REPO / "README.md"
