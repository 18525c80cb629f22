"""Every known difference between the lab's models and keras.applications, in one place, with the reason.

The architecture test applies exactly these and nothing else; anything else that differs fails it.
"""

# The lab's layer class -> the Keras class it reproduces.
CLASS_ALIASES = {
    # A tfjs BatchNormalization subclass: tfjs ignores `trainable` and would update the moving statistics
    # of a frozen layer whenever training is true; Keras 2/3 run a frozen BatchNormalization in inference
    # mode. Same weights, same names, same maths; only the registered class name differs.
    "KerasBatchNormalization": "BatchNormalization",
}

# Keras models whose preprocessing the lab can leave out or add, and the layers that makes differ.
# EfficientNet V1: keras.applications always builds Rescaling(1/255) + Normalization (there is no
# include_preprocessing argument); the lab's includePreprocessing=false leaves both out, for callers that
# normalise their pixels themselves. Every other layer, name and shape is the same.
V1_PREPROCESSING_LAYERS = ["rescaling", "normalization"]
# MobileNetV2: Keras expects its caller to apply mobilenet_v2.preprocess_input (x / 127.5 - 1) outside
# the model; the lab's includePreprocessing=true puts that into the model as a weightless Rescaling named
# 'rescaling' right after the input, so Keras weight files still match layer for layer.
MOBILENET_V2_PREPROCESSING_LAYERS = ["rescaling"]

# Not compared: the layout Keras builds for weights='imagenet' (EfficientNet V1 adds a third Rescaling,
# 'rescaling_1', the stddev correction of tensorflow/tensorflow#49930). Building it would download the
# ImageNet weights; the suite never downloads. The lab builds it with imagenetLayout=true.

# (The lab's layer class, its weight's short name) -> the name Keras 3 gives that weight. tfjs follows
# Keras 2, which called a DepthwiseConv2D's kernel 'depthwise_kernel' (as the legacy .h5 files and
# keras.applications downloads still do); Keras 3 calls it 'kernel'. Same tensor, same shape.
WEIGHT_NAME_ALIASES = {
    ("DepthwiseConv2D", "depthwise_kernel"): "kernel",
}

# Training, not structure (reproduced on the Keras side of test_training_step.py, which says why):
# - Adam's epsilon: tfjs adds it after the bias correction, Keras before, so at step t Keras' effective
#   epsilon is eps / sqrt(1 - beta_2^t) (3.2e-6 at step 1), tending to eps. Only gradients below ~1e-5
#   in the first few thousand steps move differently.
# - The frozen phase runs the frozen backbone in inference mode (Keras' base_model(x, training=False));
#   a flat Keras model fitted with frozen layers still applies EfficientNet's stochastic-depth Dropout
#   there, since Keras' Dropout ignores `trainable`.
