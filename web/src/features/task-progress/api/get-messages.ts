import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';

import { authorizedRequest } from '@/lib/auth/session';
import { queryKeys } from '@/lib/query-keys';

export type TaskMessage = {
  id: string;
  task_id: string;
  sender?: { id: string; name: string; avatar_url: string | null };
  sender_id?: string;
  /** Null once a moderator removed it. */
  body: string | null;
  removed?: boolean;
  created_at: string;
  /** A photo only the two parties can fetch (with their token); null without one or once removed. */
  photo?: { id: string; url: string; thumb_url: string } | null;
};

/** The newest message the other party has read, and when (null: none, or receipts are off). */
export type ReadMark = { up_to: string; at: string } | null;

type Conversation = { items: TaskMessage[]; read_up_to?: string | null; read_at?: string | null };

export function getConversation(taskId: string): Promise<Conversation> {
  return authorizedRequest<TaskMessage[] | Conversation>(`/api/tasks/${encodeURIComponent(taskId)}/messages`).then((r) =>
    Array.isArray(r) ? { items: r } : r,
  );
}

async function loadConversation(client: QueryClient, taskId: string): Promise<TaskMessage[]> {
  const conversation = await getConversation(taskId);
  const mark: ReadMark = conversation.read_up_to && conversation.read_at ? { up_to: conversation.read_up_to, at: conversation.read_at } : null;
  client.setQueryData(queryKeys.messageRead(taskId), mark);
  return conversation.items;
}

/** The private thread between poster and assigned tasker; `message.created` arrives on each user's topic. */
export function useMessages(taskId: string, enabled: boolean) {
  const client = useQueryClient();
  return useQuery({ queryKey: queryKeys.messages(taskId), queryFn: () => loadConversation(client, taskId), enabled });
}

/** The other party's read mark: set by the conversation's load and by `message.read` events. */
export function useReadMark(taskId: string): ReadMark {
  const client = useQueryClient();
  const { data } = useQuery({
    queryKey: queryKeys.messageRead(taskId),
    queryFn: () => client.getQueryData<ReadMark>(queryKeys.messageRead(taskId)) ?? null,
    staleTime: Infinity,
  });
  return data ?? null;
}

/** Tells the other party the user has read the conversation up to `upTo` (204). */
export function markRead(taskId: string, upTo: string): Promise<void> {
  return authorizedRequest<void>(`/api/tasks/${encodeURIComponent(taskId)}/messages/read`, { method: 'POST', body: { up_to: upTo } });
}
