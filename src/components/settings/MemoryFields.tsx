import { updateConfig } from '../../store/store';
import { BudgetField } from './BudgetField';
import { CheckboxField } from '../ui/Field';
import { useLab } from '../ui/useLab';
import { LockedFieldset } from './LockedFieldset';

/** The simulated card and precise (per-kernel) profiling. */
export function MemoryFields() {
  const preciseProfile = useLab((s) => s.config.preciseProfile);
  return (
    <LockedFieldset legend="Memory">
      <BudgetField />
      <CheckboxField
        label="Precise mode: profile every step with tf.profile"
        testId="precise-profile"
        checked={preciseProfile}
        onChange={(on) => updateConfig({ preciseProfile: on })}
        hint="Per-kernel bytes and times for each step. Slower: tf.profile times every kernel, which waits for the GPU after each one. The step peak is measured either way."
      />
    </LockedFieldset>
  );
}
