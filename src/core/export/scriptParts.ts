// The data, model, memory log and training sections of the Keras script (core/export/kerasScript assembles them).
import { augmentIsOff } from '../data/augment';
import { catalogEntry } from '../model/models';
import { kerasApplication, py, pyList, pyNum, type KerasScriptInput } from './scriptBasics';
import { trainableLabel } from '../settings/trainable';

function folderData(): string {
  return `# The seed's trap: model.fit(batch_size=...) is ignored when x is a tf.data.Dataset, because a dataset
# is already batched (the seed passed batch_size=1 to fit and still trained batches of 28). So the images
# come unbatched (batch_size=None) and the batch is set below, on the dataset itself.
# One call with subset="both" and a fixed seed keeps training and validation apart: two calls with
# different seeds would shuffle differently and overlap. (Keras splits the whole file list; the lab
# holds out the same share of each class, so the two splits differ slightly.)
train_images, val_images = keras.utils.image_dataset_from_directory(
    args.data, labels="inferred", label_mode="int", class_names=CLASS_NAMES,
    image_size=IMAGE_SIZE, interpolation="bilinear", batch_size=None,
    shuffle=True, seed=SEED, validation_split=VALIDATION_SPLIT, subset="both")`;
}

function manifestData(): string {
  return `import csv
import random


# The lab's manifest columns: the first header naming a path and the first naming a label (any case).
PATH_COLUMNS = ("path", "filename", "file", "filepath", "file_path", "image", "image_path")
LABEL_COLUMNS = ("label", "class", "category")


def read_manifest(path):
    """(path, label) of every row whose label is a known class; paths are relative to the manifest's folder."""
    root = os.path.dirname(os.path.abspath(path))
    with open(path, newline="", encoding="utf-8-sig") as f:
        rows = [row for row in csv.reader(f) if any(cell.strip() for cell in row)]
    header = [name.strip().lower() for name in rows[0]]
    path_at = next(i for i, name in enumerate(header) if name in PATH_COLUMNS)
    label_at = next(i for i, name in enumerate(header) if name in LABEL_COLUMNS)
    samples = [(os.path.join(root, row[path_at].strip()), row[label_at].strip()) for row in rows[1:]]
    known = [(p, CLASS_NAMES.index(label)) for p, label in samples if label in CLASS_NAMES]
    if len(known) < len(samples):
        print(f"{len(samples) - len(known)} manifest row(s) with a label outside CLASS_NAMES left out")
    return known


def split_per_class(samples):
    """Hold out VALIDATION_SPLIT of each class with the run's seed, as the lab does."""
    rng = random.Random(SEED)
    train, val = [], []
    for label in range(len(CLASS_NAMES)):
        mine = [s for s in samples if s[1] == label]
        rng.shuffle(mine)
        held = round(len(mine) * VALIDATION_SPLIT)
        val += mine[:held]
        train += mine[held:]
    return train, val


def load(path, label):
    image = tf.io.decode_image(tf.io.read_file(path), channels=3, expand_animations=False)
    # tf.image.resize is bilinear with half-pixel centres, the lab's resize; pixels stay float32 in [0, 255].
    return tf.image.resize(image, IMAGE_SIZE), label


def images(samples):
    paths, labels = zip(*samples)
    return tf.data.Dataset.from_tensor_slices((list(paths), list(labels))).map(load, num_parallel_calls=AUTOTUNE)


train_samples, val_samples = split_per_class(read_manifest(args.data))
# The seed's trap: model.fit(batch_size=...) is ignored for a tf.data.Dataset, so the batch is set
# below, on the dataset itself.
train_images = images(train_samples).shuffle(len(train_samples), seed=SEED)
val_images = images(val_samples)`;
}

function augmentBody(input: KerasScriptInput): string[] {
  const a = input.config.augment;
  const ops: string[] = [];
  if (a.flip) ops.push('    image = tf.image.random_flip_left_right(image)');
  if (a.brightnessMaxDelta > 0)
    ops.push(`    image = tf.image.random_brightness(image, max_delta=${pyNum(a.brightnessMaxDelta)})`);
  if (a.contrastRange[0] !== 1 || a.contrastRange[1] !== 1)
    ops.push(
      `    image = tf.image.random_contrast(image, ${pyNum(a.contrastRange[0])}, ${pyNum(a.contrastRange[1])})`,
    );
  return ops;
}

/** Class names, sizes, the dataset (folders or manifest), augmentation and batching. */
export function dataSection(input: KerasScriptInput): string {
  const { config } = input;
  const augmented = !augmentIsOff(config.augment);
  const augment = augmented
    ? `


def augment(image, label):
    """Training images only, as in the lab: on 0-255 pixels, no clipping (tf.image's own behaviour)."""
${augmentBody(input).join('\n')}
    return image, label


# Augmentation runs in the tf.data pipeline on the CPU, off the accelerator.
train_images = train_images.map(augment, num_parallel_calls=AUTOTUNE)`
    : '';
  return `AUTOTUNE = tf.data.AUTOTUNE
SEED = ${config.seed}
# The lab's label order: label i is CLASS_NAMES[i].
CLASS_NAMES = ${pyList(input.classNames)}
IMAGE_SIZE = (${config.height}, ${config.width})
VALIDATION_SPLIT = ${pyNum(config.validationFraction)}

${input.data.kind === 'manifest' ? manifestData() : folderData()}${augment}

if REPLICAS > 1 and 0 < int(val_images.cardinality()) < GLOBAL_BATCH:
    # Keras 3 (3.15) builds its metrics from the first validation batch averaged across replicas, and
    # fails ("Inputs to operation AddN must have the same size and shape") when that batch cannot be
    # split evenly: fewer validation images than one global batch. Said here, not deep in fit().
    raise SystemExit(f"{int(val_images.cardinality())} validation image(s) is less than one global batch "
                     f"({GLOBAL_BATCH}): use more images, a larger validation split or a smaller --batch")
train_ds = train_images.batch(GLOBAL_BATCH).prefetch(${config.prefetch})
val_ds = val_images.batch(GLOBAL_BATCH).prefetch(${config.prefetch})
if args.strategy == "multiworker":
    # The file list is one in-memory tensor, so shard by element: each worker reads its share.
    sharding = tf.data.Options()
    sharding.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.DATA
    train_ds = train_ds.with_options(sharding)
    val_ds = val_ds.with_options(sharding)`;
}

function backboneCall(input: KerasScriptInput): string {
  const { config } = input;
  const app = kerasApplication(config.model);
  const args = [
    'include_top=False',
    'weights=weights',
    `input_shape=(${config.height}, ${config.width}, 3)`,
    ...(app.preprocessing === 'argument' ? ['include_preprocessing=True'] : []),
  ];
  const why =
    app.preprocessing === 'argument'
      ? '    # include_preprocessing=True: the model takes pixels in [0, 255], as the lab feeds them.'
      : app.preprocessing === 'built-in'
        ? '    # EfficientNet (V1) always builds its Rescaling and Normalization in: it takes pixels in [0, 255].'
        : '    # MobileNetV2 expects [-1, 1]: the Rescaling layer below is mobilenet_v2.preprocess_input.';
  return `${why}\n    base = keras.applications.${app.fn}(${args.join(', ')})`;
}

/** The keras.applications backbone and the lab's head (ml/models/head.ts), one model. */
export function modelSection(input: KerasScriptInput): string {
  const { config } = input;
  const app = kerasApplication(config.model);
  const mixed = input.remedies.mixedPrecision;
  const rescale =
    app.preprocessing === 'rescaling'
      ? '\n    x = layers.Rescaling(1 / 127.5, offset=-1, name="preprocess")(x)'
      : '';
  const outputComment = mixed
    ? '\n    # float32 output: a float16 softmax loses small probabilities, so the last layer stays float32.'
    : '';
  return `def build_model(weights):
    """${catalogEntry(config.model).displayName}'s backbone (include_top=False) and the lab's head."""
${backboneCall(input)}
    inputs = keras.Input(shape=(${config.height}, ${config.width}, 3), name="input_layer")
    x = inputs${rescale}
    # With ImageNet weights, training=False keeps BatchNorm in inference mode (moving statistics, not
    # updated) even when phase 2 unfreezes it: small fine-tune batches would otherwise wreck the
    # pretrained statistics. From random weights there are no statistics to keep: BatchNorm must use
    # batch statistics while training and learn its moving ones, so the call follows fit (training=None).
    x = base(x, training=False if weights == "imagenet" else None)
    # The head of the lab (and of the seed): pool, dropout, Dense(128, relu), dropout, softmax.
    x = layers.GlobalAveragePooling2D(name="avg_pool")(x)
    x = layers.Dropout(0.2, name="head_dropout_1")(x)
    x = layers.Dense(128, activation="relu", name="head_dense")(x)
    x = layers.Dropout(0.2, name="head_dropout_2")(x)${outputComment}
    outputs = layers.Dense(len(CLASS_NAMES), activation="softmax", name="predictions"${mixed ? ', dtype="float32"' : ''})(x)
    return keras.Model(inputs, outputs, name=${py(`${app.fn.toLowerCase()}_classifier`)}), base`;
}

/** A Keras callback that prints each epoch's GPU:0 peak next to the lab's prediction. */
export function memoryCallbackSection(input: KerasScriptInput): string {
  const p = input.prediction;
  const value = (bytes: number | null) => (bytes === null ? 'None' : String(Math.round(bytes)));
  return `# The lab's per-replica peak prediction in bytes (None: not planned for that phase).
PREDICTED = {"frozen": ${value(p.frozen)}, "fine-tune": ${value(p.fineTune)}}


class MemoryLog(keras.callbacks.Callback):
    """After every epoch: the peak of GPU:0 since the epoch began, next to the lab's prediction."""

    def __init__(self, phase):
        super().__init__()
        self.phase = phase

    def on_epoch_begin(self, epoch, logs=None):
        if GPUS:
            tf.config.experimental.reset_memory_stats("GPU:0")

    def on_epoch_end(self, epoch, logs=None):
        predicted = PREDICTED[self.phase]
        peak = tf.config.experimental.get_memory_info("GPU:0")["peak"] if GPUS else None
        words = f"[memory] {self.phase} epoch {epoch + 1}: "
        words += "no GPU, nothing measured" if peak is None else f"GPU:0 peak {peak / 1e6:.1f} MB measured"
        if predicted is not None:
            words += f"; the lab predicted {predicted / 1e6:.1f} MB per replica"
            if peak is not None:
                words += f" ({(peak - predicted) / predicted:+.0%})"
        print(words)
        if args.memory_log:
            with open(args.memory_log, "a", encoding="utf-8") as f:
                record = {"phase": self.phase, "epoch": epoch + 1, "peak": peak, "predicted": predicted}
                f.write(json.dumps(record) + "\\n")`;
}

function optimizer(input: KerasScriptInput, lr: number): string {
  const accumulate =
    input.config.techniques.accumulationSteps > 1
      ? ', gradient_accumulation_steps=ACCUMULATION if ACCUMULATION > 1 else None'
      : '';
  return `keras.optimizers.Adam(learning_rate=${pyNum(lr)}${accumulate})`;
}

/** Phase 1 frozen, phase 2 with the chosen layers, both inside the strategy's scope. */
export function trainingSection(input: KerasScriptInput): string {
  const { config } = input;
  const epochs = (n: number) => `args.epochs if args.epochs is not None else ${n}`;
  return `def compile_for(model, optimizer):
    model.compile(optimizer=optimizer, loss="sparse_categorical_crossentropy", metrics=["accuracy"])


def fit(model, epochs, phase):
    trainable = sum(math.prod(w.shape) for w in model.trainable_weights)
    print(f"[phase] {phase}: {trainable} trainable parameters in {len(model.trainable_weights)} weights")
    early = keras.callbacks.EarlyStopping(monitor="val_loss", patience=${config.patience})
    return model.fit(train_ds, validation_data=val_ds, epochs=epochs, steps_per_epoch=args.steps_per_epoch,
                     callbacks=[early, MemoryLog(phase)], verbose=2)


# Backbone layers phase 2 unfreezes (${trainableLabel(config.fineTune)}: ${input.unfrozen.length}), by name; the head always trains.
UNFROZEN = ${pyList(input.unfrozen)}

# Variables belong to the strategy that creates them: build and compile inside its scope.
with strategy.scope():
    model, base = build_model(None if args.weights == "none" else "imagenet")
    missing = sorted(set(UNFROZEN) - {layer.name for layer in base.layers})
    if missing:
        raise SystemExit(f"{len(missing)} unfrozen layer(s) not in {base.name}: {missing[:5]}")
    # Phase 1: the backbone frozen, the head learns.
    base.trainable = False
    compile_for(model, ${optimizer(input, config.frozenLearningRate)})
model.summary(line_length=100, show_trainable=True)
fit(model, ${epochs(config.frozenEpochs)}, "frozen")

${config.fineTuneEpochs > 0 ? fineTunePhase(input) : "# The lab's plan has no fine-tune phase (0 epochs), so the script ends after phase 1."}


${saveSection()}`;
}

function saveSection(): string {
  return `def save_path():
    """The chief (or the only process) saves at --save. Under multiworker every worker must call save,
    as tf.distribute asks, so the others write to a scratch folder that is thrown away."""
    resolver = strategy.cluster_resolver if args.strategy == "multiworker" else None
    if resolver is None or resolver.task_id == 0:
        return args.save
    return os.path.join(tempfile.mkdtemp(), os.path.basename(args.save))


if args.save != "none":
    # The .keras archive holds the architecture and the weights: keras.models.load_model(path) reads it back.
    saved = save_path()
    model.save(saved)
    print(f"saved the trained model to {saved}")`;
}

function fineTunePhase(input: KerasScriptInput): string {
  const { config } = input;
  return `FINE_TUNE_EPOCHS = args.epochs if args.epochs is not None else ${config.fineTuneEpochs}
with strategy.scope():
    # Phase 2: exactly the chosen layers train; with ImageNet weights BatchNorm among them stays in
    # inference mode (build_model calls the base with training=False for them).
    base.trainable = True
    for layer in base.layers:
        layer.trainable = layer.name in UNFROZEN
    # Recompile: the trainable weights are collected at compile time, and the lower learning rate
    # keeps the pretrained features from being overwritten.
    compile_for(model, ${optimizer(input, config.fineTuneLearningRate)})
fit(model, FINE_TUNE_EPOCHS, "fine-tune")`;
}
