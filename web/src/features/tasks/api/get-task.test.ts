import { QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { getTask, prefetchTask } from '@/features/tasks/api/get-task';
import { queryClient } from '@/lib/query-client';
import { mockFetch } from '@/testing/render';

/** What the server writes into a task's page (`task.html`): the task as the API shows it. */
function embed(text: string) {
  const script = document.createElement('script');
  script.type = 'application/json';
  script.id = 'task-data';
  script.textContent = text;
  document.head.append(script);
}

afterEach(() => {
  vi.unstubAllGlobals();
  document.getElementById('task-data')?.remove();
  queryClient.clear();
});

describe('a task page landed on', () => {
  it('shows the task its HTML carries without waiting for the API, which it then asks again', async () => {
    const task = { id: 't1', title: 'Paint the fence', view_count: 3 };
    const { fn, calls } = mockFetch({ 'GET /api/tasks/t1': { body: { ...task, view_count: 4 } } });
    vi.stubGlobal('fetch', fn);
    embed(JSON.stringify(task));

    await prefetchTask('t1');
    // The page mounts: its query has the task at once and does not fetch it then.
    const page = new QueryObserver(queryClient, { queryKey: ['tasks', 'detail', 't1'], queryFn: () => getTask('t1') });
    const unsubscribe = page.subscribe(() => undefined);
    expect(page.getCurrentResult().data).toEqual(task);
    expect(calls).toHaveLength(0);

    // Once the browser is idle after the first paint, the page asks the API again: that counts the
    // view and brings anything newer.
    await vi.waitFor(() => expect(page.getCurrentResult().data).toEqual({ ...task, view_count: 4 }));
    expect(calls.map((call) => call.key)).toEqual(['GET /api/tasks/t1']);
    unsubscribe();
    // Read once: a later visit to the page within the app asks the API.
    expect(document.getElementById('task-data')).toBeNull();
  });

  it("asks the API when the page carries another task or something that isn't JSON", async () => {
    for (const text of [JSON.stringify({ id: 'other', title: 'Not this one' }), '{"id": "t1", "title": ']) {
      const { fn, calls } = mockFetch({ 'GET /api/tasks/t1': { body: { id: 't1', title: 'From the API' } } });
      vi.stubGlobal('fetch', fn);
      embed(text);

      await prefetchTask('t1');

      expect(calls.map((call) => call.key)).toEqual(['GET /api/tasks/t1']);
      expect(queryClient.getQueryData(['tasks', 'detail', 't1'])).toEqual({ id: 't1', title: 'From the API' });
      expect(document.getElementById('task-data')).toBeNull();
      queryClient.clear();
    }
  });
});
