/**
 * What the prerendered public pages' own bundle (vite.public.config.ts, record 209) uses in place of React
 * Router: the same exports those pages import (`Link`, `NavLink`, `Outlet`, `Navigate`, `useLocation`,
 * `useNavigate`, `useSearchParams`), where every navigation loads the next document. Each public page is
 * its own prerendered HTML, so a link is a plain anchor and the browser does the rest; the dashboard's
 * single-page app keeps React Router. The markup is React Router's (`data-discover`, `aria-current`), so
 * pages prerendered with React Router hydrate with this without a mismatch.
 * Only the props the public pages pass are supported; anything else is ignored.
 */
import {
  type AnchorHTMLAttributes,
  type CSSProperties,
  createContext,
  forwardRef,
  type ReactNode,
  useContext,
  useEffect,
  useMemo,
} from 'react';

type To = string;
type NavigateOptions = { replace?: boolean };

/** Loads `to` as a new document (`replace`: without a history entry); a number goes back or forward. */
function go(to: To | number, options: NavigateOptions = {}): void {
  if (typeof to === 'number') window.history.go(to);
  else if (options.replace) window.location.replace(to);
  else window.location.assign(to);
}

export function useNavigate(): (to: To | number, options?: NavigateOptions) => void {
  return go;
}

export function useLocation(): { pathname: string; search: string; hash: string; state: null; key: string } {
  return useMemo(
    () => ({
      pathname: window.location.pathname,
      search: window.location.search,
      hash: window.location.hash,
      state: null,
      key: 'default',
    }),
    [],
  );
}

export function useSearchParams(): [
  URLSearchParams,
  (next: URLSearchParams, options?: NavigateOptions) => void,
] {
  const params = useMemo(() => new URLSearchParams(window.location.search), []);
  const setParams = (next: URLSearchParams, options?: NavigateOptions) =>
    go(`${window.location.pathname}?${next.toString()}`, options);
  return [params, setParams];
}

/** Sends the visitor on once rendered (a signed-in viewer on /login goes to the dashboard). */
export function Navigate({ to, replace }: { to: To; replace?: boolean }): null {
  useEffect(() => go(to, { replace }), [to, replace]);
  return null;
}

const OutletContext = createContext<ReactNode>(null);

/** Gives a layout's `<Outlet />` the page it frames. */
export function OutletProvider({ page, children }: { page: ReactNode; children: ReactNode }) {
  return <OutletContext.Provider value={page}>{children}</OutletContext.Provider>;
}

export function Outlet() {
  return <>{useContext(OutletContext)}</>;
}

type RouterOnlyProps = {
  to: To;
  replace?: boolean;
  reloadDocument?: boolean;
  preventScrollReset?: boolean;
  viewTransition?: boolean;
  state?: unknown;
};
type LinkProps = RouterOnlyProps & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'>;

export const Link = forwardRef<HTMLAnchorElement, LinkProps>(function Link(
  {
    to,
    replace: _replace,
    reloadDocument: _reload,
    preventScrollReset: _scroll,
    viewTransition: _vt,
    state: _state,
    ...rest
  },
  ref,
) {
  return <a ref={ref} {...rest} href={to} data-discover="true" />;
});

type NavLinkRenderProps = { isActive: boolean; isPending: boolean; isTransitioning: boolean };
type NavLinkProps = Omit<LinkProps, 'className' | 'style' | 'children'> & {
  end?: boolean;
  caseSensitive?: boolean;
  className?: string | ((props: NavLinkRenderProps) => string | undefined);
  style?: CSSProperties | ((props: NavLinkRenderProps) => CSSProperties | undefined);
  children?: ReactNode | ((props: NavLinkRenderProps) => ReactNode);
};

/** A Link marked `aria-current="page"` on its own page (`end`: exactly; otherwise also below it). */
export const NavLink = forwardRef<HTMLAnchorElement, NavLinkProps>(function NavLink(
  { end, caseSensitive: _case, className, style, children, to, ...rest },
  ref,
) {
  const { pathname } = useLocation();
  const trimmed = (value: string) => (value.length > 1 ? value.replace(/\/+$/, '') : value);
  const here = trimmed(pathname);
  const target = trimmed(to);
  const isActive = here === target || (!end && target !== '/' && here.startsWith(`${target}/`));
  const renderProps = { isActive, isPending: false, isTransitioning: false };
  return (
    <Link
      ref={ref}
      {...rest}
      to={to}
      aria-current={isActive ? 'page' : undefined}
      className={typeof className === 'function' ? className(renderProps) : className}
      style={typeof style === 'function' ? style(renderProps) : style}
    >
      {typeof children === 'function' ? children(renderProps) : children}
    </Link>
  );
});
