"""The lab's Keras script, run for real: written by the lab's own code from lab settings (interop/node/
kerasScript.ts), then run with this venv's TensorFlow on a tiny folder of JPEG and PNG files, one epoch of
two steps per phase with random weights at 32x32. On one device (EfficientNet-Tiny's stand-in B0,
gradient accumulation on), on one device from a CSV manifest of the same files (MobileNetV2), and under
MirroredStrategy with two logical CPUs as two real replicas (MobileNetV2). The runs start together, so a
machine with spare cores runs them side by side."""

import json
import math
import os
import subprocess
import sys

import numpy as np
import pytest

CLASSES = ["cats", "dogs", "owls"]
SCRIPT_TIMEOUT_S = 900

RUNS = {
    "none": {
        "settings": {"model": "tiny", "batchSize": 4, "fineTune": {"kind": "last", "n": 5},
                     "techniques": {"backboneOutsideTape": True, "accumulationSteps": 2, "checkpointing": "off",
                                    "cacheFeatures": True, "float16Storage": False, "leanBackward": False}},
        "flags": ["--strategy", "none"],
        "replicas": 1,
        "micro": 2,
    },
    "manifest": {
        "settings": {"model": "mobilenetv2", "batchSize": 2, "fineTune": {"kind": "last", "n": 4}},
        "flags": ["--strategy", "none"],
        "replicas": 1,
        "micro": 2,
        "manifest": "labels.csv",
    },
    "mirrored": {
        "settings": {"model": "mobilenetv2", "batchSize": 2, "fineTune": {"kind": "last", "n": 4}},
        "flags": ["--strategy", "mirrored", "--cpu-devices", "2"],
        "replicas": 2,
        "micro": 2,
    },
}
COMMON_SETTINGS = {"weights": "random", "height": 32, "width": 32, "frozenEpochs": 1, "fineTuneEpochs": 1}


def write_folder(tf, root):
    """Ten images per class in class folders, half JPEG and half PNG, of two sizes (the script resizes),
    each class its own mean colour so the labels mean something. Keras holds out 6 of the 30: one
    full global batch of 4 and a partial one, which the two replicas split unevenly."""
    rng = np.random.default_rng(7)
    for c, name in enumerate(CLASSES):
        (root / name).mkdir(parents=True)
        for i in range(10):
            shape = (40, 48, 3) if i % 3 else (56, 36, 3)
            pixels = np.clip(rng.normal(50 + 70 * c, 25, shape), 0, 255).astype(np.uint8)
            if i % 2:
                tf.io.write_file(str(root / name / f"{i}.png"), tf.io.encode_png(pixels))
            else:
                tf.io.write_file(str(root / name / f"{i}.jpg"), tf.io.encode_jpeg(pixels))
    # The same files as a manifest (paths relative to it, the lab's column names), and one row whose
    # label is no class, which the script leaves out and says so.
    rows = [f"{name}/{i}.{'png' if i % 2 else 'jpg'},{name}" for name in CLASSES for i in range(10)]
    (root / "labels.csv").write_text("\n".join(["filename,label", *rows, "owls/0.jpg,penguins"]) + "\n")


@pytest.fixture(scope="module")
def runs(tf, node, tmp_path_factory):
    work = tmp_path_factory.mktemp("keras_script")
    data = work / "data"
    write_folder(tf, data)
    jobs = [
        {"settings": {**COMMON_SETTINGS, **run["settings"]}, "classNames": CLASSES,
         "manifest": run.get("manifest"), "remedies": {"mixedPrecision": False, "memoryGrowth": False},
         "output": str(work / f"train_{name}.py")}
        for name, run in RUNS.items()
    ]
    answers = dict(zip(RUNS, node("kerasScript", jobs, work)))
    env = {**os.environ, "TF_CPP_MIN_LOG_LEVEL": "2", "CUDA_VISIBLE_DEVICES": ""}
    started = {}
    for name, run in RUNS.items():
        out = work / name
        out.mkdir()
        source = data / run["manifest"] if "manifest" in run else data
        command = [sys.executable, str(work / f"train_{name}.py"), "--data", str(source), "--weights", "none",
                   "--epochs", "1", "--steps-per-epoch", "2", "--save", str(out / "model.keras"),
                   "--memory-log", str(out / "memory.jsonl"), *run["flags"]]
        log = open(out / "log.txt", "w")
        started[name] = (subprocess.Popen(command, cwd=out, stdout=log, stderr=subprocess.STDOUT, env=env), log)
    results = {}
    for name, (process, log) in started.items():
        rc = process.wait(timeout=SCRIPT_TIMEOUT_S)
        log.close()
        out = work / name
        results[name] = {"rc": rc, "log": (out / "log.txt").read_text(), "out": out, "answer": answers[name],
                         "data": data}
    return results


def params(weights):
    return sum(math.prod(w.shape) for w in weights)


@pytest.mark.parametrize("name", list(RUNS))
def test_script_runs_both_phases_and_logs_memory(name, runs):
    run, expected = runs[name], RUNS[name]
    log = run["log"]
    assert run["rc"] == 0, log[-6000:]
    replicas, micro = expected["replicas"], expected["micro"]
    assert f"{replicas} replica(s); global batch {micro * replicas} = {micro} per replica x {replicas}" in log
    prediction = run["answer"]["prediction"]
    for phase, key in (("frozen", "frozen"), ("fine-tune", "fineTune")):
        predicted = f"the lab predicted {prediction[key] / 1e6:.1f} MB"
        assert f"[memory] {phase} epoch 1: no GPU, nothing measured; {predicted}" in log
    if "manifest" in expected:
        assert "1 manifest row(s) with a label outside CLASS_NAMES left out" in log
    records = [json.loads(line) for line in (run["out"] / "memory.jsonl").read_text().splitlines()]
    assert records == [
        {"phase": "frozen", "epoch": 1, "peak": None, "predicted": round(prediction["frozen"])},
        {"phase": "fine-tune", "epoch": 1, "peak": None, "predicted": round(prediction["fineTune"])},
    ]


@pytest.mark.parametrize("name", list(RUNS))
def test_phases_train_the_head_then_the_chosen_layers_and_the_model_is_saved(name, runs, keras, tf):
    run = runs[name]
    assert run["rc"] == 0, run["log"][-6000:]
    model = keras.models.load_model(run["out"] / "model.keras")
    base = next(layer for layer in model.layers if isinstance(layer, keras.Model))
    head = params(w for layer in model.layers if layer is not base for w in layer.trainable_weights)
    unfrozen = run["answer"]["unfrozen"]
    assert len(unfrozen) == RUNS[name]["settings"]["fineTune"]["n"]
    chosen = params(w for layer_name in unfrozen for w in base.get_layer(layer_name).trainable_weights)
    assert chosen > 0
    # Saved after phase 2: exactly the chosen backbone layers (and the head) are trainable.
    assert {layer.name for layer in base.layers if layer.trainable and layer.weights} == {
        n for n in unfrozen if base.get_layer(n).weights
    }
    assert f"[phase] frozen: {head} trainable parameters" in run["log"]
    assert f"[phase] fine-tune: {head + chosen} trainable parameters" in run["log"]
    assert f"saved the trained model to {run['out'] / 'model.keras'}" in run["log"]
    image = tf.image.resize(tf.io.decode_image(tf.io.read_file(str(run["data"] / "dogs" / "0.jpg")), channels=3),
                            (32, 32))
    probabilities = model(image[None], training=False).numpy()
    assert probabilities.shape == (1, len(CLASSES))
    assert abs(probabilities.sum() - 1) < 1e-5
