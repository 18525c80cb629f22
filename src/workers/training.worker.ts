// The training worker: a thin shell that forwards requests to the engine (training never blocks the page).
import { UNSOLICITED, type EngineReply, type EngineRequest } from '../core/run/protocol';
import { LabEngine } from '../browser/engine';
import { dispatchWire, toEngineError } from './dispatch';

const post = (reply: EngineReply) => self.postMessage(reply);
const engine = new LabEngine(true, (event) => post({ id: UNSOLICITED, type: 'progress', event }));

self.onmessage = (ev: MessageEvent<EngineRequest>) => {
  const req = ev.data;
  dispatchWire(engine, req, (event) => post({ id: req.id, type: 'progress', event })).then(
    (value) => post({ id: req.id, type: 'result', value }),
    (err: unknown) => post({ id: req.id, type: 'error', error: toEngineError(err) }),
  );
};
