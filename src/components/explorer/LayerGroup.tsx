import { toggleBlock, toggleLayer, type LayerGroup, type LayerRow } from '../../core/model/layerTable';
import type { ModelSpec } from '../../core/model/modelSpec';
import { count } from '../../core/format';
import { shapeText } from './format';

interface GroupProps {
  spec: ModelSpec;
  group: LayerGroup;
  trainable: ReadonlySet<string>;
  expanded: boolean;
  onExpand(): void;
  onChange(next: ReadonlySet<string>): void;
  disabled: boolean;
}

/** One block: its checkbox and expand button, and when expanded its layers. */
export function Group({ spec, group, trainable, expanded, onExpand, onChange, disabled }: GroupProps) {
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

/** One layer: whether it trains, its name, type, output shape and parameters. */
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
