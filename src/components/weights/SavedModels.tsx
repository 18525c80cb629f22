import { useCallback, useEffect, useState } from 'react';
import { catalogEntry } from '../../core/model/models';
import type { SavedModelMeta } from '../../core/run/protocol';
import { modelLibrary } from '../../store/commands';
import { loadSavedModel } from '../../store/labZip';
import { useLab } from '../ui/useLab';
import { errorMessage, formatBytes } from '../../core/format';

/** The saved models, re-read after any save or delete on the page (the results panel saves too). */
function useSavedModels() {
  const [list, setList] = useState<SavedModelMeta[]>([]);
  const [error, setError] = useState<string | null>(null);
  const refresh = useCallback(() => {
    modelLibrary()
      .list()
      .then(setList, (e: unknown) => setError(`The saved models could not be read: ${errorMessage(e)}`));
  }, []);
  useEffect(() => {
    refresh();
    return modelLibrary().onChange(refresh);
  }, [refresh]);
  return { list, error, setError };
}

/** The zip loaded last: what it is, and a button to keep a dropped one in this browser. */
function LoadedZip({ onError }: { onError(message: string): void }) {
  const { loaded, error, dropped } = useLab((s) => s.labZip);
  const [kept, setKept] = useState<string | null>(null);
  const keep = async () => {
    if (!dropped) return;
    try {
      const saved = await modelLibrary().keepZip(dropped.bytes, dropped.label);
      setKept(`Kept in this browser as '${saved.name}'.`);
    } catch (err) {
      onError(errorMessage(err));
    }
  };
  return (
    <>
      {error && (
        <p role="alert" className="error-text" data-testid="zip-error">
          {error}
        </p>
      )}
      {loaded && (
        <p data-testid="zip-loaded">
          Lab model {loaded.label}: {loaded.summary}.{' '}
          {dropped && (
            <button type="button" data-testid="zip-keep" onClick={() => void keep()}>
              Keep in this browser
            </button>
          )}{' '}
          {kept && <span role="status">{kept}</span>}
        </p>
      )}
    </>
  );
}

/** One saved model: what it is, and buttons to load it into the lab or delete it. */
function SavedRow({ m, onDelete }: { m: SavedModelMeta; onDelete(id: number): void }) {
  return (
    <li data-testid="saved-model">
      <strong>{m.name}</strong> — {catalogEntry(m.model).displayName} {m.height}×{m.width},{' '}
      {m.classes.length > 0 ? m.classes.join(', ') : `${m.numClasses} classes`}
      {m.valAccuracy !== null && `, val. accuracy ${(m.valAccuracy * 100).toFixed(1)}%`},{' '}
      {formatBytes(m.bytes)}, saved {new Date(m.savedAt).toLocaleString()}{' '}
      <button
        type="button"
        data-testid="saved-model-load"
        aria-label={`Load ${m.name} into the lab`}
        onClick={() => void loadSavedModel(m.id!)}
      >
        Load into the lab
      </button>{' '}
      <button
        type="button"
        data-testid="saved-model-delete"
        aria-label={`Delete ${m.name}`}
        onClick={() => onDelete(m.id!)}
      >
        Delete
      </button>
    </li>
  );
}

/**
 * Lab models as starting weights: the zip loaded last, and the models saved in this browser (IndexedDB),
 * each loadable back into the lab (its architecture, input size and weights) or deleted.
 */
export function SavedModels() {
  const { list, error, setError } = useSavedModels();
  const remove = (id: number) =>
    modelLibrary()
      .remove(id)
      .catch((e: unknown) => setError(`Not deleted: ${errorMessage(e)}`));
  return (
    <div className="saved-models" data-testid="saved-models">
      <LoadedZip onError={setError} />
      {error && (
        <p role="alert" className="error-text" data-testid="saved-models-error">
          {error}
        </p>
      )}
      <p className="hint">
        Models saved in this browser
        {list.length === 0 ? ': none yet (save one after a run, or keep a loaded zip).' : ':'}
      </p>
      {list.length > 0 && (
        <ul>
          {list.map((m) => (
            <SavedRow key={m.id} m={m} onDelete={(id) => void remove(id)} />
          ))}
        </ul>
      )}
    </div>
  );
}
