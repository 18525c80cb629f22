// The training worker: a thin shell that forwards requests to the engine (training never blocks the page).
import type { EngineReply, EngineRequest } from '../core/protocol';
import { LabEngine } from '../browser/engine';
import { dispatch, toEngineError } from './dispatch';

const engine = new LabEngine(true);
const post = (reply: EngineReply) => self.postMessage(reply);

self.onmessage = (ev: MessageEvent<EngineRequest>) => {
  const req = ev.data;
  dispatch(engine, req, (event) => post({ id: req.id, type: 'progress', event })).then(
    (value) => post({ id: req.id, type: 'result', value }),
    (err: unknown) => post({ id: req.id, type: 'error', error: toEngineError(err) }),
  );
};
