import { WORKSHOP_PRESET } from '../../core/settings/presets';
import { selectBusy } from '../../store/selectors';
import { updateConfig } from '../../store/store';
import { useLab } from '../ui/useLab';

/** One click to the settings a workshop starts from (core/settings/presets.ts), which learn the built-in sample. */
export function PresetButton() {
  const busy = useLab(selectBusy);
  const techniques = useLab((s) => s.config.techniques);
  return (
    <p className="preset">
      <button
        type="button"
        disabled={busy}
        data-testid="workshop-preset"
        onClick={() =>
          updateConfig({
            ...WORKSHOP_PRESET,
            fineTune: { ...WORKSHOP_PRESET.fineTune },
            augment: { ...WORKSHOP_PRESET.augment },
            techniques: { ...techniques, cacheFeatures: true, backboneOutsideTape: true },
          })
        }
      >
        Use the workshop preset
      </button>{' '}
      <small className="hint">
        Pretrained MobileNetV2 at 64×64, augmentation off (the feature cache speeds up the frozen epochs), 5
        frozen epochs and 1 fine-tune epoch: it learns the built-in sample.
      </small>
    </p>
  );
}
