import { trainableLabel } from '../../core/settings/trainable';
import { updateConfig } from '../../store/store';
import { NumberField } from '../ui/Field';
import { useLab } from '../ui/useLab';
import { LockedFieldset } from './LockedFieldset';

/** Epochs and learning rates of both phases, what fine-tuning unfreezes, EarlyStopping and prefetch. */
export function PhaseFields() {
  const frozenEpochs = useLab((s) => s.config.frozenEpochs);
  const frozenLearningRate = useLab((s) => s.config.frozenLearningRate);
  const patience = useLab((s) => s.config.patience);
  const prefetch = useLab((s) => s.config.prefetch);
  return (
    <LockedFieldset legend="Phases">
      <div className="fields">
        <NumberField
          label="Frozen epochs"
          testId="frozen-epochs"
          value={frozenEpochs}
          min={0}
          onChange={(frozenEpochs) => updateConfig({ frozenEpochs })}
        />
        <NumberField
          label="Frozen learning rate"
          value={frozenLearningRate}
          step="any"
          onChange={(frozenLearningRate) => updateConfig({ frozenLearningRate })}
        />
      </div>
      <FineTuneFields />
      <div className="fields">
        <NumberField
          label="EarlyStopping patience"
          value={patience}
          min={1}
          onChange={(patience) => updateConfig({ patience })}
        />
        <NumberField
          label="Prefetch (batches)"
          testId="prefetch"
          value={prefetch}
          min={0}
          max={16}
          onChange={(prefetch) => updateConfig({ prefetch })}
        />
      </div>
    </LockedFieldset>
  );
}

/**
 * Phase 2: epochs, learning rate and the "last N" shortcut. The layer explorer holds the one trainable
 * set; typing N here rewrites it, and any other rule chosen there is named below instead of a number.
 */
function FineTuneFields() {
  const fineTuneEpochs = useLab((s) => s.config.fineTuneEpochs);
  const fineTuneLearningRate = useLab((s) => s.config.fineTuneLearningRate);
  const fineTune = useLab((s) => s.config.fineTune);
  // A graph model trains the frozen phase only: the fields stay visible, disabled, with the reason.
  const graph = useLab((s) => s.config.weights === 'graph');
  const reason = useLab((s) => s.weights.loaded?.reason);
  return (
    <>
      {graph && (
        <p className="hint warn-text" data-testid="graph-frozen-only">
          No fine-tune phase with a graph model. {reason}
        </p>
      )}
      <div className="fields">
        <NumberField
          label="Fine-tune epochs"
          testId="fine-tune-epochs"
          value={fineTuneEpochs}
          min={0}
          disabled={graph}
          onChange={(fineTuneEpochs) => updateConfig({ fineTuneEpochs })}
        />
        <NumberField
          label="Fine-tune learning rate"
          value={fineTuneLearningRate}
          step="any"
          disabled={graph}
          onChange={(fineTuneLearningRate) => updateConfig({ fineTuneLearningRate })}
        />
        <NumberField
          label="Unfreeze last N layers"
          testId="unfreeze-last-n"
          value={fineTune.kind === 'last' ? fineTune.n : Number.NaN}
          min={0}
          disabled={graph}
          onChange={(n) => updateConfig({ fineTune: { kind: 'last', n } })}
          hint="A shortcut: counted back from the backbone's last layer; frozen BatchNorm layers run in inference mode."
        />
      </div>
      {fineTune.kind !== 'last' && !graph && (
        <p className="hint" data-testid="explorer-choice">
          Fine-tuning trains {trainableLabel(fineTune)} of the backbone (plus the head), as set in the layer
          explorer. Type a number above to unfreeze the last N instead.
        </p>
      )}
    </>
  );
}
