import { rowNormalised } from '../../core/run/diagnostics';

/** A (true, predicted) cell of the matrix. */
export interface Cell {
  label: number;
  predicted: number;
}

interface Props {
  counts: number[][];
  classNames: readonly string[];
  selected: Cell | null;
  /** Called with the cell clicked, or null when the selected cell is clicked again. */
  onSelect: (cell: Cell | null) => void;
}

const pct = (x: number) => `${Math.round(x * 100)}%`;

/**
 * Rows are true classes, columns predictions; each cell shows its count and its share of the row.
 * Every cell is a button (keyboard-reachable) that filters the misclassified gallery to that pair.
 */
export function ConfusionMatrix({ counts, classNames, selected, onSelect }: Props) {
  const shares = rowNormalised(counts);
  const name = (i: number) => classNames[i] ?? `class ${i}`;
  return (
    <table className="confusion" data-testid="confusion-matrix">
      <caption>Confusion matrix: rows are true classes, columns predicted (count, share of the row)</caption>
      <thead>
        <tr>
          <th scope="col">true \ predicted</th>
          {counts.map((_, p) => (
            <th scope="col" key={p}>
              {name(p)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {counts.map((row, t) => (
          <tr key={t}>
            <th scope="row">{name(t)}</th>
            {row.map((count, p) => {
              const isSelected = selected?.label === t && selected.predicted === p;
              const share = shares[t]?.[p] ?? 0;
              return (
                <td key={p} className={t === p ? 'diagonal' : count > 0 ? 'confused' : ''}>
                  <button
                    type="button"
                    data-testid={`cell-${t}-${p}`}
                    data-count={count}
                    aria-pressed={isSelected}
                    aria-label={`${count} ${name(t)} images predicted as ${name(p)} (${pct(share)} of ${name(t)})`}
                    style={{ ['--share' as string]: share }}
                    onClick={() => onSelect(isSelected ? null : { label: t, predicted: p })}
                  >
                    <span className="count">{count}</span> <span className="share">{pct(share)}</span>
                  </button>
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
