"""One Adam step of the frozen phase and one of the fine-tune phase: the lab's Trainer and Keras, from the
same weights on the same batch, give the same loss and the same weights afterwards (trainable weights and
BatchNorm moving statistics; frozen ones unchanged).

Stated tolerance: loss within 2e-4 relative; BatchNorm moving statistics within 1e-5; trainable weights
within 1e-5 wherever Keras' gradient is at least GRAD_NOISE (for 99.5% of those values) and within
2 x the learning rate everywhere. Adam's first step is lr * g / (|g| + eps), nearly lr * sign(g): a
gradient that is zero in exact arithmetic and only float rounding in practice (for example the beta of
a BatchNorm followed by a conv and a training-mode BatchNorm, which removes any shift) takes either sign
in two frameworks, and moves its weight by +-lr either way.

Two differences from a plain Keras model are by design, and the Keras side here reproduces them:
- Adam's epsilon: tfjs adds it to sqrt(v_hat), Keras to sqrt(v) before the bias correction, so Keras'
  effective epsilon at step t is eps / sqrt(1 - beta_2^t) (3.2e-6 at step 1 for eps 1e-7), tending to eps.
  Keras here uses eps * sqrt(1 - beta_2), which equals tfjs' step 1 exactly. The two differ only for
  gradients below about 1e-5 in the first few thousand steps.
- The frozen phase runs the backbone in inference mode, as Keras' transfer-learning guide's
  base_model(x, training=False) does. A flat Keras model fitted with trainable=False backbone layers
  would still apply EfficientNet's stochastic-depth Dropout in the frozen blocks (Keras' Dropout ignores
  trainable); the lab does not, so its frozen phase is deterministic and its features can be cached.
"""

import numpy as np
import pytest

from differences import WEIGHT_NAME_ALIASES
from helpers import calibrate, fixed_images, randomise, read_manifest, write_manifest

HEIGHT, WIDTH = 64, 96
CLASSES = 3
LEARNING_RATE = 1e-3
LABELS = [0, 1, 2, 1]
UPDATE_TOLERANCE = 1e-5
UPDATE_SHARE = 0.995
# Gradients below this are float rounding of an exact zero (the loss is of order one).
GRAD_NOISE = 1e-6
BETA_2 = 0.999
# Keras' epsilon that makes its first Adam step equal tfjs' (see the module docstring).
KERAS_EPSILON = 1e-7 * (1 - BETA_2) ** 0.5
KERAS_NAMES = {"v2-b0": "EfficientNetV2B0", "mobilenetv2": "MobileNetV2"}
# (model, phase, backbone layers unfrozen for fine-tuning, include preprocessing).
STEPS = [
    ("v2-b0", "frozen", 0, True),
    ("mobilenetv2", "frozen", 0, False),
    # Two Conv2D and two BatchNormalization layers train: batch statistics and the moving averages
    # (momentum 0.999) are compared too. MobileNetV2 has no stochastic depth, so the step is deterministic.
    ("mobilenetv2", "fine-tune", 5, False),
]


def step_id(step):
    model, phase, unfreeze, _ = step
    return f"{model}-{phase}-{unfreeze}"


def keras_classifier(keras, model_id, prep, seed, images):
    """keras.applications backbone + the lab's head (dropout 0 for a deterministic step), as one flat model."""
    keras.backend.clear_session()
    keras.utils.set_random_seed(seed)
    kwargs = {"weights": None, "include_top": False, "input_shape": (HEIGHT, WIDTH, 3)}
    if model_id.startswith("v2-"):
        kwargs["include_preprocessing"] = prep
    base = getattr(keras.applications, KERAS_NAMES[model_id])(**kwargs)
    layers = keras.layers
    x = layers.GlobalAveragePooling2D(name="avg_pool")(base.output)
    x = layers.Dropout(0.0, name="head_dropout_1")(x)
    x = layers.Dense(128, activation="relu", name="head_dense")(x)
    x = layers.Dropout(0.0, name="head_dropout_2")(x)
    out = layers.Dense(CLASSES, activation="softmax", name="predictions")(x)
    model = keras.Model(base.input, out)
    randomise(model, seed)
    calibrate(keras, model, model, images)
    return model, len(base.layers)


def keras_step(keras, tf, model, backbone_layers, phase, unfreeze, images):
    """What the lab's Trainer does in Keras terms: set trainable, a fresh Adam, one taped step."""
    first = backbone_layers if phase == "frozen" else backbone_layers - unfreeze
    for i, layer in enumerate(model.layers):
        layer.trainable = i >= first
    optimizer = keras.optimizers.Adam(LEARNING_RATE, beta_2=BETA_2, epsilon=KERAS_EPSILON)
    loss_fn = keras.losses.SparseCategoricalCrossentropy()
    if phase == "frozen":
        backbone = keras.Model(model.input, model.layers[backbone_layers - 1].output)
        features = backbone(images, training=False)
        head = model.layers[backbone_layers:]
    with tf.GradientTape() as tape:
        if phase == "frozen":
            probs = features
            for layer in head:
                probs = layer(probs, training=True)
        else:
            probs = model(images, training=True)
        loss = loss_fn(np.array(LABELS), probs)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return float(loss), {v.path: np.asarray(g) for v, g in zip(model.trainable_variables, grads)}


def lab_name(path):
    layer, short = path.rsplit("/", 1)
    for (_, lab_short), keras_short in WEIGHT_NAME_ALIASES.items():
        if short == keras_short and layer.endswith(("dwconv", "dwconv2", "depthwise")):
            return f"{layer}/{lab_short}"
    return path


@pytest.fixture(scope="module")
def stepped(keras, tf, node, tmp_path_factory):
    work = tmp_path_factory.mktemp("steps")
    images = fixed_images(HEIGHT, WIDTH)
    images.astype("<f4").tofile(work / "images.bin")
    jobs, keras_side = [], []
    for i, (model_id, phase, unfreeze, prep) in enumerate(STEPS):
        model, backbone_layers = keras_classifier(keras, model_id, prep, 200 + i, images)
        write_manifest(model.layers, work / f"before{i}.json")
        before = {w.path: np.array(w.numpy()) for w in model.weights}
        loss, grads = keras_step(keras, tf, model, backbone_layers, phase, unfreeze, images)
        after = {w.path: np.array(w.numpy()) for w in model.weights}
        keras_side.append((loss, before, after, grads))
        jobs.append({
            "model": model_id, "height": HEIGHT, "width": WIDTH, "includePreprocessing": prep,
            "numClasses": CLASSES, "weights": str(work / f"before{i}.json"), "images": str(work / "images.bin"),
            "labels": LABELS, "phase": phase, "learningRate": LEARNING_RATE, "unfreeze": unfreeze,
            "output": str(work / f"after{i}.json"),
        })
    answers = node("trainStep", jobs, work)
    return {
        step: (answer, read_manifest(work / f"after{i}.json"), keras_side[i])
        for i, (step, answer) in enumerate(zip(STEPS, answers))
    }


@pytest.mark.parametrize("step", STEPS, ids=[step_id(s) for s in STEPS])
def test_one_adam_step_equals_keras(stepped, step):
    answer, lab_after, (keras_loss, before, keras_after, grads) = stepped[step]
    assert answer["loss"] == pytest.approx(keras_loss, rel=2e-4)
    moved = 0
    for path, expected in keras_after.items():
        lab = lab_after[lab_name(path)]
        diff = np.abs(lab - expected)
        if np.array_equal(expected, before[path]):
            assert np.array_equal(lab, before[path]), f"{path}: Keras left it unchanged, the lab moved it"
            continue
        moved += 1
        if path.endswith(("moving_mean", "moving_variance")):
            assert diff.max() <= UPDATE_TOLERANCE, f"{path}: max |lab - keras| = {diff.max():.3g}"
            continue
        informative = np.abs(grads[path]) >= GRAD_NOISE
        close = float((diff[informative] <= UPDATE_TOLERANCE).mean()) if informative.any() else 1.0
        assert close >= UPDATE_SHARE, f"{path}: only {close:.2%} of values within {UPDATE_TOLERANCE}"
        assert diff.max() <= 2 * LEARNING_RATE + UPDATE_TOLERANCE, f"{path}: max |lab - keras| = {diff.max():.3g}"
    assert moved > 0
