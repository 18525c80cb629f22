"""Every architecture the lab builds equals keras.applications: layer names and order, layer classes, output
shapes, weight names, shapes and trainability, and parameter totals, at two sizes including 300x500."""

import pytest

from differences import (
    CLASS_ALIASES,
    MOBILENET_V2_PREPROCESSING_LAYERS,
    V1_PREPROCESSING_LAYERS,
    WEIGHT_NAME_ALIASES,
)

# The lab's ModelId -> (keras.applications function, default size); the lab's own 'tiny' has no Keras twin.
ARCHITECTURES = {
    **{f"b{i}": (f"EfficientNetB{i}", size) for i, size in enumerate([224, 240, 260, 300, 380, 456, 528, 600])},
    **{f"v2-b{i}": (f"EfficientNetV2B{i}", size) for i, size in enumerate([224, 240, 260, 300])},
    "v2-s": ("EfficientNetV2S", 384),
    "v2-m": ("EfficientNetV2M", 480),
    "v2-l": ("EfficientNetV2L", 480),
    "mobilenetv2": ("MobileNetV2", 224),
}
# The small models also get the other two top / preprocessing combinations at 300x500.
SMALL = ["b0", "v2-b0", "mobilenetv2"]


def configs():
    for model, (_, size) in ARCHITECTURES.items():
        yield (model, size, size, True, True)
        yield (model, 300, 500, False, False)
        if model in SMALL:
            yield (model, 300, 500, True, False)
            yield (model, 300, 500, False, True)


CONFIGS = list(configs())


def config_id(config):
    model, height, width, top, prep = config
    return f"{model}-{height}x{width}-top{int(top)}-prep{int(prep)}"


@pytest.fixture(scope="module")
def lab_dumps(node, tmp_path_factory):
    jobs = [
        {"model": m, "height": h, "width": w, "includeTop": top, "includePreprocessing": prep}
        for m, h, w, top, prep in CONFIGS
    ]
    answers = node("dumpArchitecture", jobs, tmp_path_factory.mktemp("architectures"))
    return dict(zip(CONFIGS, answers))


def keras_dump(keras, config):
    """The Keras model's structure, built shape-only: variables are declared but never initialised."""
    model_id, height, width, top, prep = config
    fn = getattr(keras.applications, ARCHITECTURES[model_id][0])
    kwargs = {"weights": None, "include_top": top, "input_shape": (height, width, 3)}
    if model_id.startswith("v2-"):
        kwargs["include_preprocessing"] = prep
    # Keras numbers auto-named layers per session ('rescaling_1' on a second build): start fresh each time.
    keras.backend.clear_session()
    with keras.StatelessScope(initialize_variables=False):
        model = fn(**kwargs)
    layers = [
        {
            "name": layer.name,
            "className": type(layer).__name__,
            "outputShape": list(layer.output.shape),
            "weights": [{"name": w.path, "shape": list(w.shape), "trainable": w.trainable} for w in layer.weights],
        }
        for layer in model.layers
    ]
    trainable = sum(int(_size(w.shape)) for w in model.trainable_weights)
    return {"name": model.name, "layers": layers, "params": model.count_params(), "trainableParams": trainable}


def _size(shape):
    n = 1
    for d in shape:
        n *= d
    return n


def expected_from_keras(dump, config):
    """Keras' structure with the documented preprocessing differences (differences.py) applied."""
    model_id, _, _, _, prep = config
    layers = dump["layers"]
    if model_id.startswith("b") and not prep:
        layers = [layer for layer in layers if layer["name"] not in V1_PREPROCESSING_LAYERS]
    if model_id == "mobilenetv2" and prep:
        input_layer = layers[0]
        rescaling = {"name": MOBILENET_V2_PREPROCESSING_LAYERS[0], "className": "Rescaling",
                     "outputShape": input_layer["outputShape"], "weights": []}
        layers = [input_layer, rescaling, *layers[1:]]
    params = sum(_size(w["shape"]) for layer in layers for w in layer["weights"])
    return {**dump, "layers": layers, "params": params}


def _keras_weight_name(class_name, name):
    layer, short = name.rsplit("/", 1)
    return f"{layer}/{WEIGHT_NAME_ALIASES.get((class_name, short), short)}"


def lab_as_keras(dump):
    """The lab's structure with its documented naming differences (differences.py) mapped to Keras 3's."""
    layers = [
        {
            **layer,
            "className": CLASS_ALIASES.get(layer["className"], layer["className"]),
            "weights": [{**w, "name": _keras_weight_name(layer["className"], w["name"])} for w in layer["weights"]],
        }
        for layer in dump["layers"]
    ]
    return {**dump, "layers": layers}


def first_difference(lab, keras_layers):
    for i, (a, b) in enumerate(zip(lab, keras_layers)):
        if a != b:
            return f"layer {i}: lab {a}\n   keras {b}"
    return f"lab has {len(lab)} layers, keras {len(keras_layers)}"


@pytest.mark.parametrize("config", CONFIGS, ids=[config_id(c) for c in CONFIGS])
def test_architecture_equals_keras(keras, lab_dumps, config):
    expected = expected_from_keras(keras_dump(keras, config), config)
    lab = lab_as_keras(lab_dumps[config])
    assert lab["name"] == expected["name"]
    assert lab["layers"] == expected["layers"], first_difference(lab["layers"], expected["layers"])
    assert lab["params"] == expected["params"]
    assert lab["trainableParams"] == expected["trainableParams"]
