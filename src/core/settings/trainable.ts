/**
 * The one trainable set of the fine-tune phase. The user's choice is stored as a rule, not as a list of
 * names, so it means the same thing on any model and at any size: "the last 40 layers", "from block 6a",
 * "all", "head only", or layers picked one by one in the layer explorer. Every consumer (planner, sweeps,
 * the batch search, the fixes, the trainer) resolves the rule with `resolveTrainable`, so they agree.
 */
import { z } from 'zod';
import {
  freezeBackbone,
  unfreezeAll,
  unfreezeFromBlock,
  unfreezeLastN,
  hasBlock,
  type LayerNames,
} from '../model/layerTable';
import { messages, shown, wholeNumber } from '../schemaFields';
import type { TrainableSet, TrainingPhase } from './trainConfig';

/** The layers a phase trains: the head alone when frozen; the head plus the rule's layers when fine-tuning. */
export function resolveTrainable(spec: LayerNames, phase: TrainingPhase, set: TrainableSet): Set<string> {
  if (phase === 'frozen') return freezeBackbone(spec);
  switch (set.kind) {
    case 'last':
      return unfreezeLastN(spec, set.n);
    case 'all':
      return unfreezeAll(spec);
    case 'head':
      return freezeBackbone(spec);
    case 'from-block':
      return hasBlock(spec, set.block) ? unfreezeFromBlock(spec, set.block) : freezeBackbone(spec);
    case 'layers': {
      const known = new Set(spec.layers.map((l) => l.name));
      return new Set([...freezeBackbone(spec), ...set.names.filter((n) => known.has(n))]);
    }
  }
}

/**
 * Backbone layers the rule unfreezes, in model order. The head is not listed (it always trains), nor the
 * input layer (layer 0, which has nothing to train), so this counts layers as `layers[-N:]` does.
 */
export function fineTunedBackbone(spec: LayerNames, set: TrainableSet): string[] {
  const trainable = resolveTrainable(spec, 'fine-tune', set);
  return spec.layers
    .slice(1, spec.backboneLayerCount)
    .map((l) => l.name)
    .filter((n) => trainable.has(n));
}

/** Why the rule cannot mean what it says on this model, or null. */
export function trainableProblem(spec: LayerNames, set: TrainableSet): string | null {
  if (set.kind === 'from-block' && !hasBlock(spec, set.block))
    return `${spec.name} has no block '${set.block}': fine-tuning would train the head only. Choose a block in the layer explorer.`;
  if (set.kind === 'layers') {
    const known = new Set(spec.layers.map((l) => l.name));
    const unknown = set.names.filter((n) => !known.has(n));
    if (unknown.length > 0)
      return `${spec.name} has no layer ${unknown
        .slice(0, 3)
        .map((n) => `'${n}'`)
        .join(', ')}${unknown.length > 3 ? ` or ${unknown.length - 3} more` : ''}; those are ignored.`;
  }
  return null;
}

/** The rule in words, e.g. 'last 20 layers', 'from block6a', '12 chosen layers'. */
export function trainableLabel(set: TrainableSet): string {
  switch (set.kind) {
    case 'last':
      return `last ${set.n} layers`;
    case 'all':
      return 'all layers';
    case 'head':
      return 'head only';
    case 'from-block':
      return `from ${set.block}`;
    case 'layers':
      return `${set.names.length} chosen layers`;
  }
}

const LAYER_NAMES = 'The chosen layers must be layer names.';

/** The rule as the settings schema checks it, before any model is known (see core/settings/schema). */
export const trainableSetSchema = z.discriminatedUnion(
  'kind',
  [
    z.object({ kind: z.literal('last'), n: wholeNumber('Unfrozen layers', 0, 100_000) }),
    z.object({
      kind: z.literal('from-block'),
      block: z
        .string({ error: 'Choose the first block to unfreeze.' })
        .refine((b) => b.trim().length > 0, { error: 'Choose the first block to unfreeze.' }),
    }),
    z.object({ kind: z.literal('all') }),
    z.object({ kind: z.literal('head') }),
    z.object({
      kind: z.literal('layers'),
      names: z.array(z.string({ error: LAYER_NAMES }).min(1, { error: LAYER_NAMES }), { error: LAYER_NAMES }),
    }),
  ],
  {
    error: (iss) =>
      `The trainable set must be last N layers, from a block, all, head only or chosen layers (got ${shown(
        (iss.input as { kind?: unknown } | undefined)?.kind ?? iss.input,
      )}).`,
  },
) satisfies z.ZodType<TrainableSet>;

/** Problems with the rule itself, before any model is known; empty when it is well formed. */
export function validateTrainable(set: TrainableSet): string[] {
  return messages(trainableSetSchema.safeParse(set));
}
