import { updateConfig } from '../../store/store';
import { CheckboxField, NumberField } from '../ui/Field';
import { useLab } from '../ui/useLab';
import { LockedFieldset } from './LockedFieldset';

/** Where augmentation runs (images are always resized on the host first), and the random flip, brightness and contrast of training images. */
export function AugmentFields() {
  const augmentOn = useLab((s) => s.config.augmentOn);
  const a = useLab((s) => s.config.augment);
  return (
    <LockedFieldset legend="Augmentation (training images only)">
      <div className="field">
        <label htmlFor="augment-on-select">Augment on</label>
        <select
          id="augment-on-select"
          data-testid="augment-on"
          value={augmentOn}
          onChange={(e) => updateConfig({ augmentOn: e.target.value === 'cpu' ? 'cpu' : 'gpu' })}
        >
          <option value="gpu">the training backend (tensor ops)</option>
          <option value="cpu">the CPU, in the worker</option>
        </select>
        <small className="hint">
          Every image is decoded and resized on the host first, so only the training-size image reaches the
          GPU; this only chooses where flip, brightness and contrast run. Same pixels either way.
        </small>
      </div>
      <div className="fields">
        <CheckboxField
          label="Random left-right flip"
          checked={a.flip}
          onChange={(flip) => updateConfig({ augment: { ...a, flip } })}
        />
        <NumberField
          label="Brightness max delta"
          value={a.brightnessMaxDelta}
          step="any"
          min={0}
          onChange={(v) => updateConfig({ augment: { ...a, brightnessMaxDelta: v } })}
          hint="In 0–255 pixel units: the seed's 0.5 is almost invisible; try 25."
        />
        <NumberField
          label="Contrast lower"
          value={a.contrastRange[0]}
          step="any"
          min={0}
          onChange={(v) => updateConfig({ augment: { ...a, contrastRange: [v, a.contrastRange[1]] } })}
        />
        <NumberField
          label="Contrast upper"
          value={a.contrastRange[1]}
          step="any"
          min={0}
          onChange={(v) => updateConfig({ augment: { ...a, contrastRange: [a.contrastRange[0], v] } })}
        />
      </div>
    </LockedFieldset>
  );
}
