import type { LayerGroup } from '../../core/model/layerTable';
import type { ModelSpec } from '../../core/model/modelSpec';
import { onExplorerKey } from './keyboard';
import { Group } from './LayerGroup';

interface Props {
  spec: ModelSpec;
  groups: readonly LayerGroup[];
  trainable: ReadonlySet<string>;
  /** Blocks shown expanded. */ open: ReadonlySet<string>;
  onExpand(block: string): void;
  /** Receives the layers that train after a toggle. */ onChange(next: ReadonlySet<string>): void;
  disabled: boolean;
}

/** The layer table: one row group per block, its layers shown when expanded; usable from the keyboard. */
export function LayerTable({ spec, groups, trainable, open, onExpand, onChange, disabled }: Props) {
  return (
    // Arrow keys move between the table's controls (see keyboard.ts); each control keeps its own Tab stop.
    // The table scrolls inside its box, so a model of 80 blocks keeps the view to a few screens.
    <div className="layer-table-scroll">
      <table className="layer-table" onKeyDown={onExplorerKey} aria-describedby="layer-table-keys">
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
            onExpand={() => onExpand(group.block)}
            onChange={onChange}
            disabled={disabled}
          />
        ))}
      </table>
    </div>
  );
}

/** How to use the table from the keyboard, read with it by screen readers. */
export function LayerTableKeys() {
  return (
    <p className="hint" id="layer-table-keys">
      Keyboard: ↑ ↓ move between rows, → opens a block and ← closes it, Space toggles training.
    </p>
  );
}
