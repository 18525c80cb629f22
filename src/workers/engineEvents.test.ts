import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EngineEvent, EngineParams, EngineRequestType, EngineResult } from '../core/run/protocol';
import { DEFAULT_TRAIN_CONFIG } from '../core/settings/settings';
import { initialState } from '../store/initial';
import { engineEvents, runStarted, type TimedEvent } from '../store/runReducers';
import type { LabState } from '../store/types';
import { EventBatcher, FLUSH_MS } from './engineEvents';
import type { Transport } from './transport';

const memory = (t: number): EngineEvent => ({
  kind: 'memory',
  samples: [{ t, liveBytes: t, numTensors: 1 }],
});
const log = (message: string): EngineEvent => ({ kind: 'log', level: 'info', message });

/** A store stand-in that applies each delivery with the real reducer and counts the updates. */
function sink() {
  const plan = { trainCount: 10, validationCount: 2, resumeFrom: null };
  const state = { s: runStarted(initialState(), { config: DEFAULT_TRAIN_CONFIG, plan, appliedFix: null }) };
  const deliveries: TimedEvent[][] = [];
  const apply = (events: TimedEvent[]) => {
    deliveries.push(events);
    state.s = engineEvents(state.s, events);
  };
  return { state, deliveries, apply };
}

const times = (s: LabState) => s.memory.samples.map((x) => x.t);

describe('EventBatcher', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('holds high-rate events back for at most FLUSH_MS and delivers them in one update', () => {
    const { state, deliveries, apply } = sink();
    const b = new EventBatcher(apply);
    for (let t = 1; t <= 5; t++) b.push(memory(t));
    expect(deliveries).toHaveLength(0);
    vi.advanceTimersByTime(FLUSH_MS - 1);
    expect(deliveries).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(deliveries).toHaveLength(1);
    expect(times(state.s)).toEqual([1, 2, 3, 4, 5]);
  });

  it('delivers what waits before any other event, in the engine order', () => {
    const { state, deliveries, apply } = sink();
    const b = new EventBatcher(apply);
    b.push(memory(1));
    b.push(log('phase two'));
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]!.map((d) => d.event.kind)).toEqual(['memory', 'log']);
    expect(times(state.s)).toEqual([1]);
    expect(state.s.log.at(-1)?.message).toBe('phase two');
    // Nothing is left to deliver, so the pending timer does not produce an empty update.
    vi.advanceTimersByTime(FLUSH_MS * 2);
    expect(deliveries).toHaveLength(1);
  });

  it('puts a request’s events in the store before its result or its failure is seen', async () => {
    const { state, apply } = sink();
    const b = new EventBatcher(apply);
    const transport = (fail: boolean): Transport => ({
      send<K extends EngineRequestType>(_req: EngineParams<K>, onEvent?: (e: EngineEvent) => void) {
        onEvent?.(memory(fail ? 20 : 10));
        return fail ? Promise.reject(new Error('lost')) : Promise.resolve(null as EngineResult<K>);
      },
      close() {},
    });
    await b.send(transport(false), { type: 'stop' });
    expect(times(state.s)).toEqual([10]);
    await expect(b.send(transport(true), { type: 'stop' })).rejects.toThrow('lost');
    expect(times(state.s)).toEqual([10, 20]);
  });
});
