/**
 * The address's side of the view shown (the store's `nav.view` is its one home): the hash mirrors it
 * (`#/train`), so back and forward move between views, a reload opens the same one, and the document's
 * title names it.
 */
import { documentTitle, hashOf, type View, viewFromHash } from '../core/settings/views';

export interface ViewRoute {
  /** Shows a view in the address: a new history entry, unless the address shows it already. */
  show(view: View): void;
}

function withHash(view: View): string {
  return `${location.pathname}${location.search}${hashOf(view)}`;
}

/**
 * Writes `initial` into the address without a new history entry, and from then on tells `onAddress`
 * each view that back, forward or a hash typed by hand brings.
 */
export function startViewRoute(initial: View, onAddress: (view: View) => void): ViewRoute {
  let shown = initial;
  history.replaceState(history.state, '', withHash(initial));
  document.title = documentTitle(initial);
  const follow = () => {
    const view = viewFromHash(location.hash);
    if (!view || view === shown) return;
    shown = view;
    document.title = documentTitle(view);
    onAddress(view);
  };
  window.addEventListener('popstate', follow);
  window.addEventListener('hashchange', follow);
  return {
    show(view) {
      if (view === shown) return;
      shown = view;
      history.pushState(history.state, '', withHash(view));
      document.title = documentTitle(view);
    },
  };
}
