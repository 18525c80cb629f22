import { chooseModel } from '../../core/settings/modelDefaults';
import { MODEL_CATALOG, isModelId } from '../../core/model/models';
import { updateConfig } from '../../store/store';
import { NumberField } from '../ui/Field';
import { useLab } from '../ui/useLab';
import { WeightsField } from '../weights/WeightsField';
import { LockedFieldset } from './LockedFieldset';

const NOTES: Partial<Record<string, string>> = {
  tiny: 'B0 topology at ¼ width and depth; for slow devices and tests',
  mobilenetv2: 'pretrained weights ship with the lab',
  'v2-l': "the seed's model",
};

/** The architecture (choosing one sets its default input size), its weights, the input and batch sizes. */
export function ModelFields() {
  const model = useLab((s) => s.config.model);
  const weights = useLab((s) => s.config.weights);
  const batchSize = useLab((s) => s.config.batchSize);
  // With a graph model as the backbone the preset is not built, and the size is the graph's.
  const graph = weights === 'graph';
  return (
    <LockedFieldset legend="Model">
      <div className="field">
        <label htmlFor="model-select">Architecture</label>
        <select
          id="model-select"
          data-testid="model-select"
          value={model}
          disabled={graph}
          onChange={(e) => {
            if (isModelId(e.target.value)) updateConfig(chooseModel({ weights }, e.target.value));
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
      <div className="fields">
        <SizeFields graph={graph} />
        <NumberField
          label="Batch size"
          testId="batch-size"
          value={batchSize}
          min={1}
          max={1024}
          onChange={(batchSize) => updateConfig({ batchSize })}
          hint="Set on the data set itself, where it takes effect."
        />
      </div>
    </LockedFieldset>
  );
}

/** The input size; fixed (disabled) with a graph model, which was exported for one size. */
function SizeFields({ graph }: { graph: boolean }) {
  const height = useLab((s) => s.config.height);
  const width = useLab((s) => s.config.width);
  return (
    <>
      <NumberField
        label="Input height"
        testId="height"
        value={height}
        min={8}
        max={2048}
        disabled={graph}
        onChange={(height) => updateConfig({ height })}
      />
      <NumberField
        label="Input width"
        testId="width"
        value={width}
        min={8}
        max={2048}
        disabled={graph}
        onChange={(width) => updateConfig({ width })}
        hint={graph ? 'Fixed: the graph model was exported for this size.' : undefined}
      />
    </>
  );
}
