import { selectSplit } from '../../store/selectors';
import { updateConfig } from '../../store/store';
import { NumberField } from '../ui/Field';
import { useLab } from '../ui/useLab';
import { LockedFieldset } from './LockedFieldset';

/** The validation share and the seed, with the split they give on the loaded data set. */
export function SplitFields() {
  const validationFraction = useLab((s) => s.config.validationFraction);
  const seed = useLab((s) => s.config.seed);
  // The split is the store's one (selectSplit), the one a run trains on; this view reads its counts.
  const splitHint = useLab((s) => {
    const split = s.config.validationFraction > 0 ? selectSplit(s) : null;
    return split
      ? `${split.train.length} train / ${split.validation.length} validation images, stratified by class`
      : undefined;
  });
  return (
    <LockedFieldset legend="Split">
      <div className="fields">
        <NumberField
          label="Validation share"
          value={validationFraction}
          step={0.05}
          min={0.05}
          max={0.95}
          onChange={(validationFraction) => updateConfig({ validationFraction })}
          hint={splitHint}
        />
        <NumberField
          label="Seed"
          value={seed}
          onChange={(seed) => updateConfig({ seed })}
          hint="Same seed, same split and augmentation."
        />
      </div>
    </LockedFieldset>
  );
}
