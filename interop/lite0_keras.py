"""EfficientNet-Lite0 in Keras, written from the TensorFlow reference's description (B0's MBConv blocks,
ReLU6, no squeeze-and-excitation, TF 'same' padding), with the lab's layer names, and filled from the
PyTorch checkpoint through scripts/lite0/convert.py's name table. The interop tests hold the lab's
model against it."""

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts" / "lite0"))
import convert  # noqa: E402

# (kernel, repeats, filters in, filters out, expansion, first stride) per stage: B0's.
STAGES = [(3, 1, 32, 16, 1, 1), (3, 2, 16, 24, 6, 2), (5, 2, 24, 40, 6, 2), (3, 3, 40, 80, 6, 2),
          (5, 3, 80, 112, 6, 1), (5, 4, 112, 192, 6, 2), (3, 1, 192, 320, 6, 1)]
EPSILON = 1e-3


def _pad(keras, x, kernel):
    """TF 'same' padding of a stride-2 conv, as explicit zeros: the smaller half before."""
    def side(size):
        total = max(kernel - (2 if size % 2 == 0 else 1), 0)
        return (total // 2, total - total // 2)

    return keras.layers.ZeroPadding2D((side(x.shape[1]), side(x.shape[2])))


def build(keras, height, width, include_top=True):
    """The model from pixels in [0, 255] to ImageNet logits (include_top) or the top_activation map."""
    L = keras.layers
    inputs = keras.Input((height, width, 3))
    x = L.Rescaling(1 / 128, offset=-127 / 128, name="rescaling")(inputs)

    def conv_bn(x, filters, name, bn_name, kernel=1, strides=1, act=True, act_name=None):
        padding = "same"
        if strides == 2:
            x = _pad(keras, x, kernel)(x)
            padding = "valid"
        x = L.Conv2D(filters, kernel, strides, padding=padding, use_bias=False, name=name)(x)
        x = L.BatchNormalization(epsilon=EPSILON, name=bn_name)(x)
        return L.ReLU(6.0, name=act_name)(x) if act else x

    x = conv_bn(x, 32, "stem_conv", "stem_bn", 3, 2, act_name="stem_activation")
    for stage, (kernel, repeats, f_in, f_out, expand, stride) in enumerate(STAGES):
        for j in range(repeats):
            p = f"block{stage + 1}{chr(97 + j)}_"
            s, cin = (stride, f_in) if j == 0 else (1, f_out)
            y = x
            if expand != 1:
                y = conv_bn(y, cin * expand, f"{p}expand_conv", f"{p}expand_bn", act_name=f"{p}expand_activation")
            padding = "same"
            if s == 2:
                y = _pad(keras, y, kernel)(y)
                padding = "valid"
            y = L.DepthwiseConv2D(kernel, s, padding=padding, use_bias=False, name=f"{p}dwconv")(y)
            y = L.BatchNormalization(epsilon=EPSILON, name=f"{p}bn")(y)
            y = L.ReLU(6.0, name=f"{p}activation")(y)
            y = conv_bn(y, f_out, f"{p}project_conv", f"{p}project_bn", act=False)
            x = L.Add(name=f"{p}add")([y, x]) if s == 1 and cin == f_out else y
    x = conv_bn(x, 1280, "top_conv", "top_bn", act_name="top_activation")
    if include_top:
        x = L.GlobalAveragePooling2D(name="avg_pool")(x)
        x = L.Dense(1000, name="predictions")(x)
    return keras.Model(inputs, x, name="efficientnet-lite0")


# Keras' order of each layer's weights, by the lab's short names.
ORDER = {"Conv2D": ["kernel"], "DepthwiseConv2D": ["depthwise_kernel"], "Dense": ["kernel", "bias"],
         "BatchNormalization": ["gamma", "beta", "moving_mean", "moving_variance"]}


def load_checkpoint(model, state_dict):
    """Fills every weighted layer from the checkpoint through the converter's table; every checkpoint
    tensor must find its layer."""
    weights = convert.lab_weights(state_dict)
    used = set()
    for layer in model.layers:
        if not layer.weights:
            continue
        names = [f"{layer.name}/{short}" for short in ORDER[type(layer).__name__]]
        layer.set_weights([weights[n] for n in names])
        used.update(names)
    left = sorted(set(weights) - used)
    if left:
        raise AssertionError(f"checkpoint tensors with no Keras layer: {left[:5]}")
    return model


def logits_and_features(keras, model):
    """A function from images to (ImageNet logits, top_activation map) of a model built with include_top."""
    both = keras.Model(model.input, [model.output, model.get_layer("top_activation").output])

    def run(images):
        logits, features = both(images, training=False)
        return np.asarray(logits), np.asarray(features)

    return run
