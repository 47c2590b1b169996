import { useState } from 'react';
import { Link } from 'react-router';

import { Alert } from '@/components/ui/alert';
import { Button, buttonClasses } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { useMyOpenTasks } from '@/features/profiles/api/get-my-open-tasks';
import { useInviteTasker } from '@/features/profiles/api/invite-tasker';
import { ApiError, errorMessage } from '@/lib/http';

/**
 * Taskhub has no direct messages between strangers: a poster invites a tasker to one of their open
 * tasks (a notification with its link), and private messages open once the tasker is assigned.
 */
export function InviteDialog({ open, onClose, name, taskerId, mode }: {
  open: boolean;
  onClose: () => void;
  name: string;
  taskerId: string;
  mode: 'invite' | 'contact';
}) {
  const tasks = useMyOpenTasks(open);
  const invite = useInviteTasker(taskerId);
  const [invited, setInvited] = useState<string[]>([]);
  const send = (taskId: string) =>
    invite.mutate(taskId, {
      onSuccess: () => setInvited((ids) => [...ids, taskId]),
      onError: (error) => {
        // Invited before (another tab, an earlier visit): that is what the poster wanted.
        if (error instanceof ApiError && error.status === 409) setInvited((ids) => [...ids, taskId]);
      },
    });
  return (
    <Dialog open={open} onClose={onClose} title={mode === 'invite' ? `Invite ${name} to a task` : `Contact ${name}`}>
      <p className="text-sm text-slate-600">
        {mode === 'invite'
          ? `Pick one of your open tasks. ${name} gets a notification with a link to it and can then make an offer.`
          : `To keep everyone safe, messages on Taskhub are tied to a task. Invite ${name} to one of your open tasks; once you accept their offer you can message each other privately.`}
      </p>
      <div className="mt-4">
        {tasks.isPending && (
          <div role="status" className="flex justify-center py-6">
            <Spinner />
            <span className="sr-only">Loading your tasks</span>
          </div>
        )}
        {tasks.isError && <Alert>We couldn't load your tasks. Please try again in a moment.</Alert>}
        {tasks.data && tasks.data.length === 0 && (
          <div className="space-y-3 rounded-xl bg-slate-50 p-4 text-sm text-slate-700">
            <p>You don't have any open tasks right now.</p>
            <Link to="/post-task" className={buttonClasses('secondary', 'sm')}>
              Post a Task
            </Link>
          </div>
        )}
        {tasks.data && tasks.data.length > 0 && (
          <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200">
            {tasks.data.map((task) => (
              <li key={task.id} className="flex items-center justify-between gap-3 p-3">
                <Link to={`/task/${task.id}`} className="min-w-0 truncate text-sm font-medium text-slate-900 hover:underline">
                  {task.title}
                </Link>
                {invited.includes(task.id) ? (
                  <span role="status" className="shrink-0 text-sm font-medium text-emerald-700">
                    Invited
                  </span>
                ) : (
                  <Button
                    size="sm"
                    variant="outline"
                    aria-label={`Invite ${name} to ${task.title}`}
                    loading={invite.isPending && invite.variables === task.id}
                    onClick={() => send(task.id)}
                  >
                    Invite
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
        {invite.isError && !(invite.error instanceof ApiError && invite.error.status === 409) && (
          <Alert className="mt-3">{errorMessage(invite.error, 'The invitation could not be sent. Please try again.')}</Alert>
        )}
      </div>
    </Dialog>
  );
}
