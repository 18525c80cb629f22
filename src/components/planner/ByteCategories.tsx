import type { Plan } from '../../core/planner/planner';
import { useNumbersHidden } from '../workshop/useNumbersHidden';
import type { PlanRow } from './planRows';
import { formatBytes } from '../../core/format';

const CATEGORY_LABELS: [keyof Plan['categories'], string][] = [
  ['weights', 'weights'],
  ['gradients', 'gradients'],
  ['optimizer', 'Adam slots'],
  ['input', 'input batches'],
  ['savedActivations', 'saved for backward'],
  ['transient', 'activation gradients and temporaries'],
];

/** Where each row's predicted bytes go, by category, and the layer kinds estimated without a recipe. */
export function ByteCategories({ plans }: { plans: readonly PlanRow[] }) {
  const hidden = useNumbersHidden();
  if (hidden) return null;
  return (
    <details>
      <summary>Where the predicted bytes go</summary>
      <table className="planner-table">
        <thead>
          <tr>
            <th scope="col">category</th>
            {plans.map((p) => (
              <th scope="col" key={p.key}>
                {p.label} <span className="label-predicted">predicted · tfjs</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {CATEGORY_LABELS.map(([key, label]) => (
            <tr key={key}>
              <th scope="row">{label}</th>
              {plans.map((p) => (
                <td key={p.key}>{formatBytes(p.tfjs.categories[key])}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {plans.some((p) => p.tfjs.approximateKinds.length > 0) && (
        <p className="hint">
          Estimated without a measured recipe:{' '}
          {[...new Set(plans.flatMap((p) => p.tfjs.approximateKinds))].join(', ')}.
        </p>
      )}
    </details>
  );
}
