"""Shared fixtures: one TensorFlow import per session, and the lab's Node dumpers run through tsx.

Each dumper reads one JSON job file and writes one JSON answer, so a test module batches all its
configurations into a single tsx start (each start costs seconds).
"""

import json
import os
import subprocess
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import pytest  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
NODE_DIR = ROOT / "interop" / "node"
# A dumper that builds every architecture takes minutes on a busy two-core machine.
NODE_TIMEOUT_S = 900


def run_node(script: str, job, workdir: Path):
    """Runs interop/node/<script>.ts on `job` (any JSON value) and returns its parsed JSON answer."""
    workdir.mkdir(parents=True, exist_ok=True)
    job_path = workdir / f"{script}.job.json"
    answer_path = workdir / f"{script}.answer.json"
    job_path.write_text(json.dumps(job))
    command = ["npx", "--no-install", "tsx", str(NODE_DIR / f"{script}.ts"), str(job_path), str(answer_path)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=NODE_TIMEOUT_S)
    if done.returncode != 0:
        raise AssertionError(f"{script}.ts failed ({done.returncode}):\n{done.stderr[-4000:]}")
    return json.loads(answer_path.read_text())


@pytest.fixture(scope="session")
def keras():
    import keras as keras_module

    return keras_module


@pytest.fixture(scope="session")
def tf():
    import tensorflow as tf_module

    return tf_module


@pytest.fixture(scope="session")
def node():
    """run_node(script, job, workdir) for the lab's dumpers."""
    return run_node
