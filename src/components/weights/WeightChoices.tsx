import { graphChoice } from '../../core/sweep/graphChoice';
import { chooseModel } from '../../core/settings/modelDefaults';
import { packagedModel, type ModelId, type WeightsChoice } from '../../core/model/models';
import { updateConfig } from '../../store/store';

const CHOICES: { value: WeightsChoice; label: string }[] = [
  { value: 'lite0', label: 'Pretrained EfficientNet-Lite0 (ImageNet), shipped with the lab (offline)' },
  { value: 'nsfwjs', label: 'Pretrained MobileNetV2, shipped with the lab (offline)' },
  {
    value: 'file',
    label:
      'From a file or URL: a Keras .h5, a tfjs model.json with its shards, or a lab model (its .zip, or saved in this browser)',
  },
  { value: 'random', label: 'Random initialisation (memory does not depend on weight values)' },
];

/** Offered once a graph model is loaded: it serves the frozen phase only, at its own input size. */
const GRAPH_CHOICE = {
  value: 'graph' as const,
  label: 'The loaded graph model as a frozen backbone (frozen phase only: the head trains on its features)',
};

interface Props {
  /** The field's id, naming the legend and the radio group. */ id: string;
  choice: WeightsChoice;
  model: ModelId;
  /** The loaded graph model's input size, when a graph model is loaded this session. */
  graphSize: { height: number; width: number } | null;
  frozenEpochs: number;
}

/** The settings a choice takes with it. */
function patchFor(c: WeightsChoice, { model, graphSize, frozenEpochs }: Omit<Props, 'id' | 'choice'>) {
  // Packaged weights fit one architecture: switching to them takes that model and its own size.
  const fits = packagedModel(c);
  if (fits !== null && model !== fits) return { weights: c, ...chooseModel({ weights: c }, fits) };
  if (c === 'graph' && graphSize) return graphChoice({ frozenEpochs }, graphSize);
  return { weights: c };
}

/** The sources of starting weights, as radio buttons (the graph model's once one is loaded). */
export function WeightChoices({ id, choice, ...rest }: Props) {
  const choices = rest.graphSize || choice === 'graph' ? [...CHOICES, GRAPH_CHOICE] : CHOICES;
  return (
    <div role="radiogroup" aria-labelledby={`${id}-legend`}>
      {choices.map((c) => (
        <label key={c.value} className="radio">
          <input
            type="radio"
            name={`${id}-weights`}
            value={c.value}
            checked={choice === c.value}
            data-testid={`weights-${c.value}`}
            onChange={() => updateConfig(patchFor(c.value, rest))}
          />
          {c.label}
        </label>
      ))}
    </div>
  );
}
