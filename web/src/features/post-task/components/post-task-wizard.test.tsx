import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { isSessionError, postTaskErrorMessage } from '@/features/post-task/api/create-task';
import { progressWidth, PostTaskWizard } from '@/features/post-task/components/post-task-wizard';
import { authLoadingAtom, resetAuthForTests, sessionAtom } from '@/lib/auth/session';
import { ApiError } from '@/lib/http';
import { appStore } from '@/lib/store';
import { mockFetch, renderRoutes } from '@/testing/render';
import { signInForTest } from '@/testing/sign-in';

function signIn() {
  signInForTest({ id: 'u1', email: 'ada@example.com' });
}

function renderWizard() {
  return renderRoutes(
    [
      { path: '/post-task', element: <PostTaskWizard /> },
      { path: '/my-tasks', element: <h1>My Tasks page</h1> },
      { path: '/login', element: <h1>Login page</h1> },
    ],
    ['/post-task'],
  );
}

const progress = () => parseFloat(screen.getByTestId('wizard-progress').style.width);
const next = () => userEvent.click(screen.getByRole('button', { name: /Next/ }));

async function fillToReview() {
  await userEvent.type(screen.getByLabelText('Task title'), 'Assemble a wardrobe');
  await userEvent.type(screen.getByLabelText('Description'), 'PAX wardrobe, two doors');
  await userEvent.selectOptions(screen.getByLabelText('Category'), 'Furniture Assembly');
  await next();
  await userEvent.type(screen.getByLabelText('Location'), 'Newtown NSW');
  await next();
  await userEvent.type(screen.getByLabelText('Budget (AUD)'), '120');
  await userEvent.type(screen.getByLabelText('Due date'), '2099-01-15');
  await next();
}

beforeEach(() => {
  resetAuthForTests();
  appStore.set(authLoadingAtom, false);
  window.scrollTo = vi.fn() as unknown as typeof window.scrollTo;
  vi.stubGlobal('fetch', mockFetch({ 'GET /api/geocode': { body: [] } }).fn);
});
afterEach(() => vi.unstubAllGlobals());

// Whole forms typed key by key; give them time on a busy machine.
vi.setConfig({ testTimeout: 15_000 });

describe('post a task wizard', () => {
  it('grows the progress bar by 33.3% a step', () => {
    expect([1, 2, 3, 4].map(progressWidth)).toEqual(['0.0%', '33.3%', '66.6%', '99.9%']);
  });

  it('sends a signed-out visitor to login with a toast and the origin remembered', async () => {
    const { router } = renderWizard();
    expect(await screen.findByText('Login page')).toBeInTheDocument();
    expect(screen.getByText('Authentication Required')).toBeInTheDocument();
    expect(screen.getByText('You must be logged in to post a task')).toBeInTheDocument();
    expect(router.state.location.state).toMatchObject({ from: { pathname: '/post-task' } });
  });

  it('walks the four steps, validates, scrolls to top, Previous clears the error, then posts and goes to My Tasks', async () => {
    signIn();
    const api = mockFetch({
      'GET /api/geocode': { body: [] },
      'POST /api/tasks': { status: 201, body: { id: 't1', status: 'open' } },
    });
    vi.stubGlobal('fetch', api.fn);
    renderWizard();
    expect(progress()).toBe(0);
    expect(screen.queryByRole('button', { name: 'Post Task' })).not.toBeInTheDocument();

    await next();
    expect(screen.getByRole('alert')).toHaveTextContent('Please fill in all required fields');

    await userEvent.type(screen.getByLabelText('Task title'), 'Assemble a wardrobe');
    await userEvent.type(screen.getByLabelText('Description'), 'PAX wardrobe, two doors');
    await userEvent.selectOptions(screen.getByLabelText('Category'), 'Furniture Assembly');
    await next();
    expect(progress()).toBe(33.3);
    expect(window.scrollTo).toHaveBeenCalled();
    await userEvent.type(screen.getByLabelText('Location'), 'Newtown NSW');
    await next();
    expect(progress()).toBe(66.6);

    await userEvent.type(screen.getByLabelText('Budget (AUD)'), '3');
    await userEvent.type(screen.getByLabelText('Due date'), '2099-01-15');
    await next();
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter a valid budget amount');
    await userEvent.click(screen.getByRole('button', { name: /Previous/ }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(progress()).toBe(33.3);
    await next();
    await userEvent.clear(screen.getByLabelText('Budget (AUD)'));
    await userEvent.type(screen.getByLabelText('Budget (AUD)'), '120');
    await next();
    expect(progress()).toBe(99.9);
    expect(screen.getByText('Furniture Assembly')).toBeInTheDocument();
    expect(screen.getByText('$120')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Post Task' }));
    expect(await screen.findByText('My Tasks page')).toBeInTheDocument();
    const call = api.calls.find((c) => c.key === 'POST /api/tasks')!;
    expect(JSON.parse(String(call.init.body))).toEqual({
      title: 'Assemble a wardrobe',
      description: 'PAX wardrobe, two doors',
      category_id: 2,
      location: 'Newtown NSW',
      budget_cents: 12000,
      due_date: '2099-01-15',
    });
  });

  it('shows a submitting state, then the error alert with Sign in again / Sign out for session problems', async () => {
    signIn();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init: RequestInit = {}) => {
      if (String(input).includes('/api/tasks') && init.method === 'POST') {
        await gate;
        return new Response(JSON.stringify({ error: { code: 'email_not_confirmed', message: 'Email not confirmed' } }), { status: 403 });
      }
      return new Response('[]', { status: 200 });
    });
    renderWizard();
    await fillToReview();
    await userEvent.click(screen.getByRole('button', { name: 'Post Task' }));
    const busy = screen.getByRole('button', { name: /Posting/ });
    expect(busy).toBeDisabled();
    release();
    const signInAgain = await screen.findByRole('link', { name: 'Sign in again' });
    const alert = signInAgain.closest('[role="alert"]')!;
    expect(alert).toHaveTextContent('Unable to verify your account. Please try logging out and back in.');
    expect(alert).toHaveTextContent('Your session needs refreshing.');
    expect(screen.getByRole('link', { name: 'Sign in again' })).toHaveAttribute('href', '/login');
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Post Task' })).toBeEnabled();
  });

  it('maps server failures to the spec messages', () => {
    expect(postTaskErrorMessage(new ApiError(403, 'forbidden', 'nope'))).toBe(
      'Authentication error: Please log out and log in again before posting.',
    );
    expect(postTaskErrorMessage(new ApiError(422, 'validation_failed', 'Please enter a valid budget amount'))).toBe(
      'Please enter a valid budget amount',
    );
    expect(postTaskErrorMessage(new ApiError(500, 'internal', 'disk full'))).toBe('Database error: disk full');
    expect(postTaskErrorMessage(new ApiError(500, 'internal', ''))).toBe('Failed to post task');
    expect(postTaskErrorMessage(undefined)).toBe('An unexpected error occurred');
    expect(isSessionError('Your session has expired. Please log in again.')).toBe(true);
    expect(isSessionError('Please enter a valid budget amount')).toBe(false);
  });
});

describe('post a task wizard, per spec', () => {
  it('marks its inputs required, leaves the location unvalidated and moves focus to the step heading', async () => {
    signIn();
    renderWizard();
    for (const label of ['Task title', 'Description', 'Category']) expect(screen.getByLabelText(label)).toBeRequired();
    await userEvent.type(screen.getByLabelText('Task title'), 'Assemble a wardrobe');
    await userEvent.type(screen.getByLabelText('Description'), 'PAX wardrobe, two doors');
    await userEvent.selectOptions(screen.getByLabelText('Category'), 'Furniture Assembly');
    await next();
    expect(screen.getByRole('heading', { name: 'Step 2 of 4: Location' })).toHaveFocus();
    expect(screen.getByLabelText('Location')).toHaveValue('');
    await next();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Step 3 of 4: Budget' })).toHaveFocus();
    expect(screen.getByLabelText('Budget (AUD)')).toBeRequired();
    expect(screen.getByLabelText('Due date')).toBeRequired();
    await userEvent.click(screen.getByRole('button', { name: /Previous/ }));
    expect(screen.getByRole('heading', { name: 'Step 2 of 4: Location' })).toHaveFocus();
  });

  it('refreshes a session that expires within 5 minutes before posting', async () => {
    appStore.set(sessionAtom, {
      access_token: 'old',
      refresh_token: 'r',
      token_type: 'bearer',
      expires_in: 900,
      expires_at: Math.floor(Date.now() / 1000) + 240,
      user: { id: 'u1', email: 'ada@example.com' },
    });
    const api = mockFetch({
      'GET /api/geocode': { body: [] },
      'GET /api/me': { body: { user: { id: 'u1', email: 'ada@example.com' }, profile: { id: 'u1' } } },
      'POST /api/auth/refresh': {
        body: {
          access_token: 'new',
          refresh_token: 'r2',
          token_type: 'bearer',
          expires_in: 900,
          expires_at: Math.floor(Date.now() / 1000) + 900,
          user: { id: 'u1', email: 'ada@example.com' },
        },
      },
      'POST /api/tasks': { status: 201, body: { id: 't1', status: 'open' } },
    });
    vi.stubGlobal('fetch', api.fn);
    renderWizard();
    await fillToReview();
    await userEvent.click(screen.getByRole('button', { name: 'Post Task' }));
    expect(await screen.findByText('My Tasks page')).toBeInTheDocument();
    const keys = api.calls.map((c) => c.key);
    expect(keys.indexOf('POST /api/auth/refresh')).toBeGreaterThan(-1);
    expect(keys.indexOf('POST /api/auth/refresh')).toBeLessThan(keys.indexOf('POST /api/tasks'));
    const post = api.calls.find((c) => c.key === 'POST /api/tasks')!;
    expect((post.init.headers as Record<string, string>).Authorization).toBe('Bearer new');
  });
});
