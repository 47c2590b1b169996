import type { InfiniteData, QueryClient } from '@tanstack/react-query';

import { queryKeys } from '@/lib/query-keys';
import type { RealtimeEvent } from '@/lib/realtime/types';

/* Socket events → TanStack Query cache, through the keys of `@/lib/query-keys`. */

type WithId = { id: string };
type Page<T> = { items: T[]; next_cursor?: string | null };
type TaskLike = WithId & { status?: string; offer_count?: number; questions?: unknown[]; photos?: unknown[] };
type OfferLike = WithId & { task_id?: string; amount_cents?: number | null; message?: string | null; status?: string };
type NotificationsPage = { items: Array<WithId & { is_read?: boolean }>; unread_count: number; next_cursor?: string | null };

function upsert<T extends WithId>(list: T[], item: T, prepend = false): T[] {
  const index = list.findIndex((entry) => entry.id === item.id);
  if (index === -1) return prepend ? [item, ...list] : [...list, item];
  const next = list.slice();
  // A public event lacks amount/message; never overwrite what the poster's private copy carried.
  const merged = { ...list[index] } as Record<string, unknown>;
  for (const [key, value] of Object.entries(item)) if (value !== null && value !== undefined) merged[key] = value;
  next[index] = merged as T;
  return next;
}

function patchTaskEverywhere(client: QueryClient, id: string, patch: Partial<TaskLike>) {
  client.setQueryData<TaskLike>(queryKeys.task(id), (task) => (task ? { ...task, ...patch } : task));
  patchTaskLists(client, id, patch);
}

/** The task in every list it may be in (browse, incoming, My Tasks, My Offers), not its own page. */
function patchTaskLists(client: QueryClient, id: string, patch: Partial<TaskLike>) {
  const dropsOut = patch.status !== undefined && patch.status !== 'open';
  client.setQueriesData<InfiniteData<Page<TaskLike>>>({ queryKey: queryKeys.taskLists }, (data) =>
    data?.pages
      ? {
          ...data,
          pages: data.pages.map((page) => ({
            ...page,
            items: dropsOut
              ? page.items.filter((task) => task.id !== id)
              : page.items.map((task) => (task.id === id ? { ...task, ...patch } : task)),
          })),
        }
      : data,
  );
  client.setQueryData<TaskLike[]>(queryKeys.incoming, (list) =>
    list ? (dropsOut ? list.filter((task) => task.id !== id) : list.map((t) => (t.id === id ? { ...t, ...patch } : t))) : list,
  );
  client.setQueryData<TaskLike[]>(queryKeys.myTasks, (list) => list?.map((t) => (t.id === id ? { ...t, ...patch } : t)));
  client.setQueryData<Array<{ task?: TaskLike }>>(queryKeys.myOffers, (list) =>
    list?.map((entry) => (entry.task?.id === id ? { ...entry, task: { ...entry.task, ...patch } } : entry)),
  );
}

function taskIdOf(topic: string): string | null {
  return topic.startsWith('task:') ? topic.slice(5) : null;
}

/** Notification types that tell a party the lifecycle of the linked task moved on. */
const LIFECYCLE_NOTIFICATIONS = new Set(['task', 'dispute', 'payment']);

/** The task id of an in-app link such as `/task/{id}`, if it is one. */
export function taskIdOfLink(link: unknown): string | null {
  if (typeof link !== 'string') return null;
  const match = /^\/task\/([^/?#]+)/.exec(link);
  return match ? decodeURIComponent(match[1]) : null;
}

/**
 * The lifecycle of an assigned task (cancellation request, dispute, payment) has no events of its
 * own: refetch what a party may be looking at whenever the task or one of its notifications moves.
 */
export function invalidateTaskLifecycle(client: QueryClient, taskId: string) {
  const keys = [
    queryKeys.cancellation(taskId),
    queryKeys.dispute(taskId),
    queryKeys.payment(taskId),
    queryKeys.priceIncreases(taskId),
    queryKeys.reschedules(taskId),
  ];
  for (const queryKey of keys) {
    void client.invalidateQueries({ queryKey });
  }
}

/** Applies one socket event to the cache in place (no refetch), returning whether it was understood. */
export function applyRealtimeEvent(client: QueryClient, message: RealtimeEvent): boolean {
  switch (message.event) {
    case 'task.created': {
      const task = message.data as TaskLike;
      if (!task.id || (task.status && task.status !== 'open')) return true;
      const alreadyListed = client
        .getQueriesData<InfiniteData<Page<TaskLike>>>({ queryKey: queryKeys.taskLists })
        .some(([, d]) => d?.pages?.some((p) => p.items.some((t) => t.id === task.id)));
      if (!alreadyListed) client.setQueryData<TaskLike[]>(queryKeys.incoming, (list = []) => upsert(list, task, true));
      return true;
    }
    case 'task.updated': {
      // A status change, or a poster's edit (its public facts, and on `task:{id}` all its photos).
      const data: Record<string, unknown> = { ...message.data };
      const id = (data.id as string | undefined) ?? taskIdOf(message.topic);
      if (!id) return false;
      const { photos, ...facts } = data;
      patchTaskEverywhere(client, id, { ...(facts as Partial<TaskLike>), id });
      if (Array.isArray(photos)) {
        // `task:{id}` carries all the photos, the feed only the first (what cards show): only
        // the task's own topic may change its gallery.
        if (message.topic === `task:${id}`) client.setQueryData<TaskLike>(queryKeys.task(id), (task) => (task ? { ...task, photos } : task));
        patchTaskLists(client, id, { photos: photos.slice(0, 1) });
      }
      invalidateTaskLifecycle(client, id);
      return true;
    }
    case 'offer.created':
    case 'offer.updated':
    case 'offer.withdrawn': {
      const { offer_count: offerCount, ...offer } = message.data;
      const taskId = offer.task_id ?? taskIdOf(message.topic);
      if (!taskId || !offer.id) return false;
      const withdrawn = message.event === 'offer.withdrawn';
      client.setQueryData<OfferLike[]>(queryKeys.offers(taskId), (list) => {
        if (!list) return list;
        if (withdrawn) return upsert(list, { ...offer, status: offer.status ?? 'withdrawn' });
        return upsert(list, offer);
      });
      if (typeof offerCount === 'number') patchTaskEverywhere(client, taskId, { offer_count: offerCount });
      client.setQueryData<Array<OfferLike & { task?: unknown }>>(queryKeys.myOffers, (list) =>
        list?.map((entry) => (entry.id === offer.id ? { ...entry, status: offer.status ?? entry.status } : entry)),
      );
      return true;
    }
    case 'question.created':
    case 'question.answered': {
      const question = message.data;
      const taskId = question.task_id ?? taskIdOf(message.topic);
      if (!taskId || !question.id) return false;
      client.setQueryData<TaskLike>(queryKeys.task(taskId), (task) =>
        task ? { ...task, questions: upsert((task.questions ?? []) as WithId[], question) } : task,
      );
      return true;
    }
    case 'message.created': {
      const sent = message.data;
      const taskId = sent.task_id ?? taskIdOf(message.topic);
      if (!taskId || !sent.id) return false;
      client.setQueryData<WithId[]>(queryKeys.messages(taskId), (list) => (list ? upsert(list, sent) : list));
      return true;
    }
    case 'message.read': {
      const { task_id: taskId, up_to: upTo, at } = message.data;
      if (!taskId || !upTo) return false;
      client.setQueryData(queryKeys.messageRead(taskId), { up_to: upTo, at });
      return true;
    }
    case 'notification.created': {
      const notification = message.data;
      if (!notification.id) return false;
      client.setQueryData<NotificationsPage>(queryKeys.notifications, (page) => {
        if (!page) return page;
        const known = page.items.some((n) => n.id === notification.id);
        return known
          ? page
          : {
              ...page,
              items: [notification, ...page.items],
              unread_count: page.unread_count + (notification.is_read ? 0 : 1),
            };
      });
      if (!client.getQueryData(queryKeys.notifications)) void client.invalidateQueries({ queryKey: queryKeys.notifications });
      const about = taskIdOfLink(notification.link);
      const type: string = notification.type;
      if (about && LIFECYCLE_NOTIFICATIONS.has(type)) {
        void client.invalidateQueries({ queryKey: queryKeys.task(about) });
        invalidateTaskLifecycle(client, about);
      }
      if (type === 'dispute') void client.invalidateQueries({ queryKey: queryKeys.adminDisputes });
      return true;
    }
    case 'payment.updated': {
      const taskId = message.data.task_id ?? null;
      if (taskId) {
        void client.invalidateQueries({ queryKey: queryKeys.task(taskId) });
        invalidateTaskLifecycle(client, taskId);
      }
      void client.invalidateQueries({ queryKey: queryKeys.me });
      return true;
    }
    case 'price_increase.created':
    case 'price_increase.updated':
    case 'reschedule.created':
    case 'reschedule.updated': {
      const taskId = message.data.task_id ?? null;
      if (taskId) {
        void client.invalidateQueries({ queryKey: queryKeys.task(taskId) });
        invalidateTaskLifecycle(client, taskId);
      }
      void client.invalidateQueries({ queryKey: queryKeys.myTaskChanges });
      return true;
    }
    case 'report.created': {
      void client.invalidateQueries({ queryKey: queryKeys.adminReports });
      return true;
    }
    case 'dispute.created': {
      void client.invalidateQueries({ queryKey: queryKeys.adminDisputes });
      return true;
    }
    default: {
      // Every event the server declares is handled above (a new one fails type-checking here);
      // an event from a newer server than this page is left alone.
      const unknown: never = message;
      void unknown;
      return false;
    }
  }
}

/** What to refetch when the hub could not replay a topic's missed events (recovered: false). */
export function refetchTopic(client: QueryClient, topic: string) {
  const taskId = taskIdOf(topic);
  if (taskId) {
    void client.invalidateQueries({ queryKey: queryKeys.task(taskId) });
    void client.invalidateQueries({ queryKey: queryKeys.offers(taskId) });
    void client.invalidateQueries({ queryKey: queryKeys.messages(taskId) });
    invalidateTaskLifecycle(client, taskId);
  } else if (topic === 'tasks') {
    void client.invalidateQueries({ queryKey: queryKeys.taskLists });
  } else if (topic.startsWith('user:')) {
    void client.invalidateQueries({ queryKey: queryKeys.me });
    void client.invalidateQueries({ queryKey: queryKeys.allOffers });
  } else if (topic === 'admin') {
    void client.invalidateQueries({ queryKey: queryKeys.adminReports });
    void client.invalidateQueries({ queryKey: queryKeys.adminDisputes });
  }
}

/**
 * After a topic's first ack: refetch what a screen may have loaded before the subscription
 * started (events in between were never sent). Only queries that already hold data; the public
 * `tasks` feed is left alone (new tasks surface through the pill).
 */
export function closeSubscribeGap(client: QueryClient, topic: string) {
  const keys: Array<readonly unknown[]> = [];
  const taskId = taskIdOf(topic);
  if (taskId) {
    keys.push(queryKeys.task(taskId), queryKeys.offers(taskId), queryKeys.messages(taskId));
    keys.push(queryKeys.cancellation(taskId), queryKeys.dispute(taskId), queryKeys.payment(taskId));
  }
  else if (topic.startsWith('user:')) keys.push(queryKeys.notifications, queryKeys.allMessages);
  else if (topic === 'admin') keys.push(queryKeys.adminReports, queryKeys.adminDisputes);
  for (const queryKey of keys) {
    void client.invalidateQueries({ queryKey, predicate: (query) => query.state.dataUpdatedAt > 0 });
  }
}
