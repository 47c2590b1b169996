import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

import { authorizedRequest } from '@/lib/auth/session';
import { errorMessage } from '@/lib/http';
import { queryKeys } from '@/lib/query-keys';

type Privacy = { share_online: boolean; share_read_receipts: boolean };

/** Online status and read receipts are mutual: turned off, the other party sees none of yours and you none of theirs. */
export function PrivacySettings() {
  const client = useQueryClient();
  const privacy = useQuery({ queryKey: queryKeys.privacy, queryFn: () => authorizedRequest<Privacy>('/api/me/privacy') });
  const save = useMutation({
    mutationFn: (change: Partial<Privacy>) => authorizedRequest<Privacy>('/api/me/privacy', { method: 'PUT', body: change }),
    onSuccess: (saved) => client.setQueryData(queryKeys.privacy, saved),
  });
  if (privacy.isError) return <p className="text-sm text-red-700">{errorMessage(privacy.error, 'Privacy settings could not be loaded.')}</p>;
  return (
    <div className="space-y-3">
      <label className="flex items-start gap-3 text-sm text-slate-700">
        <input
          type="checkbox"
          className="mt-0.5 h-4 w-4"
          checked={privacy.data?.share_online ?? true}
          disabled={!privacy.data || save.isPending}
          onChange={(e) => save.mutate({ share_online: e.target.checked })}
        />
        <span>
          <span className="font-medium text-slate-900">Show when I'm online</span>
          <span className="block text-slate-600">The other party of a task sees whether you are online, or when you were last seen. Off, you will not see theirs either.</span>
        </span>
      </label>
      <label className="flex items-start gap-3 text-sm text-slate-700">
        <input
          type="checkbox"
          className="mt-0.5 h-4 w-4"
          checked={privacy.data?.share_read_receipts ?? true}
          disabled={!privacy.data || save.isPending}
          onChange={(e) => save.mutate({ share_read_receipts: e.target.checked })}
        />
        <span>
          <span className="font-medium text-slate-900">Share read receipts</span>
          <span className="block text-slate-600">The other party of a task sees when you have read their messages. Off, you will not see theirs either.</span>
        </span>
      </label>
      {save.isError && <p className="mt-2 text-sm text-red-600">{errorMessage(save.error, 'Your choice could not be saved.')}</p>}
    </div>
  );
}
