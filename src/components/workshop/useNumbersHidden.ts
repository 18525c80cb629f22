import { selectGuessNeeded } from '../../store/selectors';
import { useLab } from '../ui/useLab';

/**
 * Whether the planner's numbers are hidden: in predict mode, until the participant has committed a guess
 * for the current settings (changing any setting asks for a new guess).
 */
export function useNumbersHidden(): boolean {
  return useLab(selectGuessNeeded);
}
