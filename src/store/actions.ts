/**
 * The named actions: every change of state is one of these. Each is a pure reducer from reducers.ts or
 * runReducers.ts bound to the store, so the reducers can be tested in Node without a store.
 */
import type { StoreApi } from 'zustand/vanilla';
import * as historyReducers from './historyReducers';
import * as reducers from './reducers';
import * as resumeReducers from './resumeReducers';
import * as runReducers from './runReducers';
import { labStore } from './store';
import type { LabState } from './types';

type Reducer = (s: LabState, ...args: never[]) => LabState;
type Bound<R> = {
  [K in keyof R as R[K] extends Reducer ? K : never]: R[K] extends (s: LabState, ...args: infer A) => LabState
    ? (...args: A) => void
    : never;
};

/** Each reducer of `module` as an action on `store`; non-reducer exports (constants) are left out. */
export function bindActions<R extends object>(store: StoreApi<LabState>, module: R): Bound<R> {
  const bound: Record<string, (...args: unknown[]) => void> = {};
  for (const [name, value] of Object.entries(module)) {
    if (typeof value !== 'function') continue;
    const reducer = value as (s: LabState, ...args: unknown[]) => LabState;
    bound[name] = (...args) => store.setState((s) => reducer(s, ...args), true);
  }
  return bound as Bound<R>;
}

export const actions = {
  ...bindActions(labStore, reducers),
  ...bindActions(labStore, runReducers),
  ...bindActions(labStore, resumeReducers),
  ...bindActions(labStore, historyReducers),
};

/** Appends a log line stamped now. */
export function appendLog(level: 'info' | 'warn' | 'error', message: string): void {
  actions.logged(level, message, Date.now());
}

/** Refuses a command with a message the user sees. */
export function refuse(message: string): void {
  actions.refused(message, Date.now());
}
