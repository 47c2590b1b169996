import { lazy, type ComponentType } from 'react';
import { matchRoutes, type RouteObject } from 'react-router';

import { RequireAuth } from '@/app/require-auth';
import { HomeRoute } from '@/app/routes/home';
import { MainLayout } from '@/components/layouts/main-layout';
import { lazyWhenIdle } from '@/lib/when-idle';
import { withMotion } from '@/lib/with-motion';

type Module = Record<string, unknown>;
type Params = Record<string, string | undefined>;
type PageHandle = { load: () => Promise<unknown>; prefetch?: (params: Params) => Promise<unknown> };

/** The bell and the connection pill bring the socket client with them: they can come after the first paint. */
const HeaderExtras = lazyWhenIdle(() => import('@/app/header-extras').then((module) => module.HeaderExtras));

/**
 * A lazily loaded page (a named export, inside the motion provider), optionally behind RequireAuth.
 * Its `handle.load` lets the app load the first page's code before the first render; a page already
 * loaded renders at once, without React.lazy suspending. `prefetch` starts loading the page's main
 * data at the same time.
 */
function page(
  load: () => Promise<Module>,
  name: string,
  { isProtected = false, prefetch }: { isProtected?: boolean; prefetch?: PageHandle['prefetch'] } = {},
): Pick<RouteObject, 'element' | 'handle'> {
  let loaded: ComponentType | null = null;
  let loading: Promise<ComponentType> | null = null;
  const loadPage = () =>
    (loading ??= withMotion(() => load().then((module) => module[name] as ComponentType)).then((component) => {
      loaded = component;
      return component;
    }));
  const Lazy = lazy(() => loadPage().then((component) => ({ default: component })));
  function Page() {
    const Loaded = loaded;
    return Loaded ? <Loaded /> : <Lazy />;
  }
  const handle: PageHandle = { load: loadPage, prefetch };
  const element = isProtected ? (
    <RequireAuth>
      <Page />
    </RequireAuth>
  ) : (
    <Page />
  );
  return { element, handle };
}

/**
 * Loads the code of the page at the current URL and starts loading its data. The app renders after
 * the code (and after a failure too), so the page appears at once rather than behind a spinner React
 * must then keep up for 300 ms; the data is not waited for.
 */
export async function loadCurrentPage() {
  const matches = matchRoutes(routes, window.location) ?? [];
  const handles = matches.map((match) => [match.route.handle as PageHandle | undefined, match.params] as const);
  for (const [handle, params] of handles) void handle?.prefetch?.(params).catch(() => undefined);
  await Promise.all(handles.map(([handle]) => handle?.load().catch(() => undefined)));
}

export const routes: RouteObject[] = [
  {
    element: <MainLayout headerExtras={<HeaderExtras />} />,
    children: [
      { path: '/', element: <HomeRoute /> },
      {
        path: '/tasks',
        ...page(() => import('@/app/routes/marketplace/browse-tasks'), 'BrowseTasksRoute', {
          prefetch: () => import('@/features/tasks/api/get-tasks').then((module) => module.prefetchTasks(window.location.search)),
        }),
      },
      {
        path: '/task/:taskId',
        ...page(() => import('@/app/routes/marketplace/task-detail'), 'TaskDetailRoute', {
          prefetch: ({ taskId }) => import('@/features/tasks/api/get-task').then((module) => module.prefetchTask(taskId!)),
        }),
      },
      { path: '/post-task', ...page(() => import('@/app/routes/marketplace/post-task'), 'PostTaskRoute') },
      { path: '/payment-success', ...page(() => import('@/app/routes/marketplace/payment-success'), 'PaymentSuccessRoute') },
      { path: '/my-tasks', ...page(() => import('@/app/routes/marketplace/my-tasks'), 'MyTasksRoute', { isProtected: true }) },
      { path: '/earnings', ...page(() => import('@/app/routes/account/earnings'), 'EarningsRoute', { isProtected: true }) },
      { path: '/payments', ...page(() => import('@/app/routes/account/payments'), 'PaymentsRoute', { isProtected: true }) },
      { path: '/notifications', ...page(() => import('@/app/routes/marketplace/notifications'), 'NotificationsRoute', { isProtected: true }) },
      { path: '/admin', ...page(() => import('@/app/routes/admin/console'), 'AdminConsoleRoute', { isProtected: true }) },
      { path: '/admin/:section', ...page(() => import('@/app/routes/admin/console'), 'AdminConsoleRoute', { isProtected: true }) },

      { path: '/login', ...page(() => import('@/app/routes/auth/login'), 'LoginRoute') },
      { path: '/signup', ...page(() => import('@/app/routes/auth/signup'), 'SignupRoute') },
      { path: '/forgot-password', ...page(() => import('@/app/routes/auth/forgot-password'), 'ForgotPasswordRoute') },
      { path: '/reset-password', ...page(() => import('@/app/routes/auth/reset-password'), 'ResetPasswordRoute') },
      { path: '/auth/callback', ...page(() => import('@/app/routes/auth/callback'), 'AuthCallbackRoute') },
      { path: '/verify-email', ...page(() => import('@/app/routes/auth/verify-email'), 'VerifyEmailRoute') },
      { path: '/signup/confirm', ...page(() => import('@/app/routes/auth/confirm-signup'), 'ConfirmSignupRoute') },
      { path: '/become-tasker', ...page(() => import('@/app/routes/account/become-tasker'), 'BecomeTaskerRoute') },
      { path: '/profile/:userId', ...page(() => import('@/app/routes/account/profile'), 'ProfileRoute', { isProtected: true }) },
      { path: '/settings', ...page(() => import('@/app/routes/account/settings'), 'SettingsRoute', { isProtected: true }) },
      { path: '/settings/notifications', ...page(() => import('@/app/routes/account/notification-settings'), 'NotificationSettingsRoute', { isProtected: true }) },
      { path: '/settings/alerts', ...page(() => import('@/app/routes/account/alerts'), 'AlertsRoute', { isProtected: true }) },
      { path: '/account-settings', ...page(() => import('@/app/routes/account/settings'), 'SettingsRoute', { isProtected: true }) },

      { path: '/about', ...page(() => import('@/features/info/components/about-page'), 'AboutPage') },
      { path: '/how-it-works', ...page(() => import('@/features/info/components/how-it-works-page'), 'HowItWorksPage') },
      { path: '/categories', ...page(() => import('@/app/routes/info/categories'), 'CategoriesRoute') },
      { path: '/help', ...page(() => import('@/features/info/components/help-page'), 'HelpPage') },
      { path: '/trust', ...page(() => import('@/features/info/components/trust-page'), 'TrustPage') },
      { path: '/safety', ...page(() => import('@/features/info/components/safety-page'), 'SafetyPage') },
      { path: '/covid', ...page(() => import('@/features/info/components/covid-page'), 'CovidPage') },
      { path: '/faq', ...page(() => import('@/features/info/components/faq-page'), 'FaqPage') },
      { path: '/contact', ...page(() => import('@/app/routes/info/contact'), 'ContactRoute') },
      { path: '/terms', ...page(() => import('@/features/info/components/terms-page'), 'TermsPage') },
      { path: '/privacy', ...page(() => import('@/features/info/components/privacy-page'), 'PrivacyPage') },
      { path: '/cookies', ...page(() => import('@/features/info/components/cookies-page'), 'CookiesPage') },
      { path: '/guidelines', ...page(() => import('@/features/info/components/guidelines-page'), 'GuidelinesPage') },
      { path: '/sitemap', ...page(() => import('@/features/info/components/sitemap-page'), 'SitemapPage') },
      { path: '*', ...page(() => import('@/features/info/components/not-found-page'), 'NotFoundPage') },
    ],
  },
];
