import { Suspense, useEffect, useRef, type ReactNode } from 'react';
import { Outlet, useLocation } from 'react-router';

import { Footer } from '@/components/layouts/footer';
import { Header } from '@/components/layouts/header';
import { PageSpinner } from '@/components/ui/spinner';

/** `headerExtras`: live controls the app adds to the header (notifications bell, connection state). */
export function MainLayout({ headerExtras }: { headerExtras?: ReactNode } = {}) {
  const { pathname } = useLocation();
  const mainRef = useRef<HTMLElement>(null);
  const firstRender = useRef(true);
  useEffect(() => {
    window.scrollTo?.(0, 0);
    // After client-side navigation, start keyboard and screen-reader users at the new page.
    if (firstRender.current) firstRender.current = false;
    else mainRef.current?.focus({ preventScroll: true });
  }, [pathname]);

  return (
    <div className="flex min-h-screen flex-col">
      <Header extras={headerExtras} />
      {/* At least a screen tall, so the footer never shows under a loading page and then jumps away (layout shift). */}
      <main id="main" ref={mainRef} tabIndex={-1} className="min-h-screen flex-1 pt-18 focus:outline-none">
        <Suspense fallback={<PageSpinner />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
    </div>
  );
}
