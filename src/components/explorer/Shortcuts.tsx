import { useId, useState } from 'react';
import type { LayerGroup } from '../../core/model/layerTable';
import type { ModelSpec } from '../../core/model/modelSpec';
import type { TrainableSet } from '../../core/settings/trainConfig';

const DEFAULT_LAST_N = 20;

interface ShortcutsProps {
  spec: ModelSpec;
  /** The rule in force: each shortcut's field starts from it, so no field shows a number that is not the set. */
  rule: TrainableSet;
  groups: readonly LayerGroup[];
  onChange(next: TrainableSet): void;
  disabled: boolean;
}

/** The shortcuts to a rule: last N layers, from a block on, all, head only. */
export function Shortcuts({ spec, rule, groups, onChange, disabled }: ShortcutsProps) {
  const blocks = groups.filter((g) => g.toggleable).map((g) => g.block);
  return (
    <div className="row explorer-shortcuts">
      <LastNShortcut
        spec={spec}
        initial={rule.kind === 'last' ? rule.n : DEFAULT_LAST_N}
        onChange={onChange}
        disabled={disabled}
      />
      {blocks.length > 0 && (
        <FromBlockShortcut
          blocks={blocks}
          initial={rule.kind === 'from-block' ? rule.block : ''}
          onChange={onChange}
          disabled={disabled}
        />
      )}
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
function LastNShortcut({
  spec,
  initial,
  onChange,
  disabled,
}: ShortcutProps & { spec: ModelSpec; initial: number }) {
  const id = useId();
  const maxN = Math.max(0, spec.backboneLayerCount - 1);
  const [lastN, setLastN] = useState(() => Math.min(initial, maxN));
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
function FromBlockShortcut({
  blocks,
  initial,
  onChange,
  disabled,
}: ShortcutProps & { blocks: string[]; initial: string }) {
  const id = useId();
  const [chosen, setChosen] = useState(initial);
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
