import { useMemo } from 'react';
import { augmentIsOff, NO_AUGMENT } from '../core/config';
import { validateTrainConfig } from '../core/settings';
import { featureCache } from '../core/techniques';
import { trainableLabel } from '../core/trainable';
import { stratifiedSplit } from '../core/split';
import { MODEL_CATALOG, isModelId } from '../core/models';
import { updateConfig } from '../store/store';
import { BudgetField } from './BudgetField';
import { CheckboxField, NumberField } from './Field';
import { commands } from '../store/commands';
import { useLab } from './useLab';
import { WeightsField } from './WeightsField';

const NOTES: Partial<Record<string, string>> = {
  tiny: 'B0 topology at ¼ width and depth; for slow devices and tests',
  mobilenetv2: 'pretrained weights ship with the lab',
  'v2-l': "the seed's model",
};

/** Every setting of a run; persisted, validated as the user types. */
export function SettingsPanel() {
  const config = useLab((s) => s.config);
  const scan = useLab((s) => s.dataset.scan);
  const locked = useLab(
    (s) => s.run.status === 'running' || s.run.status === 'stopping' || s.sweep.status === 'running',
  );
  const problems = validateTrainConfig(config);
  const split = useMemo(() => {
    if (!scan || !(config.validationFraction > 0 && config.validationFraction < 1)) return null;
    const s = stratifiedSplit(scan.items, config.validationFraction, config.seed);
    return { train: s.train.length, validation: s.validation.length };
  }, [scan, config.validationFraction, config.seed]);
  const a = config.augment;
  const t = config.techniques;
  const cache = featureCache(config);
  const p = config.precision;
  return (
    <section className="panel" aria-labelledby="settings-title">
      <h2 id="settings-title">2 · Settings</h2>
      <fieldset disabled={locked}>
        <legend>Model</legend>
        <div className="field">
          <label htmlFor="model-select">Architecture</label>
          <select
            id="model-select"
            data-testid="model-select"
            value={config.model}
            onChange={(e) => {
              const model = e.target.value;
              if (!isModelId(model)) return;
              // The packaged weights are a MobileNetV2; another architecture starts from random weights.
              const keepWeights = config.weights !== 'nsfwjs' || model === 'mobilenetv2';
              updateConfig(keepWeights ? { model } : { model, weights: 'random' });
            }}
          >
            {MODEL_CATALOG.map((m) => (
              <option key={m.id} value={m.id}>
                {m.displayName} (Keras default {m.defaultSize}×{m.defaultSize}
                {NOTES[m.id] ? `; ${NOTES[m.id]}` : ''})
              </option>
            ))}
          </select>
        </div>
        <WeightsField />
        <div className="row">
          <NumberField
            label="Input height"
            testId="height"
            value={config.height}
            min={8}
            max={2048}
            onChange={(height) => updateConfig({ height })}
          />
          <NumberField
            label="Input width"
            testId="width"
            value={config.width}
            min={8}
            max={2048}
            onChange={(width) => updateConfig({ width })}
          />
          <NumberField
            label="Batch size"
            testId="batch-size"
            value={config.batchSize}
            min={1}
            max={1024}
            onChange={(batchSize) => updateConfig({ batchSize })}
            hint="Set on the data set itself, where it takes effect."
          />
        </div>
      </fieldset>
      <fieldset disabled={locked}>
        <legend>Memory</legend>
        <BudgetField />
        <CheckboxField
          label="Precise mode: profile every step with tf.profile"
          testId="precise-profile"
          checked={config.preciseProfile}
          onChange={(on) => updateConfig({ preciseProfile: on })}
          hint="Per-kernel bytes and times for each step. Slower: tf.profile times every kernel, which waits for the GPU after each one. The step peak is measured either way."
        />
      </fieldset>
      <fieldset disabled={locked}>
        <legend>Phases</legend>
        <div className="row">
          <NumberField
            label="Frozen epochs"
            testId="frozen-epochs"
            value={config.frozenEpochs}
            min={0}
            onChange={(frozenEpochs) => updateConfig({ frozenEpochs })}
          />
          <NumberField
            label="Frozen learning rate"
            value={config.frozenLearningRate}
            step="any"
            onChange={(frozenLearningRate) => updateConfig({ frozenLearningRate })}
          />
        </div>
        <div className="row">
          <NumberField
            label="Fine-tune epochs"
            testId="fine-tune-epochs"
            value={config.fineTuneEpochs}
            min={0}
            onChange={(fineTuneEpochs) => updateConfig({ fineTuneEpochs })}
          />
          <NumberField
            label="Fine-tune learning rate"
            value={config.fineTuneLearningRate}
            step="any"
            onChange={(fineTuneLearningRate) => updateConfig({ fineTuneLearningRate })}
          />
          <NumberField
            label="Unfreeze last N layers"
            testId="unfreeze-last-n"
            value={config.fineTune.kind === 'last' ? config.fineTune.n : Number.NaN}
            min={0}
            onChange={(n) => updateConfig({ fineTune: { kind: 'last', n } })}
            hint="A shortcut: counted back from the backbone's last layer; frozen BatchNorm layers run in inference mode."
          />
        </div>
        {config.fineTune.kind !== 'last' && (
          <p className="hint" data-testid="explorer-choice">
            Fine-tuning trains {trainableLabel(config.fineTune)} of the backbone (plus the head), as set in
            the layer explorer. Type a number above to unfreeze the last N instead.
          </p>
        )}
        <div className="row">
          <NumberField
            label="EarlyStopping patience"
            value={config.patience}
            min={1}
            onChange={(patience) => updateConfig({ patience })}
          />
          <NumberField
            label="Prefetch (batches)"
            testId="prefetch"
            value={config.prefetch}
            min={0}
            max={16}
            onChange={(prefetch) => updateConfig({ prefetch })}
          />
        </div>
      </fieldset>
      <fieldset disabled={locked} data-testid="techniques">
        <legend>Memory-saving techniques</legend>
        <div className="row">
          <CheckboxField
            label="Frozen phase: backbone outside the gradient tape"
            testId="technique-outside-tape"
            checked={t.backboneOutsideTape}
            onChange={(on) => updateConfig({ techniques: { ...t, backboneOutsideTape: on } })}
            hint="tfjs keeps every taped activation until backprop ends, frozen layers too; outside the tape they are freed as soon as they are used."
          />
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
        </div>
      </fieldset>
      <fieldset disabled={locked} data-testid="precision">
        <legend>Precision experiment</legend>
        <p className="hint">
          tfjs 4.22 has no float16 dtype, so mixed precision is only predicted (Keras/CUDA column of the
          planner). WebGL can store textures in float16. Measured while building the lab (WebGL on
          SwiftShader, Tiny at 32×32): tfjs&apos; own byte count stays the same, the backend allocates 37–44%
          less, and training loss turns NaN within a few steps. Dynamic loss scaling skips those updates
          instead of breaking the weights; it does not make the model learn, because the weights and
          Adam&apos;s slots are float16 too (Keras keeps them in float32).
        </p>
        <div className="row">
          <CheckboxField
            label="WebGL float16 textures (switches the backend to WebGL)"
            testId="precision-f16"
            checked={p.webglF16Textures}
            onChange={(on) => {
              updateConfig({ precision: { ...p, webglF16Textures: on } });
              void commands().setBackend(on ? 'webgl' : 'auto');
            }}
          />
          <div className="field">
            <label htmlFor="loss-scaling-select">Loss scaling</label>
            <select
              id="loss-scaling-select"
              data-testid="precision-loss-scaling"
              value={p.lossScaling}
              onChange={(e) =>
                updateConfig({
                  precision: { ...p, lossScaling: e.target.value === 'dynamic' ? 'dynamic' : 'off' },
                })
              }
            >
              <option value="off">off</option>
              <option value="dynamic">
                dynamic (start 2^15, halve on overflow, double after 2000 good steps)
              </option>
            </select>
          </div>
        </div>
      </fieldset>
      <fieldset disabled={locked}>
        <legend>Augmentation (training images only)</legend>
        <div className="field">
          <label htmlFor="augment-on-select">Resize and augment on</label>
          <select
            id="augment-on-select"
            data-testid="augment-on"
            value={config.augmentOn}
            onChange={(e) => updateConfig({ augmentOn: e.target.value === 'cpu' ? 'cpu' : 'gpu' })}
          >
            <option value="gpu">the training backend (tensor ops)</option>
            <option value="cpu">the CPU, in the worker (one tensor per finished image)</option>
          </select>
          <small className="hint">
            On the backend, each full-size decoded image becomes a tensor first; on the CPU only the resized
            result does. Same pixels either way.
          </small>
        </div>
        <div className="row">
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
      </fieldset>
      <fieldset disabled={locked}>
        <legend>Split</legend>
        <div className="row">
          <NumberField
            label="Validation share"
            value={config.validationFraction}
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
            value={config.seed}
            onChange={(seed) => updateConfig({ seed })}
            hint="Same seed, same split and augmentation."
          />
        </div>
      </fieldset>
      {problems.length > 0 && (
        <ul className="error-text" role="alert" data-testid="settings-problems">
          {problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      )}
    </section>
  );
}
