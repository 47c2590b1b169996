import { useEffect, useId, useState, type ReactNode } from 'react';
import { Link, NavLink, useLocation } from 'react-router';

import { buttonClasses } from '@/components/ui/button';
import { Logo } from '@/components/layouts/logo';
import { mainNavigation } from '@/components/layouts/nav-links';
import { UserMenu } from '@/components/layouts/user-menu';
import { fromLocation } from '@/lib/auth/redirect';
import { useAuth } from '@/lib/auth/use-auth';
import { cn } from '@/lib/cn';
import { lazyWhenIdle } from '@/lib/when-idle';
import { withMotion } from '@/lib/with-motion';

/** Its own chunk (with motion's components), loaded after the first paint. */
const MobileMenu = lazyWhenIdle(() => withMotion(() => import('@/components/layouts/mobile-menu').then((module) => module.MobileMenu)));

/** Spec §2: past this many pixels of scroll the header turns solid. */
export const HEADER_SCROLL_THRESHOLD = 10;

export function Header({ extras }: { extras?: ReactNode } = {}) {
  const { user, loading } = useAuth();
  const [scrolled, setScrolled] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const menuId = useId();
  const location = useLocation();

  useEffect(() => {
    const onScroll = () => setScrolled(window.scrollY > HEADER_SCROLL_THRESHOLD);
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);

  return (
    <header
      data-scrolled={scrolled}
      className={cn(
        'fixed inset-x-0 top-0 z-40 transition-all duration-200',
        scrolled ? 'border-b border-slate-200 bg-white/95 shadow-sm backdrop-blur' : 'bg-white/70 backdrop-blur-sm',
      )}
    >
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-4 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2">
        Skip to content
      </a>
      <div className={cn('mx-auto flex max-w-7xl items-center justify-between gap-4 px-4 sm:px-6 lg:px-8', scrolled ? 'h-16' : 'h-18')}>
        <Logo />
        <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
          {mainNavigation.map((item) => (
            <NavLink
              key={item.to}
              to={item.to}
              className={({ isActive }) =>
                cn('rounded-lg px-3 py-2 text-sm font-medium', isActive ? 'text-brand-800' : 'text-slate-700 hover:text-slate-950')
              }
            >
              {item.label}
            </NavLink>
          ))}
        </nav>
        <div className="flex items-center gap-2">
          <div className="hidden sm:block">
            <Link to="/post-task" className={buttonClasses('secondary', 'sm')}>
              Post a Task
            </Link>
          </div>
          {!loading && !user && (
            <div className="hidden md:block">
              <Link to="/login" state={fromLocation(location)} className={buttonClasses('outline', 'sm')}>
                Sign In
              </Link>
            </div>
          )}
          {extras}
          {user && (
            <div className="hidden md:block">
              <UserMenu />
            </div>
          )}
          <button
            type="button"
            className="inline-flex h-10 w-10 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100 md:hidden"
            aria-label="Open menu"
            aria-expanded={menuOpen}
            aria-controls={menuId}
            onClick={() => setMenuOpen(true)}
          >
            <svg aria-hidden="true" viewBox="0 0 24 24" className="h-6 w-6" fill="none" stroke="currentColor" strokeWidth="2">
              <path d="M4 7h16M4 12h16M4 17h16" strokeLinecap="round" />
            </svg>
          </button>
        </div>
      </div>
      <MobileMenu id={menuId} open={menuOpen} onClose={() => setMenuOpen(false)} />
    </header>
  );
}
