// Screens of several resources, one per `?tab=` (isomorphic: the loader, the action and the
// component all pick the tab's resource from the URL).
import type { ResourceDef } from '../../platform/resources/define.ts';

/**
 * A screen of several resources, one per `?tab=` (One Network Data's broadband, mobile
 * subscriptions and mobile access): the first tab is the default; unknown tabs show it.
 */
export function resourceTabs<const M extends Record<string, ResourceDef>>(tabs: M) {
  type T = keyof M & string;
  const keys = Object.keys(tabs) as T[];
  const pick = (url: URL | string): T => {
    const requested = (typeof url === 'string' ? new URL(url, 'http://localhost') : url).searchParams.get('tab');
    return keys.find((key) => key === requested) ?? keys[0];
  };
  return {
    keys,
    defs: tabs,
    /** URL parameters of every tab's list (search, filter, sort, page, form), cleared when the tab changes. */
    listParams: [
      'page',
      'q',
      'sort',
      'dir',
      'new',
      'edit',
      ...keys.flatMap((key) => tabs[key].list.filter?.param ?? []),
    ],
    tabOf: pick,
    /** The tab's declaration (one of the tabs' declarations: their rows' type is the union of theirs). */
    defOf: (url: URL | string): M[T] => tabs[pick(url)],
  };
}
