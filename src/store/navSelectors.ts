import type { View } from '../core/settings/views';
import { selectTraining } from './selectors';
import type { LabState } from './types';

/**
 * What each view's tab says beside its name: work going on there, or a run that ran out of memory, so
 * a participant on another view sees it. Views with nothing to say are absent.
 */
export function selectViewBadges(s: LabState): Partial<Record<View, string>> {
  const badges: Partial<Record<View, string>> = {};
  if (s.run.status === 'oom') badges.train = 'out of memory';
  else if (selectTraining(s) && s.experiments.active === null) badges.train = 'training';
  if (s.experiments.active !== null) badges.experiments = 'experiment running';
  else if (s.sweep.status === 'running') badges.experiments = 'sweep running';
  if (s.dataset.status === 'scanning') badges.data = 'loading';
  return badges;
}
