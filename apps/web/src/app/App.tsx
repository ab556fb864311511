import { BrowserRouter } from '../shared/router';
import { AppRoutes } from './AppRoutes';
import { BaseProviders } from './providers/BaseProviders';

/**
 * The app in the browser. React Query comes with the screens that use it (lazyWithQueries.tsx);
 * the prerendered guest pages (prerender.tsx) render the same tree around a static router.
 */
export function App() {
  return (
    <BrowserRouter>
      <AppTree />
    </BrowserRouter>
  );
}

/** Everything inside the router: the same in the browser and at prerendering. */
export function AppTree() {
  return (
    <BaseProviders>
      <AppRoutes />
    </BaseProviders>
  );
}
