import { AnimatePresence, m } from 'framer-motion';
import { useEffect, useRef } from 'react';
import { Link, NavLink, useLocation } from 'react-router';

import { buttonClasses } from '@/components/ui/button';
import { accountLinks, mainNavigation } from '@/components/layouts/nav-links';
import { useAuth } from '@/lib/auth/use-auth';
import { useSignOut } from '@/lib/auth/use-sign-out';
import { cn } from '@/lib/cn';

/**
 * Slide-in navigation for small screens: locks page scroll and traps focus while open, closes on
 * route change and Escape, then returns focus to whatever opened it.
 */
export function MobileMenu({ open, onClose, id }: { open: boolean; onClose: () => void; id: string }) {
  const { user } = useAuth();
  const signOut = useSignOut('mobile-menu');
  const location = useLocation();
  const panelRef = useRef<HTMLDivElement>(null);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  // Close on a route change, not on mount: the menu loads lazily and may mount already open.
  const route = location.pathname + location.search;
  const shownRoute = useRef(route);
  useEffect(() => {
    if (route === shownRoute.current) return;
    shownRoute.current = route;
    onCloseRef.current();
  }, [route]);

  useEffect(() => {
    if (!open) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    document.body.classList.add('scroll-locked');
    const focusables = () => Array.from(panelRef.current?.querySelectorAll<HTMLElement>('a[href],button:not([disabled])') ?? []);
    focusables()[0]?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onCloseRef.current();
      if (event.key !== 'Tab') return;
      // A modal menu: Tab and Shift+Tab cycle through its own controls only.
      const items = focusables();
      if (items.length === 0) return;
      const index = items.indexOf(document.activeElement as HTMLElement);
      const last = items.length - 1;
      if (event.shiftKey && index <= 0) {
        event.preventDefault();
        items[last].focus();
      } else if (!event.shiftKey && (index === -1 || index === last)) {
        event.preventDefault();
        items[0].focus();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.body.classList.remove('scroll-locked');
      document.removeEventListener('keydown', onKey);
      // Back to the button that opened the menu, so keyboard users keep their place.
      if (opener?.isConnected) opener.focus();
    };
  }, [open]);

  const linkClass = ({ isActive }: { isActive: boolean }) =>
    cn('block rounded-lg px-3 py-2.5 text-base font-medium', isActive ? 'bg-brand-50 text-brand-800' : 'text-slate-800 hover:bg-slate-100');

  return (
    <AnimatePresence>
      {open && (
        <div className="fixed inset-0 z-50 md:hidden">
          <m.div
            className="absolute inset-0 bg-slate-900/50"
            initial={{ opacity: 0 }}
            animate={{ opacity: 1 }}
            exit={{ opacity: 0 }}
            onClick={onClose}
            aria-hidden="true"
          />
          <m.div
            ref={panelRef}
            id={id}
            role="dialog"
            aria-modal="true"
            aria-label="Menu"
            initial={{ x: '100%' }}
            animate={{ x: 0 }}
            exit={{ x: '100%' }}
            transition={{ type: 'tween', duration: 0.22 }}
            className="absolute inset-y-0 right-0 flex w-[min(20rem,85vw)] flex-col overflow-y-auto bg-white p-4 shadow-2xl"
          >
            <div className="mb-4 flex items-center justify-between">
              <span className="text-base font-semibold text-slate-900">Menu</span>
              <button type="button" onClick={onClose} aria-label="Close menu" className="h-10 w-10 rounded-lg text-2xl text-slate-600 hover:bg-slate-100">
                ×
              </button>
            </div>
            <nav aria-label="Mobile" className="space-y-1">
              {mainNavigation.map((item) => (
                <NavLink key={item.to} to={item.to} className={linkClass}>
                  {item.label}
                </NavLink>
              ))}
            </nav>
            <div className="my-4 border-t border-slate-200" />
            {user ? (
              <div className="space-y-1">
                {accountLinks(user.id, '/account-settings', user.is_operator).map((item) => (
                  <NavLink key={item.to} to={item.to} className={linkClass}>
                    {item.label}
                  </NavLink>
                ))}
                <button
                  type="button"
                  onClick={() => void signOut()}
                  className="block w-full rounded-lg px-3 py-2.5 text-left text-base font-medium text-red-700 hover:bg-red-50"
                >
                  Sign Out
                </button>
              </div>
            ) : (
              <div className="space-y-2">
                <Link to="/post-task" className={buttonClasses('secondary', 'md', 'w-full')}>
                  Post a Task
                </Link>
                <Link to="/login" className={buttonClasses('outline', 'md', 'w-full')}>
                  Sign In
                </Link>
                <Link to="/signup" className={buttonClasses('primary', 'md', 'w-full')}>
                  Sign Up
                </Link>
              </div>
            )}
          </m.div>
        </div>
      )}
    </AnimatePresence>
  );
}
