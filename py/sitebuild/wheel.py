"""Our pure-Python wheel, and the site's lighter copy of it."""

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

from sitebuild.config import CACHE, MODEL_FILES, OUR_PACKAGE, PY_PROJECT, SOURCE_DATE_EPOCH, WHEEL_OUT
from sitebuild.shell import BuildError, run


def build_wheel() -> Path:
    """Our pure-Python wheel, built reproducibly."""
    shutil.rmtree(WHEEL_OUT, ignore_errors=True)
    shutil.rmtree(PY_PROJECT / "build", ignore_errors=True)
    env = {**os.environ, "SOURCE_DATE_EPOCH": SOURCE_DATE_EPOCH}
    # cwd=py/: from the project root, `-m build` would import build.py itself.
    command = [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", WHEEL_OUT, PY_PROJECT]
    run(*command, env=env, cwd=PY_PROJECT, stdout=subprocess.DEVNULL)
    shutil.rmtree(PY_PROJECT / "build", ignore_errors=True)
    (wheel,) = WHEEL_OUT.glob(f"{OUR_PACKAGE}-*.whl")
    return wheel


def split_off_models(wheel: Path, models_dir: Path) -> Path:
    """The site's copy of our wheel without the trained weights, which go to models_dir.

    The weights are most of the wheel; the worker fetches them only when a demo first runs a
    trained model (Python raises ptrnet.MissingData with the path to fill).
    """
    site_wheel = CACHE / "site-wheel" / wheel.name
    shutil.rmtree(site_wheel.parent, ignore_errors=True)
    site_wheel.parent.mkdir(parents=True)
    models_dir.mkdir(parents=True)
    with zipfile.ZipFile(wheel) as source, zipfile.ZipFile(site_wheel, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            data = source.read(info)
            if MODEL_FILES.fullmatch(info.filename):
                (models_dir / Path(info.filename).name).write_bytes(data)
                continue
            if info.filename.endswith(".dist-info/RECORD"):
                kept = (
                    line
                    for line in data.splitlines(keepends=True)
                    if not MODEL_FILES.fullmatch(line.decode().split(",")[0])
                )
                data = b"".join(kept)
            target.writestr(info, data)
    if not any(models_dir.iterdir()):
        raise BuildError(
            f"{wheel.name} holds no trained weights ({MODEL_FILES.pattern}); train and export a model first (README: 학습과 평가)."
        )
    return site_wheel
