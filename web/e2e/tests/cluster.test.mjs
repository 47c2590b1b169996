// The scale-out deployment end to end (scripts/cluster.sh: two server nodes behind nginx, events
// crossing nodes through Redis). The poster's and the tasker's pages keep their sockets on
// different nodes (told apart by each node's realtime_connections gauge), and an offer made
// through the load balancer reaches both live. Runs only against the cluster: `make e2e-cluster`
// sets E2E_NODE_URLS; the single-server run skips it.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { api, BASE_URL, createVerifiedUser, launch, login, signedInPage, waitForTopic } from '../browser.mjs';

const nodes = (process.env.E2E_NODE_URLS ?? '').split(',').filter(Boolean);

let browser;
before(async () => {
  if (nodes.length === 2) browser = await launch();
});
after(async () => {
  await browser?.close();
});

/** Open sockets per node, from each node's Prometheus metrics. */
async function socketsPerNode() {
  return Promise.all(
    nodes.map(async (node) => {
      const text = await (await fetch(`${node}/metrics`)).text();
      const line = text.split('\n').find((l) => l.startsWith('realtime_connections '));
      return Number(line?.split(' ')[1] ?? 0);
    }),
  );
}

/** The node whose socket count went up by one since `before` (and nothing else moved), or -1. */
async function nodeOfNewSocket(before) {
  for (let i = 0; i < 50; i += 1) {
    const now = await socketsPerNode();
    const diff = now.map((n, index) => n - before[index]);
    if (diff.filter((d) => d === 1).length === 1 && diff.filter((d) => d !== 0).length === 1) return diff.indexOf(1);
    await new Promise((r) => setTimeout(r, 100));
  }
  return -1;
}

async function socketsBackTo(counts) {
  for (let i = 0; i < 100; i += 1) {
    if ((await socketsPerNode()).every((n, index) => n === counts[index])) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('through nginx, with the poster and the tasker on different nodes, an offer reaches both live', { skip: nodes.length !== 2 && 'not against the cluster (E2E_NODE_URLS)' }, async () => {
  const poster = await createVerifiedUser({ prefix: 'cluster-poster' });
  const watching = await createVerifiedUser({ prefix: 'cluster-tasker', body: { account_type: 'tasker', skills: [{ name: 'Moving', level: 80 }] } });
  const offering = await createVerifiedUser({ prefix: 'cluster-offerer', body: { account_type: 'tasker', skills: [{ name: 'Moving', level: 60 }] } });
  const { access_token: posterToken } = await login(poster);
  const due = new Date(Date.now() + 4 * 86_400_000).toISOString().slice(0, 10);
  const task = await api('/api/tasks', {
    method: 'POST',
    token: posterToken,
    body: { title: 'Move a piano upstairs', description: 'Upright piano, one flight of stairs.', category_id: 5, location: 'Marrickville NSW', budget_cents: 40000, due_date: due },
  });

  const open = async (account, avoidNode) => {
    for (let attempt = 0; attempt < 8; attempt += 1) {
      const before = await socketsPerNode();
      const page = await signedInPage(browser, account);
      await page.goto(`/task/${task.id}`);
      await page.getByRole('heading', { level: 1, name: 'Move a piano upstairs' }).waitFor();
      await waitForTopic(page, `task:${task.id}`);
      const node = await nodeOfNewSocket(before);
      if (node !== -1 && node !== avoidNode) return { page, node };
      await page.context().close();
      await socketsBackTo(before); // its socket is gone on the server too, so the next count is clean
      // Same node as the other party. nginx balances round-robin and a page load makes the same
      // requests each time, so shift its turn by one more request per attempt before retrying.
      for (let shift = 0; shift <= attempt; shift += 1) await fetch(`${BASE_URL}/healthz`);
    }
    throw new Error('could not get a socket on the other node through nginx');
  };
  const posterView = await open(poster, -1);
  const taskerView = await open(watching, posterView.node);
  assert.notEqual(posterView.node, taskerView.node, 'the two sockets are on different nodes');

  const { access_token: offerToken } = await login(offering);
  const offer = await api(`/api/tasks/${task.id}/offers`, { method: 'POST', token: offerToken, body: { amount_cents: 38000, message: 'Two of us, with a trolley' } });
  for (const view of [posterView, taskerView]) {
    await view.page.locator(`[data-offer-id="${offer.id}"]`).waitFor({ timeout: 15_000 });
  }
  // The amount reaches the poster only, whichever node served them.
  await posterView.page.getByText('$380').first().waitFor();
  for (const view of [posterView, taskerView]) await view.page.context().close();
});
