import { useId } from 'react';
import { graphSweepGrid, graphSweepWords } from '../../core/sweep/graphChoice';
import { SWEEP_FIELD_LABELS, type SweepGrid, type SweepProblem } from '../../core/sweep/sweep';
import { FLOAT16_WORDS } from '../../core/oom/remedies';
import { SWEEP_PRECISIONS } from '../../core/sweep/precision';
import { useLab } from '../ui/useLab';
import type { GridEditor as Editor, ListKey } from './useGridEditor';

interface GridEditorProps {
  grid: SweepGrid;
  editor: Editor;
  /** A sweep or a search is running: the grid it reads cannot change. */ disabled: boolean;
}

/** The grid: batch sizes, input sizes, trainable presets and precisions, with the problems that stop it running. */
export function GridEditor({ grid, editor, disabled }: GridEditorProps) {
  const { problems } = editor;
  // A graph model's sweep measures its frozen phase at its own size: the rest is off, with the reason.
  const graph = useLab((s) => s.config.weights === 'graph');
  const graphSize = useLab((s) => s.config.height);
  const shown = graph ? graphSweepGrid(grid, graphSize) : grid;
  return (
    <fieldset disabled={disabled}>
      <legend>Grid</legend>
      {graph && <GraphSweepNote />}
      <div className="fields">
        <ListField field="batches" hint="comma-separated, e.g. 4, 8, 16, 32" editor={editor} />
        {graph ? (
          <ListField
            field="sizes"
            hint="the graph model's own input"
            editor={editor}
            fixed={String(graphSize)}
          />
        ) : (
          <ListField field="sizes" hint="square, in pixels, multiples of 8" editor={editor} />
        )}
      </div>
      <fieldset className="sweep-presets" aria-describedby="sweep-presets-problems">
        <legend>Trainable presets</legend>
        {editor.available.map((p) => (
          <label key={p.id}>
            <input
              type="checkbox"
              checked={shown.presets.some((g) => g.id === p.id)}
              disabled={graph && p.phase !== 'frozen'}
              onChange={(e) => editor.togglePreset(p, e.target.checked)}
              data-testid={`sweep-preset-${p.id}`}
            />{' '}
            {p.label}
          </label>
        ))}
        <Problems id="sweep-presets-problems" problems={problems} field="presets" />
      </fieldset>
      <PrecisionField editor={editor} off={graph} />
      <Problems problems={problems} field="points" />
    </fieldset>
  );
}

interface ProblemsProps {
  id?: string;
  problems: SweepProblem[];
  field: SweepProblem['field'];
}

/** The problems that name one field, or nothing. */
function Problems({ id, problems, field }: ProblemsProps) {
  const mine = problems.filter((p) => p.field === field);
  if (mine.length === 0) return null;
  return (
    <ul id={id} className="sweep-problems error-text" data-testid={`sweep-problems-${field}`}>
      {mine.map((p) => (
        <li key={p.message}>{p.message}</li>
      ))}
    </ul>
  );
}

interface ListFieldProps {
  field: ListKey;
  hint: string;
  editor: Editor;
  /** A value that does not apply to edit (a graph model's size): shown, disabled. */
  fixed?: string;
}

/** A comma-separated list of numbers, with the problems that name it. */
function ListField({ field, hint, editor, fixed }: ListFieldProps) {
  const id = useId();
  const invalid = fixed === undefined && editor.problems.some((p) => p.field === field);
  return (
    <div className="field sweep-list">
      <label htmlFor={id}>{SWEEP_FIELD_LABELS[field]}</label>
      <input
        id={id}
        type="text"
        inputMode="numeric"
        value={fixed ?? editor.text[field]}
        disabled={fixed !== undefined}
        aria-invalid={invalid}
        aria-describedby={`${id}-hint ${id}-problems`}
        onChange={(e) => editor.editList(field, e.target.value)}
        onBlur={() => editor.settleList(field)}
        data-testid={`sweep-${field}`}
      />
      <small id={`${id}-hint`} className="hint">
        {hint}
      </small>
      {fixed === undefined && <Problems id={`${id}-problems`} problems={editor.problems} field={field} />}
    </div>
  );
}

/**
 * The precision axis: float32, and float16 storage (checkpointed, boundaries packed as float16 pairs),
 * each measured; fine-tune presets only, as the frozen phase keeps no checkpoint boundaries.
 */
function PrecisionField({ editor, off }: { editor: Editor; off: boolean }) {
  return (
    <fieldset className="sweep-presets" disabled={off}>
      <legend>Precision</legend>
      {SWEEP_PRECISIONS.map((p) => (
        <label key={p.id}>
          <input
            type="checkbox"
            checked={off ? p.id === 'float32' : editor.precisions.includes(p.id)}
            onChange={(e) => editor.togglePrecision(p.id, e.target.checked)}
            data-testid={`sweep-precision-${p.id}`}
          />{' '}
          {p.label}
        </label>
      ))}
      <p className="hint">
        {FLOAT16_WORDS}: float16 storage applies to fine-tune presets (their checkpoint boundaries); the Keras
        columns stay the mixed-float16 prediction.
      </p>
    </fieldset>
  );
}

/** Why a graph model's sweep measures fewer points than the grid names, in words. */
function GraphSweepNote() {
  const height = useLab((s) => s.config.height);
  const width = useLab((s) => s.config.width);
  const reason = useLab((s) => s.weights.loaded?.reason);
  return (
    <p className="hint warn-text" data-testid="sweep-graph-note">
      {graphSweepWords(height, width)} {reason}
    </p>
  );
}
