import { useStore } from 'zustand';
import { labStore } from '../../store/store';
import type { LabState } from '../../store/types';

/** Subscribes a component to one value of the store; it re-renders only when that value changes. */
export function useLab<T>(selector: (s: LabState) => T): T {
  return useStore(labStore, selector);
}
