import { useId, useState } from 'react';
import { BUDGET_PRESETS_GB } from '../../core/settings/settings';
import { updateConfig } from '../../store/store';
import { NumberField } from '../ui/Field';
import { useLab } from '../ui/useLab';

const CUSTOM = 'custom';
const NONE = 'none';

/** The simulated card (TensorFlow's memory_limit): none, a common card size, or a custom size in MB. */
export function BudgetField() {
  const budget = useLab((s) => s.config.budgetBytes);
  const id = useId();
  // Choosing "Custom" keeps the card's size to edit; the size alone would read as the preset again.
  const [custom, setCustom] = useState(false);
  const preset = BUDGET_PRESETS_GB.find((gb) => gb * 1e9 === budget);
  const choice = budget === null ? NONE : preset !== undefined && !custom ? String(preset) : CUSTOM;
  return (
    <div className="row">
      <div className="field">
        <label htmlFor={id}>Simulated card (memory_limit)</label>
        <select
          id={id}
          data-testid="budget-select"
          value={choice}
          onChange={(e) => {
            const v = e.target.value;
            setCustom(v === CUSTOM);
            updateConfig({
              budgetBytes: v === NONE ? null : v === CUSTOM ? (budget ?? 100e6) : Number(v) * 1e9,
            });
          }}
        >
          <option value={NONE}>No limit: only the real GPU</option>
          {BUDGET_PRESETS_GB.map((gb) => (
            <option key={gb} value={gb}>
              {gb} GB card
            </option>
          ))}
          <option value={CUSTOM}>Custom size (MB)</option>
        </select>
        <small className="hint">
          Any allocation past it fails like TensorFlow's ResourceExhaustedError, so a workshop hits the same
          wall at the same place.
        </small>
      </div>
      {choice === CUSTOM && budget !== null && (
        <NumberField
          label="Card size (MB)"
          testId="budget-mb"
          value={budget / 1e6}
          min={1}
          step="any"
          onChange={(mb) => updateConfig({ budgetBytes: mb * 1e6 })}
        />
      )}
    </div>
  );
}
