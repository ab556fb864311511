import { lazy, Suspense, type ComponentType } from 'react';
import { Navigate, Route, Routes } from '../shared/router';
import { ErrorBoundary } from '../shared/ui/ErrorBoundary';
import { loadLaterMessages } from '../i18n/i18n';
import { lazyWithQueries } from './providers/lazyWithQueries';
import { useScreenReady } from './screenReady';
import { PageSpinner } from '../shared/ui/Spinner';
import { RequireAuth } from './guards/RequireAuth';
import { SiteActiveGuard } from './guards/SiteActiveGuard';

/**
 * Route-level code splitting: every screen loads on demand (a guest's page preloads the guest
 * layout and the login page: guestScreens.ts); the screens that use React Query bring it along
 * (lazyWithQueries).
 */
function page<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) {
  return lazy(async () => {
    const Screen: ComponentType = (await load())[name];
    function ReadyScreen() {
      useScreenReady();
      return <Screen />;
    }
    return { default: ReadyScreen };
  });
}
const queryPage = lazyWithQueries;

/**
 * A screen loaded on demand that renders at once, without suspending, once `preload()` has loaded
 * it. main.tsx preloads the prerendered page's screens before it hydrates: React then meets the
 * server's HTML with the screens themselves. Through a plain `lazy` the boundary would still wait a
 * moment for its module, and an update reaching it meanwhile (a text bundle, a lookup's answer) made
 * React render it afresh instead of hydrating it (error #421: the server's elements replaced, seen
 * under load in prerender.spec.ts).
 */
function preloadable(load: () => Promise<ComponentType>): ComponentType & { preload: () => Promise<void> } {
  let loaded: ComponentType | null = null;
  let loading: Promise<void> | null = null;
  const preload = (): Promise<void> => {
    loading ??= load().then(
      (component) => {
        loaded = component;
      },
      (error: unknown) => {
        loading = null;
        throw error;
      },
    );
    return loading;
  };
  const Lazy = lazy(async () => {
    await preload();
    return { default: loaded as ComponentType };
  });
  function Preloadable() {
    const Loaded = loaded;
    return Loaded ? <Loaded /> : <Lazy />;
  }
  return Object.assign(Preloadable, { preload });
}

/** A screen's code with the texts it shows beyond the first screens' (i18n.ts loadLaterMessages): a guest screen's, or a member screen's too. */
function withLaterTexts<M>(load: () => Promise<M>, texts: 'guest' | 'member' = 'member'): () => Promise<M> {
  return () => Promise.all([load(), loadLaterMessages({ member: texts === 'member' })]).then(([module]) => module);
}

const TerminatedPage = page(() => import('./statusScreens'), 'TerminatedPage');
const NotFoundPage = page(() => import('./statusScreens'), 'NotFoundPage');
// The guest layout and the login page, in one chunk (guestScreens.ts).
const GuestLayout = preloadable(() => import('./guestScreens').then((m) => m.GuestLayout));
const LoginPage = preloadable(() =>
  import('./guestScreens').then((m) => {
    const Screen = m.LoginPage;
    return function ReadyScreen() {
      useScreenReady();
      return <Screen />;
    };
  }),
);

/** The guest layout and the login page, loaded: main.tsx awaits this before it hydrates a prerendered guest page. */
export function preloadGuestScreens(): Promise<void> {
  return Promise.all([GuestLayout.preload(), LoginPage.preload()]).then(() => undefined);
}
const MemberLayout = queryPage(() => import('./layouts/MemberLayout'), 'MemberLayout');
const MemberHomeRoute = queryPage(() => import('./pages/MemberHomeRoute'), 'MemberHomeRoute');
const RegisterPage = queryPage(withLaterTexts(() => import('../features/auth/register/RegisterPage'), 'guest'), 'RegisterPage');
const ForgotPasswordPage = queryPage(withLaterTexts(() => import('../features/auth/forgot-password/ForgotPasswordPage'), 'guest'), 'ForgotPasswordPage');
const HowtoPage = page(withLaterTexts(() => import('../features/howto/HowtoPage'), 'guest'), 'HowtoPage');
const ContactPage = queryPage(withLaterTexts(() => import('../features/contact/ContactPage'), 'guest'), 'ContactPage');
const ProfilePage = queryPage(withLaterTexts(() => import('../features/profile/ProfilePage')), 'ProfilePage');
const BonusPage = queryPage(withLaterTexts(() => import('../features/bonus/BonusPage')), 'BonusPage');
const StatementPage = queryPage(withLaterTexts(() => import('../features/statement/StatementPage')), 'StatementPage');
const SpinPage = queryPage(withLaterTexts(() => import('../features/spin/SpinPage')), 'SpinPage');
const ResponsiblePage = queryPage(withLaterTexts(() => import('../features/responsible/ResponsiblePage')), 'ResponsiblePage');

/** The route table of spec section 2 (plus /forgot-password). */
export function AppRoutes() {
  return (
    <ErrorBoundary>
      <Suspense fallback={<PageSpinner />}>
        <Routes>
          <Route path="/" element={<Navigate to="/user" replace />} />
          <Route element={<GuestLayout />}>
            <Route
              path="/login"
              element={
                <SiteActiveGuard>
                  <LoginPage />
                </SiteActiveGuard>
              }
            />
            <Route path="/register" element={<RegisterPage />} />
            <Route path="/forgot-password" element={<ForgotPasswordPage />} />
            <Route path="/howto" element={<HowtoPage />} />
            <Route path="/contact" element={<ContactPage />} />
          </Route>
          <Route
            path="/user"
            element={
              <RequireAuth>
                <MemberLayout />
              </RequireAuth>
            }
          >
            <Route index element={<Navigate to="/user/home" replace />} />
            <Route path="home" element={<MemberHomeRoute />} />
            <Route path="profile" element={<ProfilePage />} />
            <Route path="bonus" element={<BonusPage />} />
            <Route path="statement" element={<StatementPage />} />
            <Route path="contact" element={<ContactPage />} />
            <Route path="spin" element={<SpinPage />} />
            <Route path="responsible" element={<ResponsiblePage />} />
          </Route>
          <Route path="/terminated" element={<TerminatedPage />} />
          <Route path="*" element={<NotFoundPage />} />
        </Routes>
      </Suspense>
    </ErrorBoundary>
  );
}
