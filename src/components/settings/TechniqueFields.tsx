import { augmentIsOff, NO_AUGMENT } from '../../core/data/augment';
import { featureCache } from '../../core/settings/techniques';
import { updateConfig } from '../../store/store';
import { CheckboxField, NumberField } from '../ui/Field';
import { useLab } from '../ui/useLab';
import { LockedFieldset } from './LockedFieldset';

/** The memory-saving techniques: outside the tape, the feature cache, accumulation, checkpointing, float16 storage. */
export function TechniqueFields() {
  const t = useLab((s) => s.config.techniques);
  return (
    <LockedFieldset legend="Memory-saving techniques" testId="techniques">
      <div className="fields fields-wide">
        <CheckboxField
          label="Frozen phase: backbone outside the gradient tape"
          testId="technique-outside-tape"
          checked={t.backboneOutsideTape}
          onChange={(on) => updateConfig({ techniques: { ...t, backboneOutsideTape: on } })}
          hint="tfjs keeps every taped activation until backprop ends, frozen layers too; outside the tape they are freed as soon as they are used."
        />
        <CacheFeaturesField />
        <NumberField
          label="Gradient accumulation (micro-batches per batch)"
          testId="technique-accumulation"
          value={t.accumulationSteps}
          min={1}
          max={64}
          onChange={(accumulationSteps) => updateConfig({ techniques: { ...t, accumulationSteps } })}
          hint="k micro-batches, one update: the optimizer sees the whole batch, activations are one micro-batch's. Trainable BatchNorm normalises each micro-batch with its own statistics."
        />
        <div className="field">
          <label htmlFor="checkpointing-select">Gradient checkpointing</label>
          <select
            id="checkpointing-select"
            data-testid="technique-checkpointing"
            value={t.checkpointing}
            onChange={(e) =>
              updateConfig({
                techniques: { ...t, checkpointing: e.target.value === 'blocks' ? 'blocks' : 'off' },
              })
            }
          >
            <option value="off">off</option>
            <option value="blocks">per block: keep block boundaries, recompute in backward</option>
          </select>
          <small className="hint">
            Trades a second forward pass per block for the activations inside blocks.
          </small>
        </div>
        <CheckboxField
          label="float16 storage, float32 math"
          testId="technique-float16-storage"
          checked={t.float16Storage}
          onChange={(on) => updateConfig({ techniques: { ...t, float16Storage: on } })}
          hint="tfjs has no float16 arithmetic: the checkpointed step keeps its block boundaries packed as float16 pairs (half the bytes) and unpacks them to float32 to recompute; weights, gradients and Adam's slots stay float32. Turns per-block checkpointing on."
        />
        <CheckboxField
          label="Lean backward (the lab's engine; off: what stock TensorFlow.js needs)"
          testId="technique-lean-backward"
          checked={t.leanBackward}
          onChange={(on) => updateConfig({ techniques: { ...t, leanBackward: on } })}
          hint="Frees each layer's temporaries when it returns, and each saved activation and activation gradient once the backward pass no longer reads it; the same gradients as stock tfjs. The planner predicts stock tfjs, so with this on its figures are an upper bound."
        />
      </div>
    </LockedFieldset>
  );
}

/** The feature cache, with whether this configuration can use it and a way to lift what blocks it. */
function CacheFeaturesField() {
  const config = useLab((s) => s.config);
  const t = config.techniques;
  const cache = featureCache(config);
  return (
    <div className="field">
      <label>
        <input
          type="checkbox"
          data-testid="technique-cache-features"
          checked={t.cacheFeatures}
          onChange={(e) => updateConfig({ techniques: { ...t, cacheFeatures: e.target.checked } })}
        />{' '}
        Frozen phase: cache backbone features
      </label>
      <small className="hint" data-testid="technique-cache-status">
        {cache.on ? 'On' : 'Not used'}: {cache.why}.
        {!augmentIsOff(config.augment) && (
          <>
            {' '}
            <button
              type="button"
              data-testid="augment-off"
              onClick={() => updateConfig({ augment: NO_AUGMENT })}
            >
              Turn augmentation off
            </button>
          </>
        )}
      </small>
    </div>
  );
}
