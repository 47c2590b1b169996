import { lazy, type ComponentType } from 'react';
import type { RouteObject } from 'react-router';

import { RequireAuth } from '@/app/require-auth';
import { HomeRoute } from '@/app/routes/home';
import { MainLayout } from '@/components/layouts/main-layout';
import { lazyAnimated } from '@/lib/lazy-animated';
import { WhenIdle } from '@/lib/when-idle';

type Module = Record<string, unknown>;

/** The bell and the connection pill bring the socket client with them: they can come after the first paint. */
const HeaderExtras = lazy(() => import('@/app/header-extras').then((module) => ({ default: module.HeaderExtras })));

/** A lazily loaded route element (a named export, inside the motion provider), optionally behind RequireAuth. */
function page(load: () => Promise<Module>, name: string, isProtected = false) {
  const Component = lazyAnimated(() => load().then((module) => module[name] as ComponentType));
  return isProtected ? (
    <RequireAuth>
      <Component />
    </RequireAuth>
  ) : (
    <Component />
  );
}

export const routes: RouteObject[] = [
  {
    element: (
      <MainLayout
        headerExtras={
          <WhenIdle>
            <HeaderExtras />
          </WhenIdle>
        }
      />
    ),
    children: [
      { path: '/', element: <HomeRoute /> },
      { path: '/tasks', element: page(() => import('@/app/routes/marketplace/browse-tasks'), 'BrowseTasksRoute') },
      { path: '/task/:taskId', element: page(() => import('@/app/routes/marketplace/task-detail'), 'TaskDetailRoute') },
      { path: '/post-task', element: page(() => import('@/app/routes/marketplace/post-task'), 'PostTaskRoute') },
      { path: '/payment-success', element: page(() => import('@/app/routes/marketplace/payment-success'), 'PaymentSuccessRoute') },
      { path: '/my-tasks', element: page(() => import('@/app/routes/marketplace/my-tasks'), 'MyTasksRoute', true) },
      { path: '/earnings', element: page(() => import('@/app/routes/account/earnings'), 'EarningsRoute', true) },
      { path: '/payments', element: page(() => import('@/app/routes/account/payments'), 'PaymentsRoute', true) },
      { path: '/notifications', element: page(() => import('@/app/routes/marketplace/notifications'), 'NotificationsRoute', true) },
      { path: '/admin/disputes', element: page(() => import('@/app/routes/admin/disputes'), 'AdminDisputesRoute', true) },

      { path: '/login', element: page(() => import('@/app/routes/auth/login'), 'LoginRoute') },
      { path: '/signup', element: page(() => import('@/app/routes/auth/signup'), 'SignupRoute') },
      { path: '/forgot-password', element: page(() => import('@/app/routes/auth/forgot-password'), 'ForgotPasswordRoute') },
      { path: '/reset-password', element: page(() => import('@/app/routes/auth/reset-password'), 'ResetPasswordRoute') },
      { path: '/verify-email', element: page(() => import('@/app/routes/auth/verify-email'), 'VerifyEmailRoute') },
      { path: '/become-tasker', element: page(() => import('@/app/routes/account/become-tasker'), 'BecomeTaskerRoute') },
      { path: '/profile/:userId', element: page(() => import('@/app/routes/account/profile'), 'ProfileRoute', true) },
      { path: '/settings', element: page(() => import('@/app/routes/account/settings'), 'SettingsRoute', true) },
      { path: '/settings/notifications', element: page(() => import('@/app/routes/account/notification-settings'), 'NotificationSettingsRoute', true) },
      { path: '/settings/alerts', element: page(() => import('@/app/routes/account/alerts'), 'AlertsRoute', true) },
      { path: '/account-settings', element: page(() => import('@/app/routes/account/settings'), 'SettingsRoute', true) },

      { path: '/about', element: page(() => import('@/features/info/components/about-page'), 'AboutPage') },
      { path: '/how-it-works', element: page(() => import('@/features/info/components/how-it-works-page'), 'HowItWorksPage') },
      { path: '/categories', element: page(() => import('@/app/routes/info/categories'), 'CategoriesRoute') },
      { path: '/help', element: page(() => import('@/features/info/components/help-page'), 'HelpPage') },
      { path: '/trust', element: page(() => import('@/features/info/components/trust-page'), 'TrustPage') },
      { path: '/safety', element: page(() => import('@/features/info/components/safety-page'), 'SafetyPage') },
      { path: '/covid', element: page(() => import('@/features/info/components/covid-page'), 'CovidPage') },
      { path: '/faq', element: page(() => import('@/features/info/components/faq-page'), 'FaqPage') },
      { path: '/contact', element: page(() => import('@/app/routes/info/contact'), 'ContactRoute') },
      { path: '/terms', element: page(() => import('@/features/info/components/terms-page'), 'TermsPage') },
      { path: '/privacy', element: page(() => import('@/features/info/components/privacy-page'), 'PrivacyPage') },
      { path: '/cookies', element: page(() => import('@/features/info/components/cookies-page'), 'CookiesPage') },
      { path: '/guidelines', element: page(() => import('@/features/info/components/guidelines-page'), 'GuidelinesPage') },
      { path: '/sitemap', element: page(() => import('@/features/info/components/sitemap-page'), 'SitemapPage') },
      { path: '*', element: page(() => import('@/features/info/components/not-found-page'), 'NotFoundPage') },
    ],
  },
];
