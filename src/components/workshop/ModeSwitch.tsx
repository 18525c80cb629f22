import { actions } from '../../store/actions';
import { useLab } from '../ui/useLab';

/** Explore (the planner's numbers in view) or predict, then run (numbers hidden until a guess). */
export function ModeSwitch() {
  const mode = useLab((s) => s.workshop.mode);
  return (
    <fieldset className="mode-switch" data-testid="mode-switch">
      <legend>Mode</legend>
      <label>
        <input
          type="radio"
          name="lab-mode"
          data-testid="mode-explore"
          checked={mode === 'explore'}
          onChange={() => actions.workshopModeChanged('explore')}
        />{' '}
        Explore
      </label>
      <label>
        <input
          type="radio"
          name="lab-mode"
          data-testid="mode-predict"
          checked={mode === 'predict'}
          onChange={() => actions.workshopModeChanged('predict')}
        />{' '}
        Predict, then run
      </label>
    </fieldset>
  );
}
