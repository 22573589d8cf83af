// Screens of several resources, one per `?tab=` (isomorphic: the loader, the action and the
// component all pick the tab's resource from the URL).
import type { ResourceDef } from '../../platform/resources/define.ts';

/**
 * A screen of several resources, one per `?tab=` (One Network Data's broadband, mobile
 * subscriptions and mobile access): the first tab is the default; unknown tabs show it.
 */
export function resourceTabs<T extends string>(tabs: Record<T, ResourceDef>) {
  const keys = Object.keys(tabs) as T[];
  const pick = (url: URL | string): T => {
    const requested = (typeof url === 'string' ? new URL(url, 'http://localhost') : url).searchParams.get('tab');
    return keys.find((key) => key === requested) ?? keys[0];
  };
  return {
    keys,
    defs: tabs,
    /** URL parameters of every tab's list (search, filter, sort, page, form), cleared when the tab changes. */
    listParams: ['page', 'q', 'sort', 'dir', 'new', 'edit', ...keys.flatMap((key) => tabs[key].list.filter?.param ?? [])],
    tabOf: pick,
    defOf: (url: URL | string): ResourceDef => tabs[pick(url)],
  };
}
