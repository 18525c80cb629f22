/**
 * The lab's settings as a link: one short query parameter per setting, so an instructor can put every
 * laptop of a room in the same state, e.g.
 *   ?model=tiny&weights=random&size=64x64&batch=16&epochs=5+1&lr=0.001,0.0001&train=last:20
 *   &tech=outside,cache&card=90MB&aug=flip,bright:0.5,contrast:0.5:1.5&split=0.2&seed=42
 *   &backend=webgpu&sample=1&view=planner&mode=predict
 * Every value goes through the settings schema (core/settings/schema) before it is used. A parameter is
 * applied whole or not at all (`size=64x9999` changes neither side), and each one refused is named with
 * why, so a link with one bad value still applies the good ones.
 */
import type { BackendRequest } from '../device/backend';
import { weightsForModel } from './modelDefaults';
import { backendRequestSchema, CARD_MAX_BYTES, CARD_MIN_BYTES, mergeValid } from './schema';
import { count } from '../format';
import { messages } from '../schemaFields';
import type { TechniqueConfig, TrainableSet, TrainConfig } from './trainConfig';
import { isLinkTarget, LINK_TARGET_IDS, type LinkTarget } from './views';

/** Explore shows the planner's numbers at once; predict hides them until a guess is committed. */
export type LabMode = 'explore' | 'predict';

/** Everything a link can set. */
export interface LinkSettings {
  config: TrainConfig;
  backend: BackendRequest;
  /** Load the built-in sample data set. */ sample: boolean;
  /** The view, or the panel inside one, the link opens (core/settings/views). */ view: LinkTarget | null;
  mode: LabMode;
}

/** What one parameter sets. */
interface LinkPatch {
  config?: Partial<TrainConfig>;
  backend?: BackendRequest;
  sample?: boolean;
  view?: LinkTarget;
  mode?: LabMode;
}

/** One parameter: how it is written, and how it is read (a patch, or why the value cannot be read). */
interface Codec {
  key: string;
  write(s: LinkSettings): string | null;
  read(value: string, base: LinkSettings): LinkPatch | string;
}

/**
 * On/off techniques by their word in a link. A new boolean technique of TechniqueConfig needs one line
 * here (e.g. `f16: 'float16Storage'`) and its field in the schema's `techniqueFields`.
 */
export const TECHNIQUE_FLAGS = {
  outside: 'backboneOutsideTape',
  cache: 'cacheFeatures',
  f16: 'float16Storage',
  lean: 'leanBackward',
} as const satisfies Record<string, BooleanKeys<TechniqueConfig>>;

type BooleanKeys<T> = { [K in keyof T]: T[K] extends boolean ? K : never }[keyof T];

/** A number as a person writes one in a link: digits, a point, an exponent (no hex, binary or octal). */
const DECIMAL = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/**
 * A number as written, or the text itself so the schema's message quotes what the link said: also for a
 * literal too small or too large for a double (1e-400 reads as 0, 1e400 as Infinity), and for what
 * Number() reads but nobody means as a setting (0x10, 0b11, 0o7, Infinity).
 */
const num = (v: string): number | string => {
  const n = Number(v);
  const underflow = n === 0 && /[1-9]/.test(v.split(/e/i)[0] ?? '');
  return DECIMAL.test(v.trim()) && Number.isFinite(n) && !underflow ? n : v;
};

const pair = (v: string, sep: RegExp): [number | string, number | string] | null => {
  const parts = v.split(sep);
  return parts.length === 2 ? [num(parts[0]!), num(parts[1]!)] : null;
};

const config = (patch: Record<string, unknown>): LinkPatch => ({ config: patch as Partial<TrainConfig> });

const CODECS: Codec[] = [
  {
    key: 'model',
    write: (s) => s.config.model,
    read: (v, s) => config({ model: v, ...weightsForModel(s.config, v) }),
  },
  {
    key: 'weights',
    write: (s) => (s.config.weights === 'file' || s.config.weights === 'graph' ? null : s.config.weights),
    read: (v) =>
      v === 'file' || v === 'graph'
        ? `weights from a file${v === 'graph' ? ' (a graph model)' : ''} cannot come with a link: load the file, or use random, nsfwjs or lite0.`
        : config({ weights: v }),
  },
  {
    key: 'size',
    write: (s) => `${s.config.height}x${s.config.width}`,
    read: (v) => {
      const hw = pair(v, /x/i);
      return hw
        ? config({ height: hw[0], width: hw[1] })
        : 'size must be HEIGHTxWIDTH in pixels, e.g. 64x64.';
    },
  },
  { key: 'batch', write: (s) => String(s.config.batchSize), read: (v) => config({ batchSize: num(v) }) },
  {
    key: 'epochs',
    write: (s) => `${s.config.frozenEpochs}+${s.config.fineTuneEpochs}`,
    read: (v) => {
      // A form-encoded '+' arrives as a space.
      const e = pair(v, /[+ ]/);
      return e
        ? config({ frozenEpochs: e[0], fineTuneEpochs: e[1] })
        : 'epochs must be FROZEN+FINE-TUNE, e.g. 5+1.';
    },
  },
  {
    key: 'lr',
    write: (s) => `${s.config.frozenLearningRate},${s.config.fineTuneLearningRate}`,
    read: (v) => {
      const lr = pair(v, /,/);
      return lr
        ? config({ frozenLearningRate: lr[0], fineTuneLearningRate: lr[1] })
        : 'lr must be FROZEN,FINE-TUNE learning rates, e.g. 1e-3,1e-4.';
    },
  },
  { key: 'train', write: (s) => writeTrainable(s.config.fineTune), read: readTrainable },
  { key: 'tech', write: (s) => writeTechniques(s.config.techniques), read: readTechniques },
  { key: 'prec', write: (s) => writePrecision(s.config), read: readPrecision },
  { key: 'card', write: (s) => writeCard(s.config.budgetBytes), read: readCard },
  { key: 'aug', write: (s) => writeAugment(s.config), read: readAugment },
  { key: 'augon', write: (s) => s.config.augmentOn, read: (v) => config({ augmentOn: v }) },
  {
    key: 'split',
    write: (s) => String(s.config.validationFraction),
    read: (v) => config({ validationFraction: num(v) }),
  },
  { key: 'seed', write: (s) => String(s.config.seed), read: (v) => config({ seed: num(v) }) },
  { key: 'patience', write: (s) => String(s.config.patience), read: (v) => config({ patience: num(v) }) },
  { key: 'prefetch', write: (s) => String(s.config.prefetch), read: (v) => config({ prefetch: num(v) }) },
  {
    key: 'precise',
    write: (s) => (s.config.preciseProfile ? '1' : '0'),
    read: (v) => (v === '1' || v === '0' ? config({ preciseProfile: v === '1' }) : 'precise must be 1 or 0.'),
  },
  {
    key: 'backend',
    write: (s) => s.backend,
    read: (v) => {
      const r = backendRequestSchema.safeParse(v);
      return r.success ? { backend: r.data } : messages(r).join(' ');
    },
  },
  {
    key: 'sample',
    write: (s) => (s.sample ? '1' : null),
    read: (v) =>
      v === '1' || v === '0' ? { sample: v === '1' } : 'sample must be 1 (load the built-in sample) or 0.',
  },
  {
    key: 'view',
    write: (s) => s.view,
    read: (v) => (isLinkTarget(v) ? { view: v } : `view must be one of ${LINK_TARGET_IDS.join(', ')}.`),
  },
  {
    key: 'mode',
    write: (s) => s.mode,
    read: (v) => (v === 'predict' || v === 'explore' ? { mode: v } : 'mode must be predict or explore.'),
  },
];

function writeTrainable(t: TrainableSet): string {
  switch (t.kind) {
    case 'last':
      return `last:${t.n}`;
    case 'from-block':
      return `from:${t.block}`;
    case 'layers':
      return `layers:${t.names.join(',')}`;
    default:
      return t.kind;
  }
}

function readTrainable(v: string): LinkPatch | string {
  const [kind, ...rest] = v.split(':');
  const arg = rest.join(':');
  if ((kind === 'all' || kind === 'head') && rest.length === 0) return config({ fineTune: { kind } });
  if (kind === 'last' && rest.length > 0) return config({ fineTune: { kind: 'last', n: num(arg) } });
  if (kind === 'from' && rest.length > 0) return config({ fineTune: { kind: 'from-block', block: arg } });
  if (kind === 'layers' && rest.length > 0) {
    return config({ fineTune: { kind: 'layers', names: arg === '' ? [] : arg.split(',') } });
  }
  return 'train must be last:N, from:BLOCK, all, head or layers:NAME,NAME.';
}

function writeTechniques(t: TechniqueConfig): string {
  const words: string[] = Object.entries(TECHNIQUE_FLAGS)
    .filter(([, field]) => t[field])
    .map(([word]) => word);
  if (t.accumulationSteps !== 1) words.push(`acc${t.accumulationSteps}`);
  if (t.checkpointing === 'blocks') words.push('ckpt');
  return words.length > 0 ? words.join(',') : 'none';
}

function readTechniques(v: string, base: LinkSettings): LinkPatch | string {
  const flags = Object.fromEntries(Object.values(TECHNIQUE_FLAGS).map((field) => [field, false]));
  const t: Record<string, unknown> = {
    ...base.config.techniques,
    ...flags,
    accumulationSteps: 1,
    checkpointing: 'off',
  };
  for (const word of v === 'none' ? [] : v.split(',')) {
    const acc = /^acc(.+)$/.exec(word);
    if (word in TECHNIQUE_FLAGS) t[TECHNIQUE_FLAGS[word as keyof typeof TECHNIQUE_FLAGS]] = true;
    else if (word === 'ckpt') t.checkpointing = 'blocks';
    else if (acc) t.accumulationSteps = num(acc[1]!);
    else
      return `tech has no technique '${word}': use ${[...Object.keys(TECHNIQUE_FLAGS), 'ckpt', 'accN'].join(', ')} or none.`;
  }
  return config({ techniques: t });
}

function writePrecision(c: TrainConfig): string {
  const words = [
    ...(c.precision.webglF16Textures ? ['f16tex'] : []),
    ...(c.precision.lossScaling === 'dynamic' ? ['lossscale'] : []),
  ];
  return words.length > 0 ? words.join(',') : 'none';
}

function readPrecision(v: string): LinkPatch | string {
  const words = v === 'none' ? [] : v.split(',');
  const unknown = words.find((w) => w !== 'f16tex' && w !== 'lossscale');
  if (unknown !== undefined) return `prec has no setting '${unknown}': use f16tex, lossscale or none.`;
  return config({
    precision: {
      webglF16Textures: words.includes('f16tex'),
      lossScaling: words.includes('lossscale') ? 'dynamic' : 'off',
    },
  });
}

function writeCard(bytes: number | null): string {
  if (bytes === null) return 'none';
  return bytes % 1e9 === 0 ? `${bytes / 1e9}GB` : `${bytes / 1e6}MB`;
}

function readCard(v: string): LinkPatch | string {
  if (v === 'none') return config({ budgetBytes: null });
  const m = /^([0-9.e+-]+)(MB|GB)$/i.exec(v);
  const n = m ? Number(m[1]) : NaN;
  if (!m || !Number.isFinite(n)) return 'card must be none or a size in MB or GB, e.g. 90MB or 16GB.';
  const bytes = Math.round(n * (m[2]!.toUpperCase() === 'GB' ? 1e9 : 1e6));
  if (!(bytes >= CARD_MIN_BYTES && bytes <= CARD_MAX_BYTES))
    return `card must be from 1MB to 1000GB (got ${v}); e.g. 90MB or 16GB, or none.`;
  return config({ budgetBytes: bytes });
}

function writeAugment({ augment: a }: TrainConfig): string {
  const words = [
    ...(a.flip ? ['flip'] : []),
    ...(a.brightnessMaxDelta !== 0 ? [`bright:${a.brightnessMaxDelta}`] : []),
    ...(a.contrastRange[0] !== 1 || a.contrastRange[1] !== 1
      ? [`contrast:${a.contrastRange.join(':')}`]
      : []),
  ];
  return words.length > 0 ? words.join(',') : 'off';
}

function readAugment(v: string): LinkPatch | string {
  const a: Record<string, unknown> = { flip: false, brightnessMaxDelta: 0, contrastRange: [1, 1] };
  for (const word of v === 'off' ? [] : v.split(',')) {
    const [name, ...args] = word.split(':');
    if (name === 'flip' && args.length === 0) a.flip = true;
    else if (name === 'bright' && args.length === 1) a.brightnessMaxDelta = num(args[0]!);
    else if (name === 'contrast' && args.length === 2) a.contrastRange = args.map(num);
    else return `aug has no setting '${word}': use flip, bright:DELTA, contrast:LOWER:UPPER or off.`;
  }
  return config({ augment: a });
}

/** Keeps the characters the link's own syntax uses readable; everything else is percent-encoded. */
const encode = (v: string): string =>
  encodeURIComponent(v).replace(/%(2B|2C|3A|7C)/g, (e) => decodeURIComponent(e));

/** The query string (without '?') that sets `s`. */
export function writeLink(s: LinkSettings): string {
  return CODECS.flatMap((c) => {
    const v = c.write(s);
    return v === null ? [] : [`${c.key}=${encode(v)}`];
  }).join('&');
}

/** What a link set: the settings, the parameters applied, and each one ignored with why. */
export interface LinkReading {
  settings: LinkSettings;
  applied: string[];
  ignored: string[];
}

/** Reads a query string (with or without '?') over `base`; never throws. */
export function readLink(query: string, base: LinkSettings): LinkReading {
  let settings = base;
  const applied: string[] = [];
  const ignored: string[] = [];
  for (const part of query.replace(/^\?/, '').split('&')) {
    if (part === '') continue;
    const [rawKey = '', ...rest] = part.split('=');
    const key = decodeSafe(rawKey);
    const value = decodeSafe(rest.join('='));
    const said = `${key ?? rawKey}=${value ?? rest.join('=')}`;
    const codec = CODECS.find((c) => c.key === key);
    const why =
      key === null || value === null
        ? 'it is not validly percent-encoded.'
        : !codec
          ? 'the lab has no such setting.'
          : applied.includes(key) || ignored.some((i) => i.startsWith(`${key}=`))
            ? 'given twice; the first one counts.'
            : null;
    if (why || !codec || value === null) {
      ignored.push(`${said}: ${why}`);
      continue;
    }
    const result = apply(codec, value, settings);
    if (typeof result === 'string') ignored.push(`${said}: ${result}`);
    else {
      settings = result;
      applied.push(codec.key);
    }
  }
  return { settings, applied, ignored: summarised(ignored) };
}

/** At most this many ignored parameters are listed one by one; the rest are counted in one line. */
const LISTED_IGNORED = 20;

/** The first ignored parameters each with why, then one line counting the rest by their reason. */
function summarised(ignored: string[]): string[] {
  if (ignored.length <= LISTED_IGNORED) return ignored;
  const byReason = new Map<string, number>();
  for (const line of ignored.slice(LISTED_IGNORED)) {
    const reason = line.slice(line.indexOf(': ') + 2).replace(/\.$/, '');
    byReason.set(reason, (byReason.get(reason) ?? 0) + 1);
  }
  const reasons = [...byReason].map(([reason, n]) => `${count(n)} because ${reason}`).join('; ');
  return [
    ...ignored.slice(0, LISTED_IGNORED),
    `…and ${count(ignored.length - LISTED_IGNORED)} more ignored: ${reasons}.`,
  ];
}

/** `s` with one parameter applied, or why it was refused; a refused parameter changes nothing. */
function apply(codec: Codec, value: string, s: LinkSettings): LinkSettings | string {
  const patch = codec.read(value, s);
  if (typeof patch === 'string') return patch;
  const { config: configPatch, ...rest } = patch;
  if (!configPatch) return { ...s, ...rest };
  const merged = mergeValid(configPatch, s.config);
  return merged.problems.length > 0 ? merged.problems.join(' ') : { ...s, ...rest, config: merged.config };
}

function decodeSafe(v: string): string | null {
  try {
    return decodeURIComponent(v);
  } catch {
    return null;
  }
}
