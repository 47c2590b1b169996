import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { loadCurrentPage, routes } from '@/app/router';
import { renderRoutes } from '@/testing/render';

describe('routes', () => {
  it('show a page whose code loaded before the first render at once, without a loading spinner', async () => {
    window.history.replaceState(null, '', '/about');
    await loadCurrentPage();
    renderRoutes(routes, ['/about']);
    expect(screen.getByRole('heading', { level: 1, name: 'About Us' })).toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });
});
