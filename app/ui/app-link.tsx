// In-app links for the parts every page renders many of (the sidebar, the header, table rows,
// sort headers, pagination). Remix's <Link> is several components and a dozen hooks per link
// (prefetch state, href resolution twice, a click handler), ~45 of them on a list page: a
// measurable part of each server render (bench/README.md). An AppLink renders one <a>, so it
// works as a plain link without JavaScript; with JavaScript, one click listener on the document
// (useAppLinkNavigation, installed by the root) turns a plain left click on it into Remix's
// client-side navigation, as <Link> does. Links that need more of <Link> (state, replace, an
// onClick of their own, reloadDocument) stay <Link>.
//
// What a link does follows from its `to`, so it carries no attribute of its own:
// - a path ("/budgets"): another page. It has `data-discover`, as <Link> renders it, so that
//   Remix's lazy route discovery finds its route ahead of a click; the scroll goes to the top.
// - a query ("?page=2", as withParams builds it): this page with other list state (sorting,
//   paging, a row's form). The browser resolves it against the page's URL; the scroll stays.
import { useNavigate } from '@remix-run/react';
import { useEffect, type AnchorHTMLAttributes } from 'react';

type AppLinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & {
  /** An absolute path of this app, or `?…` (this page with other parameters). */
  to: string;
};

export function AppLink({ to, ...rest }: AppLinkProps) {
  // eslint-disable-next-line jsx-a11y/anchor-has-content -- the content comes in rest.children
  return <a {...rest} href={to} data-discover={to.startsWith('?') ? undefined : 'true'} />;
}

/** The links the document's click listener navigates: AppLinks (and <Link>s, which handle their own clicks first). */
const APP_LINK_SELECTOR = 'a[data-discover], a[href^="?"]';

/** Whether a click is one the page handles itself rather than the browser (as react-router's Link decides). */
function isPlainLeftClick(
  event: Pick<MouseEvent, 'button' | 'metaKey' | 'altKey' | 'ctrlKey' | 'shiftKey' | 'defaultPrevented'>,
): boolean {
  return (
    !event.defaultPrevented &&
    event.button === 0 &&
    !event.metaKey &&
    !event.altKey &&
    !event.ctrlKey &&
    !event.shiftKey
  );
}

/** The root's part: a plain left click on an AppLink navigates client-side. */
export function useAppLinkNavigation(): void {
  const navigate = useNavigate();
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      if (!isPlainLeftClick(event) || !(event.target instanceof Element)) return;
      const link = event.target.closest<HTMLAnchorElement>(APP_LINK_SELECTOR);
      if (!link || (link.target && link.target !== '_self') || link.hasAttribute('download')) return;
      const url = new URL(link.href);
      if (url.origin !== window.location.origin) return;
      event.preventDefault();
      const path = `${url.pathname}${url.search}${url.hash}`;
      const here = `${window.location.pathname}${window.location.search}${window.location.hash}`;
      // A link to the page already shown replaces it in the history, as <Link> does.
      navigate(path, { preventScrollReset: link.getAttribute('href')!.startsWith('?'), replace: path === here });
    };
    document.addEventListener('click', onClick);
    return () => document.removeEventListener('click', onClick);
  }, [navigate]);
}
