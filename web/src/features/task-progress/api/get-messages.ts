import { useQuery } from '@tanstack/react-query';

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

export function getMessages(taskId: string): Promise<TaskMessage[]> {
  return authorizedRequest<TaskMessage[] | { items: TaskMessage[] }>(`/api/tasks/${encodeURIComponent(taskId)}/messages`).then((r) =>
    Array.isArray(r) ? r : r.items,
  );
}

/** The private thread between poster and assigned tasker; `message.created` arrives on each user's topic. */
export function useMessages(taskId: string, enabled: boolean) {
  return useQuery({ queryKey: queryKeys.messages(taskId), queryFn: () => getMessages(taskId), enabled });
}
