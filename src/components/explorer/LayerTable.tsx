import type { LayerGroup } from '../../core/layerTable';
import type { ModelSpec } from '../../core/modelSpec';
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

/** The layer table: one row group per block, its layers shown when expanded. */
export function LayerTable({ spec, groups, trainable, open, onExpand, onChange, disabled }: Props) {
  return (
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
          onExpand={() => onExpand(group.block)}
          onChange={onChange}
          disabled={disabled}
        />
      ))}
    </table>
  );
}
