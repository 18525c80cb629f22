import { useDeferredValue } from 'react';
import type { ModelSpec } from '../../core/model/modelSpec';
import type { TrainConfig } from '../../core/settings/trainConfig';
import type { LabState } from '../../store/types';
import { useLab } from '../ui/useLab';

/**
 * The model description and settings the planner's views predict from, deferred: a new description
 * (a folder with another class count) or a changed setting re-plans every card, the planner's table,
 * its verdict and its batch curve. Rendered at once, that was one 300 ms task in a trace of a dropped
 * folder; deferred, React renders them in slices between the page's other work and shows the previous
 * predictions until the new ones are ready. `pick` chooses the description (by default the planner's).
 */
export function usePlanned(pick: (s: LabState) => ModelSpec | null = (s) => s.planner.spec): {
  spec: ModelSpec | null;
  config: TrainConfig;
} {
  const spec = useDeferredValue(useLab(pick));
  const config = useDeferredValue(useLab((s) => s.config));
  return { spec, config };
}
