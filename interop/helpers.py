"""Helpers for the numeric checks: seeded random weights on a Keras model, the weight manifest the Node
dumpers read, and four fixed test images."""

import json

import numpy as np


def randomise(model, seed):
    """Gives every weight seeded values that make a forward pass informative: kernels keep Keras' own
    (seeded) initialisation, BatchNorm statistics and affine terms move away from the identity, and an
    adaptable Normalization gets ImageNet-like statistics."""
    rng = np.random.default_rng(seed)
    for layer in model.layers:
        for w in layer.weights:
            short = w.path.rsplit("/", 1)[-1]
            shape = tuple(w.shape)
            if short in ("gamma", "moving_variance", "variance"):
                w.assign(rng.uniform(0.5, 1.5, shape).astype(w.dtype))
            elif short in ("beta", "moving_mean", "mean", "bias"):
                w.assign(rng.normal(0.0, 0.1, shape).astype(w.dtype))
        # Keras' Normalization caches its mean and variance when built; loading weights refreshes the
        # cache through finalize_state(), and so must assigning them here.
        if hasattr(layer, "finalize_state"):
            layer.finalize_state()


def calibrate(keras, model, forward, images):
    """Sets every BatchNormalization's moving statistics to the batch statistics it sees on `images`, so
    random weights give activations of order one that depend on the image (uncalibrated random networks
    explode or saturate, and every image gives the same output). One training-mode pass with momentum 0."""
    norms = [layer for layer in model.layers if isinstance(layer, keras.layers.BatchNormalization)]
    momenta = [layer.momentum for layer in norms]
    for layer in norms:
        layer.momentum = 0.0
    forward(images, training=True)
    for layer, momentum in zip(norms, momenta):
        layer.momentum = momentum


def write_manifest(layers, path):
    """Writes the weights of `layers` (Keras layers) as the manifest interop/node/manifest.ts reads."""
    entries, chunks, offset = [], [], 0
    for layer in layers:
        if not layer.weights:
            continue
        weights = []
        for w in layer.weights:
            values = np.asarray(w.numpy(), dtype=np.float32)
            weights.append({"name": w.path, "shape": list(values.shape), "offset": offset})
            chunks.append(values.ravel())
            offset += values.size
        entries.append({"name": layer.name, "weights": weights})
    path.write_text(json.dumps({"layers": entries}))
    np.concatenate(chunks).astype("<f4").tofile(f"{path}.bin")


def read_manifest(path):
    """{'<layer>/<weight>': array} from a manifest the Node side wrote."""
    manifest = json.loads(path.read_text())
    values = np.fromfile(f"{path}.bin", dtype="<f4")
    out = {}
    for layer in manifest["layers"]:
        for w in layer["weights"]:
            n = int(np.prod(w["shape"])) if w["shape"] else 1
            out[w["name"]] = values[w["offset"] : w["offset"] + n].reshape(w["shape"])
    return out


def fixed_images(height, width, count=4, seed=0):
    """Four 0-255 float32 images: a horizontal ramp, a checkerboard, a colour blob and seeded noise."""
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    ramp = np.stack([x / (width - 1) * 255, y / (height - 1) * 255, np.full_like(x, 128)], -1)
    checker = np.repeat(((((x // 8) + (y // 8)) % 2) * 255)[..., None], 3, -1)
    blob = np.exp(-(((x - width / 3) ** 2) + ((y - height / 2) ** 2)) / (2 * (min(height, width) / 4) ** 2))
    colour = np.stack([blob * 255, (1 - blob) * 200, blob * 100 + 50], -1)
    noise = np.random.default_rng(seed).uniform(0, 255, (height, width, 3))
    return np.stack([ramp, checker, colour, noise][:count]).astype(np.float32)
