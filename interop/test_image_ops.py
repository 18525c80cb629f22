"""TensorFlow's image ops equal the lab's pipeline ops, both the tensor path (src/ml/data/augment.ts:
flip, brightness, contrast) and the host path (src/core/data/pixels.ts: resize, resize + flip, brightness,
contrast), within 1e-3 on the 0-255 scale. Goldens come from tf.image here. The tensor path has no resize:
the pipeline always resizes on the host, before an image becomes a tensor."""

import numpy as np
import pytest

TOLERANCE = 1e-3
HEIGHT, WIDTH = 37, 53
# (op, parameters): a downscale and an upscale at ratios that are not integers, both with and without
# the flip that follows the resize; brightness both ways; contrast down and up.
CASES = [
    ("resize", {"outHeight": 24, "outWidth": 31}),
    ("resize", {"outHeight": 64, "outWidth": 80}),
    ("resize-flip", {"outHeight": 24, "outWidth": 31}),
    ("flip", {}),
    ("brightness", {"value": 31.5}),
    ("brightness", {"value": -47.25}),
    ("contrast", {"value": 0.6}),
    ("contrast", {"value": 1.7}),
]


def case_id(case):
    op, params = case
    return "-".join([op, *(f"{v:g}" for v in params.values())])


def golden(tf, image, op, params):
    x = tf.constant(image)
    if op == "brightness":
        return tf.image.adjust_brightness(x, params["value"]).numpy()
    if op == "contrast":
        return tf.image.adjust_contrast(x, params["value"]).numpy()
    if op == "flip":
        return tf.image.flip_left_right(x).numpy()
    size = [params["outHeight"], params["outWidth"]]
    out = tf.image.resize(x, size, method="bilinear", antialias=False)
    return (tf.image.flip_left_right(out) if op == "resize-flip" else out).numpy()


@pytest.fixture(scope="module")
def results(tf, node, tmp_path_factory):
    work = tmp_path_factory.mktemp("image_ops")
    # Decoded pixels are whole numbers 0-255.
    image = np.random.default_rng(5).integers(0, 256, (HEIGHT, WIDTH, 3)).astype(np.float32)
    image.astype("<f4").tofile(work / "image.bin")
    jobs = [
        {"image": str(work / "image.bin"), "height": HEIGHT, "width": WIDTH, "op": op, **params,
         "output": str(work / f"case{i}")}
        for i, (op, params) in enumerate(CASES)
    ]
    answers = node("imageOps", jobs, work)
    out = {}
    for i, (case, paths) in enumerate(zip(CASES, answers)):
        expected = golden(tf, image, *case)
        out[case_id(case)] = (expected, {p: np.fromfile(work / f"case{i}.{p}.bin", dtype="<f4") for p in paths})
    return out


# The ops each path has: the tensor path has no resize, the host path flips only as part of the resize.
OPS = {"tensor": {"flip", "brightness", "contrast"}, "host": {"resize", "resize-flip", "brightness", "contrast"}}
PAIRS = [(case, path) for case in CASES for path in OPS if case[0] in OPS[path]]


@pytest.mark.parametrize("case,path", PAIRS, ids=[f"{case_id(c)}-{p}" for c, p in PAIRS])
def test_image_op_equals_tensorflow(results, case, path):
    expected, paths = results[case_id(case)]
    assert path in paths, f"the lab wrote no {path} result"
    got = paths[path].reshape(expected.shape)
    diff = float(np.abs(got - expected).max())
    assert diff <= TOLERANCE, f"{path} path: max |lab - tf.image| = {diff:.3g}"
