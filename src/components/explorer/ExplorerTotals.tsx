import type { ParamTotals } from '../../core/model/layerTable';
import { count } from '../../core/format';

/** Trainable and frozen parameters, and how many of the layers with weights train. */
export function ExplorerTotals({ totals }: { totals: ParamTotals }) {
  return (
    <p className="explorer-totals">
      Trainable parameters{' '}
      <strong data-testid="explorer-trainable-params" data-count={totals.trainable}>
        {count(totals.trainable)}
      </strong>{' '}
      · frozen parameters{' '}
      <strong data-testid="explorer-frozen-params" data-count={totals.frozen}>
        {count(totals.frozen)}
      </strong>{' '}
      · layers that train{' '}
      <strong data-testid="explorer-trainable-layers" data-count={totals.trainableLayers}>
        {count(totals.trainableLayers)}
      </strong>{' '}
      of {count(totals.layersWithWeights)} with weights
    </p>
  );
}
