/**
 * The lab's settings, defined once: every field of TrainConfig with its range and the message a person
 * reads when a value is wrong. The settings form's problems (core/settings/settings), the saved settings
 * (store/store) and a link's values (core/settings/url) all go through this schema, so they cannot
 * disagree about what a valid setting is.
 *
 * To add a setting, add its field here (the `satisfies` below fails until TrainConfig and the schema
 * agree) and, for links, its codec in core/settings/url.ts; a new on/off technique only needs its field in
 * `techniqueFields` and a word in urlSettings' TECHNIQUE_FLAGS.
 */
import { z } from 'zod';
import { BACKEND_ORDER } from '../device/backend';
import { augmentSchema } from '../data/augment';
import { catalogEntry, MODEL_CATALOG, packagedModel, type ModelId } from '../model/models';
import { flag, messages, numberBetween, oneOf, shown, wholeNumber } from '../schemaFields';
import { trainableSetSchema } from './trainable';
import type { TrainConfig } from './trainConfig';
import { append } from '../extent';

const MODEL_IDS = MODEL_CATALOG.map((m) => m.id) as [ModelId, ...ModelId[]];

/** Each whole-number setting's name and range: the schema's, and the settings form's min and max. */
export const WHOLE_RANGES = {
  height: { label: 'Input height', min: 8, max: 2048 },
  width: { label: 'Input width', min: 8, max: 2048 },
  batchSize: { label: 'Batch size', min: 1, max: 1024 },
  frozenEpochs: { label: 'Frozen epochs', min: 0, max: 1000 },
  fineTuneEpochs: { label: 'Fine-tune epochs', min: 0, max: 1000 },
  patience: { label: 'Patience', min: 1, max: 1000 },
  prefetch: { label: 'Prefetch', min: 0, max: 16 },
  accumulationSteps: { label: 'Accumulation steps', min: 1, max: 64 },
} as const;

const whole = (key: keyof typeof WHOLE_RANGES) => {
  const { label, min, max } = WHOLE_RANGES[key];
  return wholeNumber(label, min, max);
};

/** The memory-saving techniques, one field each. */
export const techniqueFields = {
  backboneOutsideTape: flag('Backbone outside the tape'),
  accumulationSteps: whole('accumulationSteps'),
  checkpointing: oneOf('Checkpointing', ['off', 'blocks']),
  cacheFeatures: flag('Feature cache'),
  float16Storage: flag('Float16 storage'),
  leanBackward: flag('Lean backward'),
};

/** The simulated card's range: 1 MB to 1 TB (the largest single accelerators hold under 0.2 TB). */
export const CARD_MIN_BYTES = 1e6;
export const CARD_MAX_BYTES = 1e12;
const budgetError = (iss: { input?: unknown }) =>
  `The simulated card must hold from 1 MB to 1 TB (got ${cardText(iss.input)}); choose a card such as 16 GB or 80 GB, or no card.`;

/** A card size as a person reads it: MB below a GB, else GB; anything else as written. */
function cardText(v: unknown): string {
  if (typeof v !== 'number' || !Number.isFinite(v)) return String(v);
  return v < 1e9 ? `${v / 1e6} MB` : `${v / 1e9} GB`;
}

/** Every setting of a run, in the order their problems are listed. */
export const trainConfigSchema = z.object({
  height: whole('height'),
  width: whole('width'),
  batchSize: whole('batchSize'),
  frozenEpochs: whole('frozenEpochs'),
  fineTuneEpochs: whole('fineTuneEpochs'),
  patience: whole('patience'),
  prefetch: whole('prefetch'),
  frozenLearningRate: numberBetween('Frozen learning rate', 0, 10),
  fineTuneLearningRate: numberBetween('Fine-tune learning rate', 0, 10),
  validationFraction: numberBetween('Validation share', 0, 1, '; EarlyStopping needs val_loss'),
  model: z.enum(MODEL_IDS, {
    error: (iss) => `Unknown model ${shown(iss.input)}; choose one from the list.`,
  }),
  weights: oneOf('Weights', ['random', 'nsfwjs', 'lite0', 'file', 'graph']),
  seed: z.number({ error: seedError }).refine((v) => Number.isInteger(v), { error: seedError }),
  budgetBytes: z
    .number({ error: budgetError })
    .refine((v) => v >= CARD_MIN_BYTES && v <= CARD_MAX_BYTES, { error: budgetError })
    .nullable(),
  preciseProfile: flag('Precise profiling'),
  augmentOn: oneOf('Augmentation device', ['gpu', 'cpu']),
  techniques: z.object(techniqueFields),
  precision: z.object({
    webglF16Textures: flag('WebGL float16 textures'),
    lossScaling: oneOf('Loss scaling', ['off', 'dynamic']),
  }),
  fineTune: trainableSetSchema,
  augment: augmentSchema,
}) satisfies z.ZodType<TrainConfig>;

function seedError(iss: { input?: unknown }): string {
  return `Seed must be a whole number (got ${String(iss.input)}).`;
}

/** The backend a person asks for, as a link or the saved settings carry it. */
export const backendRequestSchema = oneOf('Backend', ['auto', ...BACKEND_ORDER]);

/** Rules between settings, each checked on the whole configuration; null when it holds. */
const CROSS_FIELD_RULES: ((c: TrainConfig) => string | null)[] = [
  (c) => {
    const fits = packagedModel(c.weights);
    if (fits === null || c.model === fits) return null;
    const name = catalogEntry(fits).displayName;
    return `The packaged pretrained weights are ${/^[AEIOU]/.test(name) ? 'an' : 'a'} ${name}: choose ${name}, or other weights.`;
  },
  (c) =>
    // With a graph model the preset is not built: the size is the graph's own.
    c.model === 'mobilenetv2' && c.weights !== 'graph' && (c.height < 32 || c.width < 32)
      ? `MobileNetV2 needs at least 32×32 pixels (got ${c.height}×${c.width}).`
      : null,
  ({ techniques: { accumulationSteps: k }, batchSize }) =>
    Number.isInteger(k) && k >= 1 && k <= 64 && batchSize >= 1 && k > batchSize
      ? `Accumulation steps (${k}) cannot exceed the batch size (${batchSize}): each micro-batch needs an image.`
      : null,
  (c) => (c.frozenEpochs + c.fineTuneEpochs === 0 ? 'Set at least one epoch in either phase.' : null),
  (c) =>
    c.weights === 'graph' && (c.fineTuneEpochs > 0 || c.frozenEpochs === 0)
      ? 'A graph model trains the frozen phase only: set fine-tune epochs to 0 and at least one frozen epoch.'
      : null,
  (c) =>
    c.preciseProfile && c.budgetBytes !== null
      ? 'Precise profiling cannot run with a simulated card: tf.profile hides the error the card raises inside a kernel. Turn one of them off.'
      : null,
];

/** Problems with a configuration: each bad field named with why, then the rules between fields. */
export function configProblems(c: TrainConfig): string[] {
  return [...messages(trainConfigSchema.safeParse(c)), ...CROSS_FIELD_RULES.flatMap((rule) => rule(c) ?? [])];
}

type Shape = Record<string, z.ZodType>;
const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * `fallback` with every field of `value` that the schema accepts, field by field (nested objects too),
 * and the problems of those it refused. Saved settings from an older version, or a link's values, can
 * hold some bad or missing fields: those keep the fallback's value instead of spoiling the rest.
 */
export function mergeValid(
  value: unknown,
  fallback: TrainConfig,
): { config: TrainConfig; problems: string[] } {
  const problems: string[] = [];
  const config = mergeShape(trainConfigSchema.shape, value, fallback, problems);
  return { config, problems };
}

function mergeShape<T extends object>(shape: Shape, value: unknown, fallback: T, problems: string[]): T {
  const out = { ...fallback };
  if (!isRecord(value)) return out;
  const fields = out as Record<string, unknown>;
  for (const [key, field] of Object.entries(shape)) {
    if (!(key in value)) continue;
    const base = fields[key];
    if (field instanceof z.ZodObject && isRecord(base)) {
      fields[key] = mergeShape(field.shape as Shape, value[key], base, problems);
      continue;
    }
    const parsed = field.safeParse(value[key]);
    if (parsed.success) fields[key] = parsed.data;
    else append(problems, messages(parsed));
  }
  return out;
}
