import { chooseModel } from '../../core/modelDefaults';
import type { ModelId, WeightsChoice } from '../../core/models';
import { updateConfig } from '../../store/store';

const CHOICES: { value: WeightsChoice; label: string }[] = [
  { value: 'nsfwjs', label: 'Pretrained MobileNetV2, shipped with the lab (offline)' },
  {
    value: 'file',
    label:
      'From a file or URL: a Keras .h5, a tfjs model.json with its shards, or a lab model (its .zip, or saved in this browser)',
  },
  { value: 'random', label: 'Random initialisation (memory does not depend on weight values)' },
];

interface Props {
  /** The field's id, naming the legend and the radio group. */ id: string;
  choice: WeightsChoice;
  model: ModelId;
}

/** The three sources of starting weights, as radio buttons. */
export function WeightChoices({ id, choice, model }: Props) {
  return (
    <div role="radiogroup" aria-labelledby={`${id}-legend`}>
      {CHOICES.map((c) => (
        <label key={c.value} className="radio">
          <input
            type="radio"
            name={`${id}-weights`}
            value={c.value}
            checked={choice === c.value}
            data-testid={`weights-${c.value}`}
            onChange={() =>
              // The packaged weights are a MobileNetV2: switching to it takes that model's own size.
              updateConfig(
                c.value === 'nsfwjs' && model !== 'mobilenetv2'
                  ? { weights: c.value, ...chooseModel({ weights: c.value }, 'mobilenetv2') }
                  : { weights: c.value },
              )
            }
          />
          {c.label}
        </label>
      ))}
    </div>
  );
}
