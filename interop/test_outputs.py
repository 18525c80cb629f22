"""Same weights, same four images: the lab's forward pass (Node, tfjs CPU, inference mode) equals Keras'
model(x, training=False) within 2e-4 max absolute difference, with and without preprocessing layers.
The tolerance is 2e-4 absolute for outputs of order one (the softmax top) and 2e-4 of the largest value
for the raw last feature map, whose values reach the hundreds on random weights: float32 rounding
through 50-150 layers measures 2.5e-5 to 4e-5 of that scale (B0, V2-B0, MobileNetV2, 64x96) on most
machines, but TensorFlow's CPU kernels follow the processor's instruction set, and on an AVX-512/AMX
Xeon V2-B0 with its top and preprocessing measured 1.32e-4 (1.34e-4 with oneDNN off) for the same lab
output.
Models without preprocessing get the images already scaled to [-1, 1], as a caller that normalises
its own pixels would pass them (raw 0-255 values into a stem conv give activations in the hundreds,
where float32 rounding alone exceeds 1e-4)."""

import numpy as np
import pytest

from helpers import calibrate, fixed_images, randomise, write_manifest

TOLERANCE = 2e-4
HEIGHT, WIDTH = 64, 96
CLASSES = 10
KERAS_NAMES = {"b0": "EfficientNetB0", "v2-b0": "EfficientNetV2B0", "mobilenetv2": "MobileNetV2"}
# (model, include top, include preprocessing): the top as a 10-way softmax, or the last feature map.
CONFIGS = [(m, top, prep) for m in KERAS_NAMES for top, prep in [(True, True), (False, False)]]


def config_id(config):
    model, top, prep = config
    return f"{model}-top{int(top)}-prep{int(prep)}"


def model_input(prep):
    """The four images in 0-255 for a model with preprocessing, else scaled to [-1, 1]."""
    images = fixed_images(HEIGHT, WIDTH)
    return images if prep else images / 127.5 - 1


def keras_reference(keras, config, seed, images):
    """The Keras model (seeded, calibrated on the images) and the function the lab must equal."""
    model_id, top, prep = config
    keras.backend.clear_session()
    keras.utils.set_random_seed(seed)
    kwargs = {"weights": None, "include_top": top, "input_shape": (HEIGHT, WIDTH, 3)}
    if top:
        kwargs["classes"] = CLASSES
    if model_id == "v2-b0":
        kwargs["include_preprocessing"] = prep
    model = getattr(keras.applications, KERAS_NAMES[model_id])(**kwargs)
    randomise(model, seed)
    if model_id == "b0" and not prep:
        # Keras' V1 always preprocesses; the lab without preprocessing is Keras from the stem on.
        model = keras.Model(model.get_layer("stem_conv_pad").input, model.output)
    forward = model
    if model_id == "mobilenetv2" and prep:
        from keras.applications import mobilenet_v2

        def forward(x, training):
            return model(mobilenet_v2.preprocess_input(x.copy()), training=training)

    calibrate(keras, model, forward, images)
    return model, lambda x: forward(x, training=False)


@pytest.fixture(scope="module")
def compared(keras, node, tmp_path_factory):
    """Per config: (lab outputs, Keras outputs), the lab's run batched into one Node process."""
    work = tmp_path_factory.mktemp("outputs")
    jobs, expected = [], []
    for i, config in enumerate(CONFIGS):
        model_id, top, prep = config
        images = model_input(prep)
        images.astype("<f4").tofile(work / f"images{i}.bin")
        model, reference = keras_reference(keras, config, 100 + i, images)
        write_manifest(model.layers, work / f"weights{i}.json")
        expected.append(np.asarray(reference(images)))
        jobs.append({
            "model": model_id, "height": HEIGHT, "width": WIDTH, "includeTop": top,
            "includePreprocessing": prep, "numClasses": CLASSES, "weights": str(work / f"weights{i}.json"),
            "images": str(work / f"images{i}.bin"), "count": len(images), "output": str(work / f"out{i}.bin"),
            **({"exportH5": str(work / f"export{i}.h5")} if top and prep else {}),
        })
    answers = node("forward", jobs, work)
    results = {}
    for i, (config, answer) in enumerate(zip(CONFIGS, answers)):
        lab = np.fromfile(work / f"out{i}.bin", dtype="<f4").reshape(answer["outputShape"])
        results[config] = (lab, expected[i], work / f"export{i}.h5")
    return results


@pytest.mark.parametrize("config", CONFIGS, ids=[config_id(c) for c in CONFIGS])
def test_forward_pass_equals_keras(compared, config):
    lab, expected, _ = compared[config]
    assert lab.shape == expected.shape
    # Not a trivial output: the four images give different results, and the features are not all zero.
    assert np.abs(expected[0] - expected[3]).max() > 1e-3
    diff = float(np.abs(lab - expected).max())
    scale = float(np.abs(expected).max())
    allowed = TOLERANCE * max(1.0, scale)
    assert diff <= allowed, f"max |lab - keras| = {diff:.3g} (outputs up to {scale:.3g}; allowed {allowed:.3g})"


EXPORTED = [c for c in CONFIGS if c[1] and c[2]]


@pytest.mark.parametrize("config", EXPORTED, ids=[config_id(c) for c in EXPORTED])
def test_lab_h5_export_loads_into_keras(keras, compared, config):
    """The other direction: the .h5 the lab downloads loads into a fresh Keras model with load_weights,
    which then gives the lab's outputs."""
    lab, _, exported = compared[config]
    model, reference = keras_reference(keras, config, 999, fixed_images(HEIGHT, WIDTH))
    model.load_weights(str(exported))
    diff = float(np.abs(np.asarray(reference(fixed_images(HEIGHT, WIDTH))) - lab).max())
    assert diff <= TOLERANCE, f"max |keras(lab .h5) - lab| = {diff:.3g}"
