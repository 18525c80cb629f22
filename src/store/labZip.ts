/**
 * Loading a lab model zip (dropped, chosen or saved in this browser) into the store's labZip slice, as
 * the weights field shows it, or why it was refused. The reading itself is the model library's.
 */
import { errorMessage } from '../core/format';
import type { ZipLoaded } from '../core/run/protocol';
import { actions } from './actions';
import { modelLibrary } from './commands';
import type { LabState } from './types';

/** Loads a zip, or a saved model by id; a refused one changes no setting and says why. */
async function load(work: () => Promise<ZipLoaded>, dropped: LabState['labZip']['dropped']): Promise<void> {
  try {
    actions.zipLoaded(await work(), dropped);
  } catch (err) {
    actions.zipRefused(errorMessage(err));
  }
}

/** Loads the bytes of a dropped or chosen zip named `label`. */
export const loadZipBytes = (bytes: Uint8Array, label: string): Promise<void> =>
  load(() => modelLibrary().loadZip(bytes, label), { bytes, label });

export const loadSavedModel = (id: number): Promise<void> => load(() => modelLibrary().loadSaved(id), null);
