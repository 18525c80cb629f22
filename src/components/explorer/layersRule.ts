import type { ModelSpec } from '../../core/model/modelSpec';
import type { TrainableSet } from '../../core/settings/trainConfig';

/** A toggle by hand turns the rule into an explicit list of backbone layers (the head always trains). */
export const layersRule = (spec: ModelSpec, next: ReadonlySet<string>): TrainableSet => ({
  kind: 'layers',
  names: spec.layers
    .slice(0, spec.backboneLayerCount)
    .map((l) => l.name)
    .filter((n) => next.has(n)),
});
