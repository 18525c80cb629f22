"""Weight files written by Keras load into the lab: legacy .h5 from tf_keras save_weights, Keras 3
.weights.h5 and Keras 3 .keras archives, for EfficientNetB0, EfficientNetV2B0 and MobileNetV2. Every
layer matches (nothing missing, unexpected or mismatched) and every loaded value equals what Keras saved.
The files are written here by TensorFlow from seeded random weights; nothing is downloaded."""

import numpy as np
import pytest

from helpers import randomise, read_manifest

SIZE = 64
CLASSES = 5
KERAS_NAMES = {"b0": "EfficientNetB0", "v2-b0": "EfficientNetV2B0", "mobilenetv2": "MobileNetV2"}
FORMATS = ["legacy.h5", "weights.h5", "keras"]
EXPECTED_FORMAT = {"legacy.h5": "keras2-h5", "weights.h5": "keras3-weights-h5", "keras": "keras-archive"}


def build(module, model_id, classes):
    return getattr(module.applications, KERAS_NAMES[model_id])(
        weights=None, include_top=True, classes=classes, input_shape=(SIZE, SIZE, 3)
    )


def legacy_h5(model, model_id, path):
    """The same weights through tf_keras (Keras 2) save_weights, the layout keras.applications downloads use."""
    import tf_keras

    tf_keras.backend.clear_session()
    legacy = build(tf_keras, model_id, CLASSES)
    for layer in legacy.layers:
        if layer.weights:
            layer.set_weights([np.asarray(w.numpy()) for w in model.get_layer(layer.name).weights])
    legacy.save_weights(str(path))


@pytest.fixture(scope="module")
def loaded(keras, node, tmp_path_factory):
    work = tmp_path_factory.mktemp("weight_files")
    jobs, saved = [], {}
    for i, model_id in enumerate(KERAS_NAMES):
        keras.backend.clear_session()
        keras.utils.set_random_seed(300 + i)
        model = build(keras, model_id, CLASSES)
        randomise(model, 300 + i)
        saved[model_id] = {(layer.name, j): np.asarray(w.numpy()) for layer in model.layers for j, w in enumerate(layer.weights)}
        files = {
            "legacy.h5": work / f"{model_id}.h5",
            "weights.h5": work / f"{model_id}.weights.h5",
            "keras": work / f"{model_id}.keras",
        }
        legacy_h5(model, model_id, files["legacy.h5"])
        model.save_weights(str(files["weights.h5"]))
        model.save(str(files["keras"]))
        for fmt, path in files.items():
            jobs.append({
                "model": model_id, "height": SIZE, "width": SIZE, "includeTop": True, "includePreprocessing": True,
                "numClasses": CLASSES, "file": str(path), "output": str(work / f"{model_id}-{fmt}.json"),
            })
        # A file for 5 classes into a 7-class model: refused, naming the head.
        jobs.append({**jobs[-1], "numClasses": 7, "output": str(work / f"{model_id}-mismatch.json")})
    answers = node("loadWeights", jobs, work)
    return work, saved, {(job["model"], job["output"]): answer for job, answer in zip(jobs, answers)}


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("model_id", list(KERAS_NAMES))
def test_keras_file_loads_completely(loaded, model_id, fmt):
    work, saved, answers = loaded
    output = work / f"{model_id}-{fmt}.json"
    answer = answers[(model_id, str(output))]
    assert "error" not in answer, answer.get("message")
    assert answer["format"] == EXPECTED_FORMAT[fmt]
    assert (answer["missing"], answer["unexpected"], answer["mismatches"]) == ([], [], [])
    assert answer["matchedParams"] == answer["modelParams"]
    # Keras 2 names every weight; Keras 3 stores them by position only.
    assert answer["pairedBy"] == (["name"] if fmt == "legacy.h5" else ["order"])
    lab = read_manifest(output)
    layers_with_weights = {name for name, _ in saved[model_id]}
    assert answer["matched"] == len(layers_with_weights)
    by_layer = {}
    for name, values in lab.items():
        by_layer.setdefault(name.rsplit("/", 1)[0], []).append(values)
    for (layer, j), expected in saved[model_id].items():
        got = by_layer[layer][j]
        assert got.shape == expected.shape, f"{layer}[{j}]"
        assert np.array_equal(got, expected.astype(np.float32)), f"{layer}[{j}] differs from what Keras saved"


@pytest.mark.parametrize("model_id", list(KERAS_NAMES))
def test_keras_file_for_another_head_is_refused(loaded, model_id):
    work, _, answers = loaded
    answer = answers[(model_id, str(work / f"{model_id}-mismatch.json"))]
    assert answer.get("error") == "shape-mismatch"
    assert "predictions/kernel" in answer["message"]
    assert {m["layer"] for m in answer["mismatches"]} == {"predictions"}
