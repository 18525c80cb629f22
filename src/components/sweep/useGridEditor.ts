import { useState } from 'react';
import {
  DEFAULT_SWEEP_PRESETS,
  parseNumberList,
  validateGrid,
  type SweepGrid,
  type SweepPreset,
  type SweepProblem,
} from '../../core/sweep/sweep';
import { atFloat16, gridPrecisions, SWEEP_PRECISIONS, type SweepPrecision } from '../../core/sweep/precision';

export type ListKey = 'batches' | 'sizes';

export interface GridEditor {
  /** What each list field shows: the text being typed, or the grid's own list. */
  text: Record<ListKey, string>;
  /** Problems with the text being typed and with the grid; the sweep cannot run while there are any. */
  problems: SweepProblem[];
  editList(key: ListKey, text: string): void;
  settleList(key: ListKey): void;
  /** The built-in presets, then any other preset the grid holds. */
  available: SweepPreset[];
  togglePreset(preset: SweepPreset, on: boolean): void;
  /** The precisions the grid measures, and turning one on or off. */
  precisions: SweepPrecision[];
  togglePrecision(precision: SweepPrecision, on: boolean): void;
  presetLabel(id: string): string;
}

/**
 * Editing state of a sweep grid. A list is written to the grid as soon as its text parses; text that
 * does not parse yet stays a draft, reported as a problem, so typing "4, " never empties the grid.
 */
export function useGridEditor(grid: SweepGrid, onGridChange: (grid: SweepGrid) => void): GridEditor {
  // Text being typed into a list field; null shows the grid's own list.
  const [drafts, setDrafts] = useState<Record<ListKey, string | null>>({ batches: null, sizes: null });
  const draftProblems = (['batches', 'sizes'] as const).flatMap((key) => {
    const draft = drafts[key];
    return draft === null ? [] : parseNumberList(draft, key).problems;
  });
  const available = [
    ...DEFAULT_SWEEP_PRESETS,
    ...grid.presets.filter((p) => !DEFAULT_SWEEP_PRESETS.some((d) => d.id === p.id)),
  ];
  // Labels of the presets as run, float16 ones included (points name their preset by id).
  const labelled = [...available, ...available.filter((p) => p.phase === 'fine-tune').map(atFloat16)];
  return {
    text: {
      batches: drafts.batches ?? grid.batches.join(', '),
      sizes: drafts.sizes ?? grid.sizes.join(', '),
    },
    problems: [...draftProblems, ...validateGrid(grid)],
    editList: (key, text) => {
      setDrafts((d) => ({ ...d, [key]: text }));
      const parsed = parseNumberList(text, key);
      if (parsed.problems.length === 0) onGridChange({ ...grid, [key]: parsed.values });
    },
    settleList: (key) => {
      const draft = drafts[key];
      if (draft !== null && parseNumberList(draft, key).problems.length === 0)
        setDrafts((d) => ({ ...d, [key]: null }));
    },
    available,
    togglePreset: (preset, on) => {
      const ids = new Set(grid.presets.map((p) => p.id));
      if (on) ids.add(preset.id);
      else ids.delete(preset.id);
      onGridChange({ ...grid, presets: available.filter((p) => ids.has(p.id)) });
    },
    precisions: gridPrecisions(grid),
    togglePrecision: (precision, on) => {
      const chosen = new Set(gridPrecisions(grid));
      if (on) chosen.add(precision);
      else chosen.delete(precision);
      onGridChange({ ...grid, precisions: SWEEP_PRECISIONS.map((p) => p.id).filter((id) => chosen.has(id)) });
    },
    presetLabel: (id) => labelled.find((p) => p.id === id)?.label ?? id,
  };
}
