import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Link } from 'react-router';

import { Avatar } from '@/components/ui/avatar';
import { accountLinks } from '@/components/layouts/nav-links';
import { useAuth } from '@/lib/auth/use-auth';
import { useSignOut } from '@/lib/auth/use-sign-out';
import { getDisplayName, getInitials } from '@/lib/user-names';

/** The avatar menu: a menu button with arrow-key, Home/End and Escape handling. */
export function UserMenu() {
  const { user, profile } = useAuth();
  const signOut = useSignOut();
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const itemsRef = useRef<Array<HTMLElement | null>>([]);
  const containerRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    itemsRef.current[0]?.focus();
    const onPointer = (event: PointerEvent) => {
      if (!containerRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open]);

  if (!user) return null;
  const name = getDisplayName(profile, user.email);
  const links = accountLinks(user.id, '/settings', user.is_operator);
  const count = links.length + 1;

  const focusItem = (index: number) => itemsRef.current[(index + count) % count]?.focus();
  const onMenuKeyDown = (event: KeyboardEvent) => {
    const current = itemsRef.current.findIndex((el) => el === document.activeElement);
    if (event.key === 'ArrowDown') focusItem(current + 1);
    else if (event.key === 'ArrowUp') focusItem(current - 1);
    else if (event.key === 'Home') focusItem(0);
    else if (event.key === 'End') focusItem(count - 1);
    else if (event.key === 'Escape') {
      setOpen(false);
      buttonRef.current?.focus();
    } else if (event.key === 'Tab') setOpen(false);
    else return;
    if (event.key !== 'Tab') event.preventDefault();
  };

  return (
    <div ref={containerRef} className="relative">
      <button
        ref={buttonRef}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={menuId}
        aria-label={`Account menu for ${name}`}
        onClick={() => setOpen((v) => !v)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown') {
            event.preventDefault();
            setOpen(true);
          }
        }}
        className="flex items-center gap-2 rounded-full p-0.5 hover:ring-2 hover:ring-brand-200"
      >
        <Avatar src={profile?.avatar_url} initials={getInitials(profile, user.email)} alt="" size="md" />
      </button>
      {open && (
        <div
          id={menuId}
          role="menu"
          aria-label="Account"
          onKeyDown={onMenuKeyDown}
          className="absolute right-0 mt-2 w-60 overflow-hidden rounded-xl border border-slate-200 bg-white py-1 shadow-xl"
        >
          <div className="border-b border-slate-100 px-4 py-3" role="none">
            <p className="truncate text-sm font-semibold text-slate-900">{name}</p>
            <p className="truncate text-xs text-slate-500">{user.email}</p>
          </div>
          {links.map((link, i) => (
            <Link
              key={link.to}
              ref={(el) => {
                itemsRef.current[i] = el;
              }}
              to={link.to}
              role="menuitem"
              tabIndex={-1}
              onClick={() => setOpen(false)}
              className="block px-4 py-2 text-sm text-slate-700 hover:bg-slate-50 focus:bg-brand-50 focus:outline-none"
            >
              {link.label}
            </Link>
          ))}
          <button
            ref={(el) => {
              itemsRef.current[links.length] = el;
            }}
            type="button"
            role="menuitem"
            tabIndex={-1}
            onClick={() => {
              setOpen(false);
              void signOut();
            }}
            className="block w-full border-t border-slate-100 px-4 py-2 text-left text-sm text-red-700 hover:bg-red-50 focus:bg-red-50 focus:outline-none"
          >
            Sign Out
          </button>
        </div>
      )}
    </div>
  );
}
