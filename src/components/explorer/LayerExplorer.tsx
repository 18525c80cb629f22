import { useMemo, useState } from 'react';
import { groupRows, layerRows, paramTotals, toggleLayer } from '../../core/model/layerTable';
import type { ModelSpec } from '../../core/model/modelSpec';
import { trainableLabel } from '../../core/settings/trainable';
import type { TrainableSet } from '../../core/settings/trainConfig';
import { ExplorerTotals } from './ExplorerTotals';
import { LayerTable, LayerTableKeys } from './LayerTable';
import { layersRule } from './layersRule';
import { Shortcuts } from './Shortcuts';
import './LayerExplorer.css';

export interface LayerExplorerProps {
  spec: ModelSpec;
  /** Names of the layers that train (the rule resolved on this model). */
  trainable: ReadonlySet<string>;
  /** The rule the set comes from. */
  rule: TrainableSet;
  /** Why the rule does not fit this model, or null. */
  problem: string | null;
  /** Receives the new rule: a shortcut's, or the layers chosen one by one. */
  onChange(next: TrainableSet): void;
  /** Locks every control, e.g. while a phase trains. */
  disabled?: boolean;
  /** Backend the model was built on, e.g. 'webgpu'. */
  backendLabel: string;
}

/** Why frozen BatchNorm statistics never count as trainable. */
const BATCH_NORM_HINT = (
  <p className="hint">
    BatchNorm layers left frozen run in inference mode, as in Keras: they normalise with their moving mean and
    variance and do not update them; those statistics never count as trainable.
  </p>
);

/** Every layer of the model, grouped by block, with what trains and shortcuts to change it. */
export function LayerExplorer({
  spec,
  trainable,
  rule,
  problem,
  onChange,
  disabled = false,
  backendLabel,
}: LayerExplorerProps) {
  const choose = (next: ReadonlySet<string>) => onChange(layersRule(spec, next));
  const rows = useMemo(() => layerRows(spec, trainable), [spec, trainable]);
  const groups = useMemo(() => groupRows(rows), [rows]);
  const totals = useMemo(() => paramTotals(rows), [rows]);
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set());
  const toggleOpen = (block: string) => setOpen((prev) => toggleLayer(prev, block));

  return (
    <section className="panel layer-explorer" aria-labelledby="layers-title" data-testid="layer-explorer">
      {/* The one explorer on the page: a link's view=layers brings this heading into view. */}
      <h2 id="layers-title">Layers</h2>
      {spec.layers.length === 0 ? (
        <p className="muted" data-testid="explorer-empty">
          {spec.name} has no layers to show.
        </p>
      ) : (
        <>
          <p className="hint">
            {spec.name}, {spec.layers.length} layers, built on {backendLabel}. Output shapes are for an input
            of {spec.height} × {spec.width}. The head always trains.
          </p>
          <Shortcuts
            key={`${spec.name} ${JSON.stringify(rule)}` /* a set chosen elsewhere resets the fields */}
            spec={spec}
            rule={rule}
            groups={groups}
            onChange={onChange}
            disabled={disabled}
          />
          <RuleLine rule={rule} problem={problem} />
          <ExplorerTotals totals={totals} />
          {BATCH_NORM_HINT}
          <LayerTableKeys />
          <LayerTable
            spec={spec}
            groups={groups}
            trainable={trainable}
            open={open}
            onExpand={toggleOpen}
            onChange={choose}
            disabled={disabled}
          />
        </>
      )}
    </section>
  );
}

/** The rule in force in words, and why it does not fit this model when it does not. */
function RuleLine({ rule, problem }: { rule: TrainableSet; problem: string | null }) {
  return (
    <>
      <p className="hint" data-testid="explorer-rule">
        Fine-tuning trains: <strong>{trainableLabel(rule)}</strong> of the backbone, plus the head.
      </p>
      {problem && (
        <p className="error-text" role="alert" data-testid="explorer-problem">
          {problem}
        </p>
      )}
    </>
  );
}
