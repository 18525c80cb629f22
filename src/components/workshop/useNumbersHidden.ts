import { guessSettingsKey } from '../../core/run/guess';
import { useLab } from '../ui/useLab';

/**
 * Whether the planner's numbers are hidden: in predict mode, until the participant has committed a guess
 * for the current settings (changing any setting asks for a new guess).
 */
export function useNumbersHidden(): boolean {
  const mode = useLab((s) => s.workshop.mode);
  const guessFor = useLab((s) => s.workshop.guess?.settings ?? null);
  const config = useLab((s) => s.config);
  return mode === 'predict' && guessFor !== guessSettingsKey(config);
}
