import { Suspense, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';

import { Footer } from '@/components/layouts/footer';
import { Header } from '@/components/layouts/header';
import { PageSpinner } from '@/components/ui/spinner';

export function MainLayout() {
  const { pathname } = useLocation();
  useEffect(() => {
    window.scrollTo?.(0, 0);
  }, [pathname]);

  return (
    <div className="flex min-h-screen flex-col">
      <Header />
      <main id="main" className="flex-1 pt-18">
        <Suspense fallback={<PageSpinner />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
    </div>
  );
}
