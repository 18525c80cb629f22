import { useId, useMemo, useState } from 'react';
import {
  groupRows,
  layerRows,
  paramTotals,
  toggleBlock,
  toggleLayer,
  type LayerGroup,
  type LayerRow,
} from '../core/layerTable';
import type { ModelSpec } from '../core/modelSpec';
import { trainableLabel } from '../core/trainable';
import type { TrainableSet } from '../core/trainConfig';
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

const count = (n: number) => n.toLocaleString('en-US');
const shapeText = (shape: readonly number[]) => ['batch', ...shape].join(' × ');
const DEFAULT_LAST_N = 20;

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
  // A toggle by hand turns the rule into an explicit list of backbone layers (the head always trains).
  const choose = (next: ReadonlySet<string>) =>
    onChange({
      kind: 'layers',
      names: spec.layers
        .slice(0, spec.backboneLayerCount)
        .map((l) => l.name)
        .filter((n) => next.has(n)),
    });
  const titleId = useId();
  const rows = useMemo(() => layerRows(spec, trainable), [spec, trainable]);
  const groups = useMemo(() => groupRows(rows), [rows]);
  const totals = useMemo(() => paramTotals(rows), [rows]);
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set());
  const toggleOpen = (block: string) => setOpen((prev) => toggleLayer(prev, block));

  return (
    <section className="panel layer-explorer" aria-labelledby={titleId} data-testid="layer-explorer">
      <h2 id={titleId}>Layers</h2>
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
          <Shortcuts key={spec.name} spec={spec} groups={groups} onChange={onChange} disabled={disabled} />
          <p className="hint" data-testid="explorer-rule">
            Fine-tuning trains: <strong>{trainableLabel(rule)}</strong> of the backbone, plus the head.
          </p>
          {problem && (
            <p className="error-text" role="alert" data-testid="explorer-problem">
              {problem}
            </p>
          )}
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
          <p className="hint">
            BatchNorm layers left frozen run in inference mode, as in Keras: they normalise with their moving
            mean and variance and do not update them; those statistics never count as trainable.
          </p>
          <table className="layer-table">
            <thead>
              <tr>
                <th scope="col">Train</th>
                <th scope="col">Layer</th>
                <th scope="col">Type</th>
                <th scope="col">Output shape (N × H × W × C)</th>
                <th scope="col">Parameters</th>
              </tr>
            </thead>
            {groups.map((group) => (
              <Group
                key={group.block}
                spec={spec}
                group={group}
                trainable={trainable}
                expanded={open.has(group.block)}
                onExpand={() => toggleOpen(group.block)}
                onChange={choose}
                disabled={disabled}
              />
            ))}
          </table>
        </>
      )}
    </section>
  );
}

interface ShortcutsProps {
  spec: ModelSpec;
  groups: readonly LayerGroup[];
  onChange(next: TrainableSet): void;
  disabled: boolean;
}

function Shortcuts({ spec, groups, onChange, disabled }: ShortcutsProps) {
  const blocks = groups.filter((g) => g.toggleable).map((g) => g.block);
  return (
    <div className="row explorer-shortcuts">
      <LastNShortcut spec={spec} onChange={onChange} disabled={disabled} />
      {blocks.length > 0 && <FromBlockShortcut blocks={blocks} onChange={onChange} disabled={disabled} />}
      <button type="button" disabled={disabled} onClick={() => onChange({ kind: 'all' })}>
        All
      </button>
      <button type="button" disabled={disabled} onClick={() => onChange({ kind: 'head' })}>
        Head only
      </button>
    </div>
  );
}

type ShortcutProps = Pick<ShortcutsProps, 'onChange' | 'disabled'>;

/** The last N backbone layers, as in Keras' `base_model.layers[-N:]`. */
function LastNShortcut({ spec, onChange, disabled }: ShortcutProps & { spec: ModelSpec }) {
  const id = useId();
  const maxN = Math.max(0, spec.backboneLayerCount - 1);
  const [lastN, setLastN] = useState(() => Math.min(DEFAULT_LAST_N, maxN));
  const valid = Number.isInteger(lastN) && lastN >= 0 && lastN <= maxN;
  return (
    <div className="field">
      <label htmlFor={id}>Backbone layers to unfreeze, from the end</label>
      <span className="explorer-inline">
        <input
          id={id}
          type="number"
          min={0}
          max={maxN}
          step={1}
          value={Number.isFinite(lastN) ? lastN : ''}
          disabled={disabled}
          onChange={(e) => setLastN(e.target.value === '' ? Number.NaN : Number(e.target.value))}
        />
        <button
          type="button"
          disabled={disabled || !valid}
          onClick={() => onChange({ kind: 'last', n: lastN })}
        >
          Unfreeze last N layers
        </button>
      </span>
    </div>
  );
}

/** Every backbone layer from the start of a block on. */
function FromBlockShortcut({ blocks, onChange, disabled }: ShortcutProps & { blocks: string[] }) {
  const id = useId();
  const [chosen, setChosen] = useState('');
  const fromBlock = blocks.includes(chosen) ? chosen : (blocks[0] ?? '');
  return (
    <div className="field">
      <label htmlFor={id}>First block to unfreeze</label>
      <span className="explorer-inline">
        <select id={id} value={fromBlock} disabled={disabled} onChange={(e) => setChosen(e.target.value)}>
          {blocks.map((b) => (
            <option key={b} value={b}>
              {b}
            </option>
          ))}
        </select>
        <button
          type="button"
          disabled={disabled}
          onClick={() => onChange({ kind: 'from-block', block: fromBlock })}
        >
          Unfreeze from block
        </button>
      </span>
    </div>
  );
}

interface GroupProps {
  spec: ModelSpec;
  group: LayerGroup;
  trainable: ReadonlySet<string>;
  expanded: boolean;
  onExpand(): void;
  onChange(next: ReadonlySet<string>): void;
  disabled: boolean;
}

function Group({ spec, group, trainable, expanded, onExpand, onChange, disabled }: GroupProps) {
  const { block, rows, state, toggleable } = group;
  return (
    <tbody data-testid={`block-${block}`}>
      <tr className="layer-group">
        <td>
          {rows.some((r) => r.canTrain) && (
            <input
              type="checkbox"
              aria-label={`train block ${block}`}
              checked={state === 'all'}
              ref={(el) => {
                if (el) el.indeterminate = state === 'some';
              }}
              disabled={disabled || !toggleable}
              title={toggleable ? undefined : 'The head always trains'}
              onChange={() => onChange(toggleBlock(spec, trainable, block))}
            />
          )}
        </td>
        <th scope="rowgroup" colSpan={3}>
          <button type="button" className="layer-group-toggle" aria-expanded={expanded} onClick={onExpand}>
            <span aria-hidden="true">{expanded ? '▾' : '▸'}</span> {block}
          </button>{' '}
          <span className="muted">
            {count(rows.length)} {rows.length === 1 ? 'layer' : 'layers'}
          </span>
        </th>
        <td>
          {count(group.params)} <span className="muted">· {count(group.trainableParams)} training</span>
        </td>
      </tr>
      {expanded &&
        rows.map((row) => (
          <Row
            key={row.name}
            row={row}
            disabled={disabled}
            onToggle={() => onChange(toggleLayer(trainable, row.name))}
          />
        ))}
    </tbody>
  );
}

function Row({ row, disabled, onToggle }: { row: LayerRow; disabled: boolean; onToggle(): void }) {
  return (
    <tr
      data-testid={`layer-row-${row.name}`}
      className={row.trainable && row.canTrain ? 'layer-trains' : undefined}
    >
      <td>
        {row.canTrain ? (
          <input
            type="checkbox"
            aria-label={`train ${row.name}`}
            checked={row.trainable}
            disabled={disabled || row.inHead}
            title={row.inHead ? 'The head always trains' : undefined}
            onChange={onToggle}
          />
        ) : (
          <span className="muted">{row.params > 0 ? 'fixed' : 'no weights'}</span>
        )}
      </td>
      <td>
        <code>{row.name}</code>
      </td>
      <td>{row.className}</td>
      <td>{shapeText(row.outputShape)}</td>
      <td>
        {count(row.params)}
        {row.isBatchNorm && row.fixedParams > 0 && (
          <span className="muted"> ({count(row.fixedParams)} moving statistics)</span>
        )}
      </td>
    </tr>
  );
}
