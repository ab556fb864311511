import {
  Children,
  createContext,
  Fragment,
  isValidElement,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type AnchorHTMLAttributes,
  type MouseEvent,
  type ReactElement,
  type ReactNode,
} from 'react';

/**
 * The member app's router: the part of React Router's API the app uses (BrowserRouter, Routes,
 * Route, Outlet, Link, NavLink, Navigate, useLocation, useNavigate, useSearchParams; MemoryRouter
 * for tests and StaticRouter for the prerendered pages), with the same behaviour, in a few KB:
 * React Router 7 weighs about 18 KB gzipped in the first download, most of it for its data and
 * framework modes, which the app does not use. The back office keeps React Router.
 *
 * Paths are absolute ('/user/home'); a route's `path` is absolute or relative to its parent's, and
 * matching ignores letter case and a trailing slash, as React Router's does.
 */
export interface Location {
  pathname: string;
  search: string;
  hash: string;
  /** What navigate(…, { state }) gave; null otherwise. */
  state: unknown;
  /** Different for every navigation (a new entry, or a replaced one); 'default' for the first. */
  key: string;
}

export interface NavigateOptions {
  replace?: boolean;
  state?: unknown;
}

export type NavigateFunction = (to: string, options?: NavigateOptions) => void;

interface RouterValue {
  location: Location;
  navigate: NavigateFunction;
}

const RouterContext = createContext<RouterValue | null>(null);

function useRouter(): RouterValue {
  const router = useContext(RouterContext);
  if (!router) throw new Error('The router hooks are used inside a router (BrowserRouter, MemoryRouter or StaticRouter).');
  return router;
}

function newKey(): string {
  return Math.random().toString(36).slice(2, 10);
}

/** '/a/b?x=1#h' → its parts. */
function parsePath(to: string): { pathname: string; search: string; hash: string } {
  let rest = to;
  let hash = '';
  let search = '';
  const hashAt = rest.indexOf('#');
  if (hashAt >= 0) {
    hash = rest.slice(hashAt);
    rest = rest.slice(0, hashAt);
  }
  const searchAt = rest.indexOf('?');
  if (searchAt >= 0) {
    search = rest.slice(searchAt);
    rest = rest.slice(0, searchAt);
  }
  return { pathname: rest || '/', search: search === '?' ? '' : search, hash: hash === '#' ? '' : hash };
}

function createPath(location: Pick<Location, 'pathname' | 'search' | 'hash'>): string {
  return `${location.pathname}${location.search}${location.hash}`;
}

/** What the browser history keeps for an entry of ours. */
interface HistoryState {
  mw: true;
  key: string;
  state: unknown;
}

function isHistoryState(value: unknown): value is HistoryState {
  return typeof value === 'object' && value !== null && (value as { mw?: unknown }).mw === true;
}

function browserLocation(): Location {
  const { pathname, search, hash } = window.location;
  const entry: unknown = window.history.state;
  return isHistoryState(entry) ? { pathname, search, hash, state: entry.state, key: entry.key } : { pathname, search, hash, state: null, key: 'default' };
}

/** Browser history: pushState/replaceState, and the back and forward buttons (popstate). */
export function BrowserRouter({ children }: { children?: ReactNode }) {
  const [location, setLocation] = useState(browserLocation);
  useEffect(() => {
    const pop = () => setLocation(browserLocation());
    window.addEventListener('popstate', pop);
    return () => window.removeEventListener('popstate', pop);
  }, []);
  const navigate = useCallback<NavigateFunction>((to, options = {}) => {
    const entry: HistoryState = { mw: true, key: newKey(), state: options.state ?? null };
    if (options.replace) window.history.replaceState(entry, '', to);
    else window.history.pushState(entry, '', to);
    setLocation(browserLocation());
  }, []);
  return <RouterProvider location={location} navigate={navigate}>{children}</RouterProvider>;
}

/** History in memory (tests): starts at the last of `initialEntries`. */
export function MemoryRouter({ children, initialEntries = ['/'] }: { children?: ReactNode; initialEntries?: string[] }) {
  const [location, setLocation] = useState<Location>(() => ({ ...parsePath(initialEntries.at(-1) ?? '/'), state: null, key: 'default' }));
  const navigate = useCallback<NavigateFunction>((to, options = {}) => {
    setLocation((current) => {
      const target = to.startsWith('/') ? to : `${current.pathname.replace(/\/[^/]*$/, '')}/${to}`;
      return { ...parsePath(target), state: options.state ?? null, key: newKey() };
    });
  }, []);
  return <RouterProvider location={location} navigate={navigate}>{children}</RouterProvider>;
}

const noNavigation: NavigateFunction = () => undefined;

/** A fixed location (the prerendered pages, scripts/prerender.mjs): navigation does nothing. */
export function StaticRouter({ children, location }: { children?: ReactNode; location: string }) {
  const value = useMemo<Location>(() => ({ ...parsePath(location), state: null, key: 'default' }), [location]);
  return <RouterProvider location={value} navigate={noNavigation}>{children}</RouterProvider>;
}

function RouterProvider({ location, navigate, children }: RouterValue & { children?: ReactNode }) {
  if (useContext(RouterContext)) throw new Error('A router cannot be inside another router.');
  const value = useMemo(() => ({ location, navigate }), [location, navigate]);
  return <RouterContext.Provider value={value}>{children}</RouterContext.Provider>;
}

export function useLocation(): Location {
  return useRouter().location;
}

/** navigate('/path', { replace, state }): a new history entry (or the current one replaced). */
export function useNavigate(): NavigateFunction {
  return useRouter().navigate;
}

/** The query string, and a setter that navigates to the same path with another one (a new entry). */
export function useSearchParams(): [URLSearchParams, (next: Record<string, string> | URLSearchParams) => void] {
  const { location, navigate } = useRouter();
  const params = useMemo(() => new URLSearchParams(location.search), [location.search]);
  const set = useCallback(
    (next: Record<string, string> | URLSearchParams) => {
      const search = new URLSearchParams(next).toString();
      navigate(`${location.pathname}${search ? `?${search}` : ''}`);
    },
    [navigate, location.pathname],
  );
  return [params, set];
}

// --- Routes -----------------------------------------------------------------------------------

export interface RouteProps {
  path?: string;
  index?: boolean;
  element?: ReactNode;
  children?: ReactNode;
}

/** Configuration for <Routes> (never rendered itself). */
export function Route(_props: RouteProps): ReactElement | null {
  return null;
}

interface RouteObject {
  path: string | undefined;
  index: boolean;
  element: ReactNode;
  children: RouteObject[];
}

function routesFrom(children: ReactNode): RouteObject[] {
  const routes: RouteObject[] = [];
  Children.forEach(children, (child) => {
    if (!isValidElement(child)) return;
    if (child.type === Fragment) {
      routes.push(...routesFrom((child.props as { children?: ReactNode }).children));
      return;
    }
    const props = child.props as RouteProps;
    routes.push({ path: props.path, index: props.index === true, element: props.element, children: routesFrom(props.children) });
  });
  return routes;
}

interface Branch {
  segments: string[];
  routes: RouteObject[];
  score: number;
  order: number;
}

function joinPath(parent: string[], path: string | undefined): string[] {
  if (path === undefined) return parent;
  const own = path.split('/').filter(Boolean);
  return path.startsWith('/') ? own : [...parent, ...own];
}

/** React Router's ranking: static segments first, then dynamic, a splat last; an index route above its parent. */
function scoreOf(segments: string[], index: boolean): number {
  let score = segments.length + (index ? 2 : 0);
  for (const segment of segments) {
    if (segment === '*') score -= 2 + 1;
    else if (segment.startsWith(':')) score += 3 - 1;
    else score += 10 - 1;
  }
  return score;
}

function flatten(routes: RouteObject[], parentSegments: string[] = [], parents: RouteObject[] = [], branches: Branch[] = []): Branch[] {
  for (const route of routes) {
    const segments = joinPath(parentSegments, route.path);
    const chain = [...parents, route];
    if (route.children.length > 0) flatten(route.children, segments, chain, branches);
    // A route matches on its own when it has a path or is an index route (a layout route only through its children).
    if (route.path !== undefined || route.index) branches.push({ segments, routes: chain, score: scoreOf(segments, route.index), order: branches.length });
  }
  return branches;
}

function matches(segments: string[], pathname: string): boolean {
  const parts = pathname.split('/').filter(Boolean);
  for (let i = 0; i < segments.length; i += 1) {
    const segment = segments[i] ?? '';
    if (segment === '*') return true;
    const part = parts[i];
    if (part === undefined) return false;
    if (segment.startsWith(':')) continue;
    let decoded = part;
    try {
      decoded = decodeURIComponent(part);
    } catch {
      // a broken escape: compare as it is
    }
    if (segment.toLowerCase() !== decoded.toLowerCase()) return false;
  }
  return parts.length === segments.length;
}

const OutletContext = createContext<ReactNode>(null);

/** The element of the first route that matches the location (with its parents, each rendering the next in <Outlet />). */
export function Routes({ children }: { children?: ReactNode }) {
  const { pathname } = useLocation();
  const branches = useMemo(() => flatten(routesFrom(children)).sort((a, b) => b.score - a.score || a.order - b.order), [children]);
  const branch = branches.find((candidate) => matches(candidate.segments, pathname));
  if (!branch) return null;
  return branch.routes.reduceRight<ReactNode>(
    (outlet, route) => <OutletContext.Provider value={outlet}>{route.element === undefined ? <Outlet /> : route.element}</OutletContext.Provider>,
    null,
  );
}

/** Where a layout route renders its matched child route. */
export function Outlet() {
  return <>{useContext(OutletContext)}</>;
}

/** Navigates as it renders (in an effect): a redirect. */
export function Navigate({ to, replace, state }: { to: string; replace?: boolean; state?: unknown }) {
  const navigate = useNavigate();
  useEffect(() => {
    navigate(to, { replace, state });
  }, [navigate, to, replace, state]);
  return null;
}

// --- Links ------------------------------------------------------------------------------------

export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  to: string;
  replace?: boolean;
  state?: unknown;
}

/** A plain click on a link navigates in the app; a modified click (new tab…) is the browser's. */
function useLinkClick(to: string, props: Pick<LinkProps, 'onClick' | 'target' | 'replace' | 'state'>) {
  const { location, navigate } = useRouter();
  return (event: MouseEvent<HTMLAnchorElement>) => {
    props.onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || (props.target && props.target !== '_self')) return;
    if (event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    // A link to where the page already is replaces the entry instead of adding the same again.
    const replace = props.replace ?? createPath(location) === createPath(parsePath(to));
    navigate(to, { replace, state: props.state });
  };
}

export function Link({ to, replace, state, onClick, target, ...anchor }: LinkProps) {
  const click = useLinkClick(to, { onClick, target, replace, state });
  return <a {...anchor} target={target} href={to} onClick={click} />;
}

export interface NavLinkProps extends Omit<LinkProps, 'className'> {
  className?: string | ((state: { isActive: boolean }) => string);
  /** Active only on this very path, not below it. */
  end?: boolean;
}

/** A link that knows when its page (or one below it) is showing: aria-current="page" and the class for it. */
export function NavLink({ to, className, end = false, replace, state, onClick, target, ...anchor }: NavLinkProps) {
  const { pathname } = useLocation();
  const click = useLinkClick(to, { onClick, target, replace, state });
  const here = pathname.toLowerCase().replace(/(.)\/+$/, '$1');
  const path = parsePath(to).pathname.toLowerCase().replace(/(.)\/+$/, '$1');
  const isActive = here === path || (!end && path !== '/' && here.startsWith(`${path}/`));
  return (
    <a
      {...anchor}
      target={target}
      href={to}
      onClick={click}
      aria-current={isActive ? 'page' : undefined}
      className={typeof className === 'function' ? className({ isActive }) : className}
    />
  );
}
