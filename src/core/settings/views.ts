/**
 * The lab's views: one per task, in the order a person works through them. The view shown lives in the
 * URL's hash (`#/train`), so back and forward move between views and a reload keeps the view; a link's
 * `view=` names a view or one of the panels inside one (the older panel names still open the view
 * that now holds them).
 */

export const VIEWS = [
  { id: 'data', label: 'Data', title: 'Data: images and classes' },
  { id: 'model', label: 'Model', title: 'Model: architecture, weights and layers' },
  { id: 'memory', label: 'Memory', title: 'Memory: the planner and the card' },
  { id: 'train', label: 'Train', title: 'Train: progress and what memory did' },
  { id: 'results', label: 'Results', title: 'Results, exports and history' },
  { id: 'experiments', label: 'Experiments', title: 'Experiments: sweeps and the remedies' },
  { id: 'workshop', label: 'Workshop', title: 'Workshop: the lesson, step by step' },
] as const;

export type View = (typeof VIEWS)[number]['id'];

/** The view a page with no view in its address opens on: loading data is what comes first. */
export const LANDING_VIEW: View = 'data';

/**
 * What a link's `view=` can name, each with the view that holds it and the heading to bring into view
 * there (null: the view's top).
 */
export const LINK_TARGETS = {
  data: { view: 'data', heading: null },
  preview: { view: 'data', heading: 'preview-title' },
  model: { view: 'model', heading: null },
  settings: { view: 'model', heading: null },
  layers: { view: 'model', heading: 'layers-title' },
  memory: { view: 'memory', heading: null },
  card: { view: 'memory', heading: 'card-settings-title' },
  planner: { view: 'memory', heading: 'planner-title' },
  train: { view: 'train', heading: null },
  run: { view: 'train', heading: 'run-title' },
  oom: { view: 'train', heading: 'oom-title' },
  metrics: { view: 'train', heading: 'metrics-title' },
  log: { view: 'train', heading: 'log-title' },
  results: { view: 'results', heading: null },
  history: { view: 'results', heading: 'history-title' },
  experiments: { view: 'experiments', heading: 'experiments-title' },
  sweep: { view: 'experiments', heading: 'sweep-title' },
  workshop: { view: 'workshop', heading: null },
  lessons: { view: 'workshop', heading: 'lessons-title' },
  'class-results': { view: 'workshop', heading: 'class-results-title' },
} as const satisfies Record<string, { view: View; heading: string | null }>;

export type LinkTarget = keyof typeof LINK_TARGETS;
export const LINK_TARGET_IDS = Object.keys(LINK_TARGETS) as LinkTarget[];

export function isView(s: string): s is View {
  return VIEWS.some((v) => v.id === s);
}

export function isLinkTarget(s: string): s is LinkTarget {
  return Object.hasOwn(LINK_TARGETS, s);
}

/** The view a hash names (`#/train`, `#train`), or null when it names none. */
export function viewFromHash(hash: string): View | null {
  const id = hash.replace(/^#\/?/, '');
  return isView(id) ? id : null;
}

export function hashOf(view: View): string {
  return `#/${view}`;
}

export function viewInfo(view: View): (typeof VIEWS)[number] {
  return VIEWS.find((v) => v.id === view)!;
}

/** The document's title on a view: the view first, so a tab strip and the history list tell them apart. */
export function documentTitle(view: View): string {
  return `${viewInfo(view).label} · VRAM Lab`;
}

/**
 * The view a page opens on: the one its hash names (a reload, back or forward), else the one its link
 * names, else the landing view.
 */
export function initialView(hash: string, linkTarget: LinkTarget | null): View {
  return viewFromHash(hash) ?? (linkTarget ? LINK_TARGETS[linkTarget].view : LANDING_VIEW);
}

/** The view after `current` in the direction of an arrow key, wrapping round; Home and End go to the ends. */
export function neighbourView(current: View, key: 'next' | 'previous' | 'first' | 'last'): View {
  const i = VIEWS.findIndex((v) => v.id === current);
  const n = VIEWS.length;
  const j = key === 'first' ? 0 : key === 'last' ? n - 1 : key === 'next' ? (i + 1) % n : (i - 1 + n) % n;
  return VIEWS[j]!.id;
}

/**
 * What "Copy link" names as the view: where the participant is now. The panel the page's own link
 * named is kept while its view is the one shown; the landing view needs no name.
 */
export function linkView(shown: View, opened: LinkTarget | null): LinkTarget | null {
  if (opened !== null && LINK_TARGETS[opened].view === shown) return opened;
  return shown === LANDING_VIEW ? null : shown;
}
