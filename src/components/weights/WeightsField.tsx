import { useId, useState } from 'react';
import { catalogEntry, packagedModel } from '../../core/model/models';
import { selectWeightsError } from '../../store/selectors';
import { useLab } from '../ui/useLab';
import { WeightChoices } from './WeightChoices';
import { WeightsDrop } from './WeightsDrop';
import { WeightsReportView } from './WeightsReportView';

/** Where the starting weights come from, loading a file or URL, and how its layers match the model. */
export function WeightsField() {
  const choice = useLab((s) => s.config.weights);
  const model = useLab((s) => s.config.model);
  const fits = packagedModel(choice);
  const frozenEpochs = useLab((s) => s.config.frozenEpochs);
  const weights = useLab((s) => s.weights);
  const [url, setUrl] = useState('');
  const [over, setOver] = useState(false);
  const id = useId();
  const report = weights.report;
  const error = useLab(selectWeightsError);

  return (
    <div className="field weights-field" data-testid="weights-field">
      <span id={`${id}-legend`}>Starting weights</span>
      <WeightChoices
        id={id}
        choice={choice}
        model={model}
        frozenEpochs={frozenEpochs}
        graphSize={weights.loaded?.kind === 'graph-model' ? (weights.loaded.inputSize ?? null) : null}
      />
      {choice === 'random' && (
        <small className="hint warn-text" data-testid="weights-note">
          Weights: random initialisation. Accuracy starts at chance; memory use is the same as with trained
          weights.
        </small>
      )}
      {fits !== null && model !== fits && (
        <small className="hint warn-text">
          These weights are a {catalogEntry(fits).displayName}: the model switches to it.
        </small>
      )}
      {choice === 'graph' && (
        <small className="hint warn-text" data-testid="graph-note">
          {weights.loaded?.kind === 'graph-model'
            ? `${weights.loaded.label}: a frozen backbone at ${weights.loaded.inputSize?.height ?? '?'}×${weights.loaded.inputSize?.width ?? '?'}; the architecture above is not built.`
            : 'No graph model is loaded in this session: load its model.json with its shards again.'}
        </small>
      )}
      {(choice === 'file' || choice === 'graph') && (
        <WeightsDrop id={id} url={url} setUrl={setUrl} over={over} setOver={setOver} weights={weights} />
      )}
      {error && (
        <p role="alert" className="error-text" data-testid="weights-error">
          {error}
        </p>
      )}
      {report && choice !== 'random' && <WeightsReportView report={report} />}
    </div>
  );
}
