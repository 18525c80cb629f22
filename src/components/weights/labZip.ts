// The lab model zip loaded last (dropped, chosen or saved in this browser), as the weights field shows
// it, or why it was refused. The reading itself is the model library's (store/commands).
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import type { ZipLoaded } from '../../core/run/protocol';
import { modelLibrary } from '../../store/commands';
import { errorMessage } from '../../core/format';

interface ZipState {
  loaded: ZipLoaded | null;
  error: string | null;
  /** A dropped zip's bytes, so it can be kept in this browser; null for a saved one. */
  dropped: { bytes: Uint8Array; label: string } | null;
}

const zipState = createStore<ZipState>()(() => ({ loaded: null, error: null, dropped: null }));

export const useZipState = <T>(pick: (s: ZipState) => T): T => useStore(zipState, pick);

/** Loads a zip, or a saved model by id; a refused one changes no setting and says why. */
async function load(work: () => Promise<ZipLoaded>, dropped: ZipState['dropped']): Promise<void> {
  try {
    zipState.setState({ loaded: await work(), error: null, dropped });
  } catch (err) {
    zipState.setState({ loaded: null, error: errorMessage(err), dropped: null });
  }
}

/** Loads a dropped or chosen zip file. */
export async function loadZipFile(file: File): Promise<void> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  await load(() => modelLibrary().loadZip(bytes, file.name), { bytes, label: file.name });
}

export const loadSavedModel = (id: number): Promise<void> => load(() => modelLibrary().loadSaved(id), null);
