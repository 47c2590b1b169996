import { afterEach, describe, expect, it, vi } from 'vitest';

import { getOffers } from '@/features/offers/api/get-offers';
import type { Offer } from '@/lib/marketplace';
import { mockFetch } from '@/testing/render';

const offer = (id: string): Offer => ({
  id,
  task_id: 't1',
  tasker: { id: `tasker-${id}`, name: 'Sam L.', avatar_url: null, rating: null },
  amount_cents: null,
  message: null,
  status: 'pending',
  created_at: '2026-01-01T00:00:00Z',
});

afterEach(() => vi.unstubAllGlobals());

describe('getOffers', () => {
  it('follows the pages of a task with many offers', async () => {
    const api = mockFetch({
      'GET /api/tasks/t1/offers': [
        { body: { items: [offer('o1'), offer('o2')], next_cursor: 'c1', has_more: true } },
        { body: { items: [offer('o3')], next_cursor: null, has_more: false } },
      ],
    });
    vi.stubGlobal('fetch', api.fn);
    const offers = await getOffers('t1');
    expect(offers.map((item) => item.id)).toEqual(['o1', 'o2', 'o3']);
    expect(api.calls).toHaveLength(2);
  });
});
