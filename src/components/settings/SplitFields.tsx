import { useMemo } from 'react';
import { stratifiedSplit } from '../../core/split';
import { updateConfig } from '../../store/store';
import { NumberField } from '../Field';
import { useLab } from '../useLab';
import { LockedFieldset } from './LockedFieldset';

/** The validation share and the seed, with the split they give on the loaded data set. */
export function SplitFields() {
  const scan = useLab((s) => s.dataset.scan);
  const validationFraction = useLab((s) => s.config.validationFraction);
  const seed = useLab((s) => s.config.seed);
  const split = useMemo(() => {
    if (!scan || !(validationFraction > 0 && validationFraction < 1)) return null;
    const s = stratifiedSplit(scan.items, validationFraction, seed);
    return { train: s.train.length, validation: s.validation.length };
  }, [scan, validationFraction, seed]);
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
          hint={
            split
              ? `${split.train} train / ${split.validation} validation images, stratified by class`
              : undefined
          }
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
