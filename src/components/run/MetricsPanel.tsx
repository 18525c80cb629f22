import { useMemo } from 'react';
import { MetricsChart } from '../../charts/MetricsChart';
import { useLab } from '../ui/useLab';

/** Loss and accuracy charts, per batch and per epoch, train and validation. */
export function MetricsPanel() {
  const batches = useLab((s) => s.run.batches);
  const epochs = useLab((s) => s.run.epochs);
  const series = useMemo(
    () => ({
      loss: batches.map((b) => ({ x: b.step, y: b.loss })),
      acc: batches.map((b) => ({ x: b.step, y: b.accuracy })),
      epochLoss: epochs.map((e) => ({ x: e.step, y: e.loss })),
      epochValLoss: epochs.map((e) => ({ x: e.step, y: e.valLoss })),
      epochAcc: epochs.map((e) => ({ x: e.step, y: e.accuracy })),
      epochValAcc: epochs.map((e) => ({ x: e.step, y: e.valAccuracy })),
    }),
    [batches, epochs],
  );
  const last = epochs[epochs.length - 1];
  return (
    <section className="panel" aria-labelledby="metrics-title">
      <h2 id="metrics-title">Loss and accuracy</h2>
      {last && (
        <p data-testid="last-epoch">
          Epoch {last.epoch} ({last.phase}): loss {last.loss.toFixed(4)}, accuracy{' '}
          {(last.accuracy * 100).toFixed(1)}% · val_loss {last.valLoss.toFixed(4)}, val_accuracy{' '}
          {(last.valAccuracy * 100).toFixed(1)}%
        </p>
      )}
      <div className="charts">
        <MetricsChart
          title="Loss"
          testId="loss-chart"
          batches={series.loss}
          epochTrain={series.epochLoss}
          epochVal={series.epochValLoss}
        />
        <MetricsChart
          title="Accuracy"
          testId="accuracy-chart"
          percent
          batches={series.acc}
          epochTrain={series.epochAcc}
          epochVal={series.epochValAcc}
        />
      </div>
    </section>
  );
}
