import { useState, type DragEvent } from 'react';
import { largestBatchRace, mergeResults, type FileProblem } from '../../core/workshop/classResults';
import { ClassTable } from './ClassTable';
import { ExportMyResults } from './ExportMyResults';

/** Files read so far, by name; a file dropped again replaces the earlier one of that name. */
type Dropped = { file: string; text: string }[];

async function readAll(files: readonly File[]): Promise<Dropped> {
  return Promise.all(files.map(async (f) => ({ file: f.name, text: await f.text() })));
}

function Problems({ problems }: { problems: readonly FileProblem[] }) {
  if (problems.length === 0) return null;
  return (
    <div role="alert" data-testid="class-problems">
      <p>Skipped {problems.length === 1 ? 'one file' : `${problems.length} files`}:</p>
      <ul>
        {problems.map((p) => (
          <li key={p.file}>
            <strong>{p.file}</strong>: {p.problem}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The instructor's drop zone and file picker for results files. */
function ClassDrop({ onFiles, onClear }: { onFiles(files: File[]): void; onClear: (() => void) | null }) {
  const [over, setOver] = useState(false);
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    onFiles([...e.dataTransfer.files]);
  };
  return (
    <div
      className={`weights-drop${over ? ' over' : ''}`}
      data-testid="class-drop"
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
    >
      <label>
        Instructor: drop the participants&apos; results files here (they stay in this page), or choose them:{' '}
        <input
          type="file"
          multiple
          accept=".json,application/json"
          data-testid="class-input"
          onChange={(e) => {
            onFiles([...(e.target.files ?? [])]);
            e.target.value = '';
          }}
        />
      </label>
      {onClear && (
        <button type="button" onClick={onClear}>
          Clear the table
        </button>
      )}
    </div>
  );
}

/**
 * A class table without a server: participants export their results, the instructor drops the files here
 * and gets one sortable table and the answer of the "largest batch that fits" race. Nothing leaves the page.
 */
export function ClassResultsPanel() {
  const [dropped, setDropped] = useState<Dropped>([]);
  const add = async (files: readonly File[]) => {
    const read = await readAll(files);
    setDropped((d) => [...d.filter((x) => !read.some((r) => r.file === x.file)), ...read]);
  };
  const merged = mergeResults(dropped);
  const race = largestBatchRace(merged.rows);
  return (
    <section className="panel" aria-labelledby="class-results-title" data-testid="class-results">
      <h2 id="class-results-title">Class results</h2>
      <ExportMyResults />
      <ClassDrop
        onFiles={(files) => void add(files)}
        onClear={dropped.length > 0 ? () => setDropped([]) : null}
      />
      <Problems problems={merged.problems} />
      {merged.names.length > 0 && (
        <>
          <p data-testid="class-race">
            {race
              ? `Largest batch that fits: ${race.batch}, by ${race.winners.map((w) => `${w.name} (${w.settingsText})`).join('; ')}${race.basis === 'planned' ? ' — as planned: nobody has run it yet' : ', measured'}.`
              : 'Largest batch that fits: no run fits yet, and no planned settings fit a card.'}
          </p>
          <p className="hint">
            {merged.names.length} participants: {merged.names.join(', ')}.
          </p>
          <ClassTable rows={merged.rows} />
        </>
      )}
    </section>
  );
}
