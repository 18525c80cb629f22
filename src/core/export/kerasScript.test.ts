import { describe, expect, it } from 'vitest';
import { NO_AUGMENT } from '../data/augment';
import {
  kerasApplication,
  kerasScript,
  kerasScriptInputFor,
  remedyWords,
  type KerasScriptInput,
} from './kerasScript';
import type { LayerSpec, ModelSpec } from '../model/modelSpec';
import { planInput, planKeras } from '../planner/planner';
import { DEFAULT_TRAIN_CONFIG } from '../settings/settings';

const seedCase = (over: Partial<KerasScriptInput> = {}): KerasScriptInput => ({
  config: {
    ...DEFAULT_TRAIN_CONFIG,
    model: 'v2-l',
    weights: 'file',
    height: 300,
    width: 500,
    batchSize: 28,
    frozenEpochs: 10,
    fineTuneEpochs: 5,
    frozenLearningRate: 1e-3,
    fineTuneLearningRate: 1e-4,
    fineTune: { kind: 'from-block', block: 'block7a' },
    patience: 2,
  },
  classNames: ['buildings', 'forest', 'glacier', 'mountain', 'sea', 'street'],
  unfrozen: ['block7a_expand_conv', 'block7a_expand_bn', 'top_conv', 'top_bn', 'top_activation'],
  data: { kind: 'folders' },
  remedies: { mixedPrecision: false, memoryGrowth: false },
  prediction: { frozen: 2_500_000_000, fineTune: 31_400_000_000, card: 'a 16 GB card' },
  ...over,
});

describe('kerasApplication', () => {
  it('names the keras.applications function and how pixels reach it', () => {
    expect(kerasApplication('v2-l')).toEqual({
      fn: 'EfficientNetV2L',
      preprocessing: 'argument',
      standIn: null,
    });
    expect(kerasApplication('v2-b0').fn).toBe('EfficientNetV2B0');
    expect(kerasApplication('b3')).toEqual({
      fn: 'EfficientNetB3',
      preprocessing: 'built-in',
      standIn: null,
    });
    expect(kerasApplication('mobilenetv2').preprocessing).toBe('rescaling');
    expect(kerasApplication('tiny').fn).toBe('EfficientNetB0');
    expect(kerasApplication('tiny').standIn).toMatch(/no/);
  });
});

describe('kerasScript', () => {
  it("builds the seed's model: same call, same head, float32 only by default", () => {
    const s = kerasScript(seedCase());
    expect(s).toContain(
      'keras.applications.EfficientNetV2L(include_top=False, weights=weights, input_shape=(300, 500, 3), include_preprocessing=True)',
    );
    expect(s).toContain('x = base(x, training=False if weights == "imagenet" else None)');
    for (const line of [
      'layers.GlobalAveragePooling2D(name="avg_pool")',
      'layers.Dropout(0.2, name="head_dropout_1")',
      'layers.Dense(128, activation="relu", name="head_dense")',
      'layers.Dropout(0.2, name="head_dropout_2")',
      'activation="softmax", name="predictions")(x)',
    ])
      expect(s).toContain(line);
    expect(s).not.toContain('mixed_float16');
    expect(s).not.toContain('gradient_accumulation_steps=');
  });

  it('batches the dataset, not fit(), and explains the trap', () => {
    const s = kerasScript(seedCase());
    expect(s).toContain('batch_size=None');
    expect(s).toContain('train_ds = train_images.batch(GLOBAL_BATCH)');
    expect(s).toMatch(/model\.fit\(batch_size=\.\.\.\) is ignored/);
    const fitCall = s.slice(s.indexOf('return model.fit('), s.indexOf('verbose=2)'));
    expect(fitCall).toContain('train_ds');
    expect(fitCall).not.toContain('batch_size');
    expect(s).toContain('subset="both"');
    expect(s).toContain('IMAGE_SIZE = (300, 500)');
  });

  it('repeats the augmentation that is on, and only that', () => {
    const on = kerasScript(seedCase());
    expect(on).toContain('tf.image.random_flip_left_right(image)');
    expect(on).toContain('tf.image.random_brightness(image, max_delta=0.5)');
    expect(on).toContain('tf.image.random_contrast(image, 0.5, 1.5)');
    const base = seedCase();
    const off = kerasScript({ ...base, config: { ...base.config, augment: NO_AUGMENT } });
    expect(off).not.toContain('def augment');
    const flipOnly = kerasScript({
      ...base,
      config: { ...base.config, augment: { ...NO_AUGMENT, flip: true } },
    });
    expect(flipOnly).toContain('random_flip_left_right');
    expect(flipOnly).not.toContain('random_brightness');
  });

  it('unfreezes exactly the chosen layers by name, recompiles at the fine-tune rate, stops early as set', () => {
    const s = kerasScript(seedCase());
    const unfrozen = s.slice(s.indexOf('UNFROZEN = ['), s.indexOf(']', s.indexOf('UNFROZEN = [')) + 1);
    expect(unfrozen.match(/"[^"]+"/g)).toEqual(seedCase().unfrozen.map((n) => `"${n}"`));
    expect(s).toContain('layer.trainable = layer.name in UNFROZEN');
    const phase1 = s.indexOf('base.trainable = False');
    const phase2 = s.indexOf('base.trainable = True');
    expect(phase1).toBeGreaterThan(0);
    expect(phase2).toBeGreaterThan(phase1);
    expect(s.indexOf('Adam(learning_rate=0.001)')).toBeGreaterThan(phase1);
    expect(s.indexOf('Adam(learning_rate=0.0001)')).toBeGreaterThan(phase2);
    expect(s).toContain('EarlyStopping(monitor="val_loss", patience=2)');
    expect(s).toContain('else 10, "frozen")');
    expect(s).toContain('else 5\n');
  });

  it('leaves phase 2 out when the plan has no fine-tune epochs', () => {
    const base = seedCase();
    const s = kerasScript({ ...base, config: { ...base.config, fineTuneEpochs: 0 } });
    expect(s).not.toContain('base.trainable = True');
    expect(s).toContain('no fine-tune phase');
  });

  it('writes every chosen remedy: mixed precision with a float32 output, accumulation, a memory limit', () => {
    const base = seedCase();
    const input: KerasScriptInput = {
      ...base,
      config: {
        ...base.config,
        budgetBytes: 8 * 2 ** 30,
        techniques: { ...base.config.techniques, accumulationSteps: 4 },
      },
      remedies: { mixedPrecision: true, memoryGrowth: true },
    };
    const s = kerasScript(input);
    expect(s).toContain('keras.mixed_precision.set_global_policy("mixed_float16")');
    expect(s).toContain('name="predictions", dtype="float32")');
    expect(s).toContain('ACCUMULATION = 4');
    expect(s).toContain(
      'Adam(learning_rate=0.0001, gradient_accumulation_steps=ACCUMULATION if ACCUMULATION > 1 else None)',
    );
    // Keras 3 cannot accumulate under tf.distribute; the script keeps the micro-batch there instead.
    expect(s).toContain('if ACCUMULATION > 1 and args.strategy != "none":');
    expect(s).toContain('LogicalDeviceConfiguration(memory_limit=8192)');
    // TensorFlow refuses memory growth on a device with a logical configuration.
    expect(s).not.toContain('set_memory_growth');
    expect(remedyWords(input)).toEqual([
      'mixed_float16',
      'gradient_accumulation_steps=4',
      'memory_limit=8192 MiB',
    ]);
    const growth = kerasScript({ ...base, remedies: { mixedPrecision: false, memoryGrowth: true } });
    expect(growth).toContain('tf.config.experimental.set_memory_growth(gpu, True)');
    expect(growth).not.toContain('memory_limit=');
  });

  it('scales out with tf.distribute: the model inside strategy.scope(), global batch = per replica × replicas', () => {
    const s = kerasScript(seedCase());
    expect(s).toContain('choices=["none", "mirrored", "multiworker"]');
    expect(s).toContain('tf.distribute.MirroredStrategy(cpus)');
    expect(s).toContain('tf.distribute.MultiWorkerMirroredStrategy()');
    expect(s).toContain('TF_CONFIG');
    expect(s).toContain('GLOBAL_BATCH = MICRO_BATCH * REPLICAS');
    const scope = s.indexOf('with strategy.scope():');
    expect(scope).toBeGreaterThan(0);
    expect(s.indexOf('model, base = build_model(')).toBeGreaterThan(scope);
    expect(s.indexOf('strategy = make_strategy(')).toBeGreaterThan(s.indexOf('GPUS = '));
  });

  it("prints the lab's per-replica prediction and logs the measured peak next to it", () => {
    const s = kerasScript(seedCase());
    expect(s).toContain('phase 1 2.50 GB, phase 2 31.4 GB');
    expect(s).toContain('for a 16 GB card');
    expect(s).toContain('PREDICTED = {"frozen": 2500000000, "fine-tune": 31400000000}');
    expect(s).toContain('tf.config.experimental.get_memory_info("GPU:0")["peak"]');
    expect(s).toContain('tf.config.experimental.reset_memory_stats("GPU:0")');
    const none = kerasScript(seedCase({ prediction: { frozen: null, fineTune: null, card: null } }));
    expect(none).toContain('PREDICTED = {"frozen": None, "fine-tune": None}');
  });

  it('has the flags a quick run needs, with the lab values as defaults', () => {
    const s = kerasScript(seedCase());
    for (const flag of ['--data', '--epochs', '--weights', '--steps-per-epoch', '--strategy', '--batch'])
      expect(s).toContain(`parser.add_argument("${flag}"`);
    expect(s).toContain('choices=["imagenet", "none"], default="imagenet"');
    const random = seedCase();
    const r = kerasScript({ ...random, config: { ...random.config, weights: 'random' } });
    expect(r).toContain('choices=["imagenet", "none"], default="none"');
  });

  it('saves the trained model as .keras, the chief only under multiworker, unless --save none', () => {
    const s = kerasScript(seedCase());
    expect(s).toContain('parser.add_argument("--save", default="efficientnetv2l_classifier.keras"');
    expect(s).toContain('if args.save != "none":');
    expect(s).toContain('model.save(saved)');
    expect(s).toContain('if resolver is None or resolver.task_id == 0:');
    expect(s.indexOf('model.save(saved)')).toBeGreaterThan(s.indexOf('fit(model, FINE_TUNE_EPOCHS'));
    const frozenOnly = kerasScript({ ...seedCase(), config: { ...seedCase().config, fineTuneEpochs: 0 } });
    expect(frozenOnly).toContain('model.save(saved)');
  });

  it("prints each phase's trainable parameters, the count a run can be checked against", () => {
    const s = kerasScript(seedCase());
    expect(s).toContain('trainable = sum(math.prod(w.shape) for w in model.trainable_weights)');
    expect(s).toContain('print(f"[phase] {phase}: {trainable} trainable parameters');
  });

  it('can split a GPU-less machine into logical CPUs, so mirrored runs real replicas anywhere', () => {
    const s = kerasScript(seedCase());
    expect(s).toContain('parser.add_argument("--cpu-devices", type=int, default=1');
    expect(s).toContain('CPU_REPLICAS = args.cpu_devices if args.cpu_devices > 1 and not GPUS else 1');
    expect(s).toContain('[tf.config.LogicalDeviceConfiguration()] * CPU_REPLICAS');
    expect(s).toContain('tf.distribute.MirroredStrategy(cpus)');
    // Logical devices must exist before the strategy is made.
    expect(s.indexOf('CPU_REPLICAS = ')).toBeLessThan(s.indexOf('strategy = make_strategy('));
  });

  it('stops with a clear message when the validation split is under one global batch of replicas', () => {
    const s = kerasScript(seedCase());
    const guard = s.indexOf('if REPLICAS > 1 and 0 < int(val_images.cardinality()) < GLOBAL_BATCH:');
    expect(guard).toBeGreaterThan(0);
    expect(guard).toBeLessThan(s.indexOf('val_ds = val_images.batch(GLOBAL_BATCH)'));
    expect(s).toContain('AddN must have the same size and shape');
  });

  it('reads a CSV manifest with from_tensor_slices and splits each class like the lab', () => {
    const s = kerasScript(seedCase({ data: { kind: 'manifest', file: 'photos.csv' } }));
    expect(s).toContain('parser.add_argument("--data", default="photos.csv"');
    expect(s).toContain('tf.data.Dataset.from_tensor_slices(');
    expect(s).toContain('def split_per_class(samples):');
    expect(s).not.toContain('image_dataset_from_directory(');
  });

  it('rescales for MobileNetV2 and passes no include_preprocessing to EfficientNet V1', () => {
    const base = seedCase();
    const m = kerasScript({
      ...base,
      config: { ...base.config, model: 'mobilenetv2', height: 224, width: 224 },
    });
    expect(m).toContain('layers.Rescaling(1 / 127.5, offset=-1, name="preprocess")');
    expect(m).not.toContain('include_preprocessing');
    const b0 = kerasScript({ ...base, config: { ...base.config, model: 'b0' } });
    expect(b0).toContain('keras.applications.EfficientNetB0(');
    expect(b0).not.toContain('include_preprocessing=True');
  });

  it('quotes names safely', () => {
    const s = kerasScript(seedCase({ classNames: ['say "hi"', 'back\\slash'] }));
    expect(s).toContain('"say \\"hi\\"", "back\\\\slash"');
  });
});

describe('kerasScriptInputFor', () => {
  const layer = (name: string, kind: LayerSpec['kind'] = 'conv2d'): LayerSpec => ({
    name,
    className: 'Conv2D',
    kind,
    outputShape: [8, 8, 16],
    inputs: [],
    inputShapes: [[8, 8, 16]],
    trainableWeightSizes: [64],
    fixedWeightSizes: [],
    macs: 0,
  });
  const names = ['input_layer', 'stem_conv', 'block1a_project_conv', 'top_conv', 'avg_pool', 'predictions'];
  const spec: ModelSpec = {
    name: 'toy',
    height: 8,
    width: 8,
    layers: names.map((n) => layer(n, n === 'input_layer' ? 'input' : 'conv2d')),
    backboneLayerCount: 4,
  } as ModelSpec;
  const config = {
    ...DEFAULT_TRAIN_CONFIG,
    batchSize: 8,
    fineTune: { kind: 'last' as const, n: 2 },
    techniques: { ...DEFAULT_TRAIN_CONFIG.techniques, accumulationSteps: 2 },
    budgetBytes: 4e9,
  };
  const source = {
    config,
    spec,
    classNames: ['a', 'b'],
    manifest: null,
    remedies: { mixedPrecision: true, memoryGrowth: false },
  };

  it('resolves the unfrozen layers and predicts one micro-batch in the chosen precision', () => {
    const input = kerasScriptInputFor(source);
    expect(input.unfrozen).toEqual(['block1a_project_conv', 'top_conv']);
    const micro = { ...planInput(spec, config, 'fine-tune'), batch: 4, accumulationSteps: 1 };
    expect(input.prediction.fineTune).toBe(planKeras(micro, 'mixed_float16').peakBytes);
    expect(input.prediction.fineTune).not.toBe(planKeras({ ...micro, batch: 8 }, 'mixed_float16').peakBytes);
    expect(input.prediction.card).toBe('a 4.00 GB card');
    expect(input.data).toEqual({ kind: 'folders' });
  });

  it('reads a manifest source and predicts nothing for a phase with no epochs', () => {
    const input = kerasScriptInputFor({
      ...source,
      manifest: 'labels.csv',
      config: { ...config, fineTuneEpochs: 0 },
    });
    expect(input.data).toEqual({ kind: 'manifest', file: 'labels.csv' });
    expect(input.prediction.fineTune).toBeNull();
    expect(input.prediction.frozen).toBeGreaterThan(0);
  });
});
