import { act, fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { Header } from '@/components/layouts/header';
import { authLoadingAtom, profileAtom, resetAuthForTests, sessionAtom } from '@/lib/auth/session';
import { appStore } from '@/lib/store';
import { mockFetch, renderRoutes } from '@/testing/render';

const user = { id: 'u1', email: 'ada@example.com' };

beforeEach(() => {
  resetAuthForTests();
  appStore.set(authLoadingAtom, false);
});
afterEach(() => vi.unstubAllGlobals());

function signIn() {
  appStore.set(sessionAtom, { access_token: 'a', refresh_token: 'r', token_type: 'bearer', expires_in: 900, expires_at: Math.floor(Date.now() / 1000) + 900, user });
  appStore.set(profileAtom, { id: 'u1', first_name: 'Ada', last_name: 'Lovelace', display_name: null, phone: null, location: null, bio: null, avatar_url: null });
}

const routes = [
  { path: '/', element: <Header /> },
  { path: '*', element: <><Header /><h1>Elsewhere</h1></> },
];

describe('header', () => {
  it('shows the desktop navigation and, signed out, Post a Task and Sign In', () => {
    renderRoutes(routes);
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(nav).toHaveTextContent('Browse Tasks');
    expect(nav).toHaveTextContent('How It Works');
    expect(nav).toHaveTextContent('Categories');
    expect(screen.getByRole('link', { name: 'Post a Task' })).toHaveAttribute('href', '/post-task');
    expect(screen.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/login');
  });

  it('changes style after 10 px of scroll', () => {
    renderRoutes(routes);
    const header = screen.getByRole('banner');
    expect(header).toHaveAttribute('data-scrolled', 'false');
    Object.defineProperty(window, 'scrollY', { value: 11, configurable: true });
    window.dispatchEvent(new Event('scroll'));
    return vi.waitFor(() => expect(header).toHaveAttribute('data-scrolled', 'true'));
  });

  it('gives signed-in users an avatar menu with initials, the spec items and keyboard navigation', async () => {
    signIn();
    renderRoutes(routes);
    const trigger = screen.getByRole('button', { name: 'Account menu for Ada Lovelace' });
    expect(trigger).toHaveTextContent('AL');
    trigger.focus();
    await userEvent.keyboard('{ArrowDown}');
    const menu = screen.getByRole('menu');
    const items = screen.getAllByRole('menuitem').map((item) => item.textContent);
    expect(items).toEqual(['Your Profile', 'Post a Task', 'My Tasks', 'Notifications', 'Earnings', 'Payments', 'Account Settings', 'Task Alerts', 'Sign Out']);
    expect(screen.getByRole('menuitem', { name: 'Your Profile' })).toHaveAttribute('href', '/profile/u1');
    expect(document.activeElement).toHaveTextContent('Your Profile');
    await userEvent.keyboard('{ArrowDown}');
    expect(document.activeElement).toHaveTextContent('Post a Task');
    await userEvent.keyboard('{End}');
    expect(document.activeElement).toHaveTextContent('Sign Out');
    await userEvent.keyboard('{Escape}');
    expect(menu).not.toBeInTheDocument();
    expect(document.activeElement).toBe(trigger);
  });

  it('links the dispute queue in the account menu for operators only', async () => {
    signIn();
    appStore.set(sessionAtom, { ...appStore.get(sessionAtom)!, user: { ...user, is_operator: true } });
    renderRoutes(routes);
    await userEvent.click(screen.getByRole('button', { name: 'Account menu for Ada Lovelace' }));
    expect(screen.getByRole('menuitem', { name: 'Operator console' })).toHaveAttribute('href', '/admin');
  });

  it('signs out with the spec toast and goes home', async () => {
    vi.stubGlobal('fetch', mockFetch({ 'POST /api/auth/logout': { status: 204 } }).fn);
    signIn();
    const { router } = renderRoutes(routes, ['/settings']);
    await userEvent.click(screen.getByRole('button', { name: /Account menu/ }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Sign Out' }));
    expect(await screen.findByText('Logged out successfully')).toBeInTheDocument();
    expect(screen.getByText('You have been logged out of your account.')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(appStore.get(sessionAtom)).toBeNull();
  });

  it('signs out from the mobile menu with the short toast', async () => {
    vi.stubGlobal('fetch', mockFetch({ 'POST /api/auth/logout': { status: 204 } }).fn);
    signIn();
    renderRoutes(routes, ['/settings']);
    await userEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    await userEvent.click(screen.getByRole('button', { name: 'Sign Out' }));
    expect(await screen.findByText('Signed out successfully')).toBeInTheDocument();
    expect(appStore.get(sessionAtom)).toBeNull();
  });

  it('opens a mobile menu that locks scroll, links /account-settings and closes on route change', async () => {
    signIn();
    renderRoutes(routes);
    await userEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    const dialog = screen.getByRole('dialog', { name: 'Menu' });
    expect(document.body).toHaveClass('scroll-locked');
    expect(screen.getAllByRole('link', { name: 'Account Settings' }).some((a) => a.getAttribute('href') === '/account-settings')).toBe(true);
    await userEvent.click(screen.getAllByRole('link', { name: 'Categories' }).at(-1)!);
    await vi.waitFor(() => expect(dialog).not.toBeInTheDocument());
    expect(document.body).not.toHaveClass('scroll-locked');
  });

  it('opens the mobile menu when it is tapped before the menu has loaded', async () => {
    renderRoutes(routes);
    const button = screen.getByRole('button', { name: 'Open menu' });
    fireEvent.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    await screen.findByRole('dialog', { name: 'Menu' });
    await act(() => Promise.resolve());
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('dialog', { name: 'Menu' })).toBeInTheDocument();
  });

  it('keeps Tab inside the open mobile menu and gives focus back to its button on Escape', async () => {
    renderRoutes(routes);
    const button = screen.getByRole('button', { name: 'Open menu' });
    await userEvent.click(button);
    const dialog = screen.getByRole('dialog', { name: 'Menu' });
    const inside = () => dialog.contains(document.activeElement);
    expect(inside()).toBe(true);
    for (let i = 0; i < 12; i++) {
      await userEvent.tab();
      expect(inside()).toBe(true);
    }
    await userEvent.tab({ shift: true });
    expect(inside()).toBe(true);
    await userEvent.keyboard('{Escape}');
    await vi.waitFor(() => expect(dialog).not.toBeInTheDocument());
    expect(button).toHaveFocus();
  });
});
