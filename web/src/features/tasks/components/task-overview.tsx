import { ArrowLeft, Calendar, Clock, Flag, HelpCircle, MapPin, Share2 } from 'lucide-react';
import { Link } from 'react-router';

import { TaskPhotoGallery } from '@/components/tasks/photo-gallery';
import { Button } from '@/components/ui/button';
import { formatDate } from '@/lib/format';
import { formatMoney, relativeTime, statusLabel, type TaskDetail } from '@/lib/marketplace';
import { toast } from '@/lib/toast';

const statusTone: Record<string, string> = {
  Open: 'bg-emerald-50 text-emerald-800 ring-emerald-200',
  Assigned: 'bg-amber-50 text-amber-800 ring-amber-200',
  Completed: 'bg-sky-50 text-sky-800 ring-sky-200',
  Cancelled: 'bg-slate-100 text-slate-700 ring-slate-200',
};

async function share(task: TaskDetail) {
  const url = window.location.href;
  try {
    if (navigator.share) {
      await navigator.share({ title: task.title, text: `${task.title} on Taskhub`, url });
      return;
    }
    await navigator.clipboard.writeText(url);
    toast({ title: 'Link copied', description: 'The task link is on your clipboard.', variant: 'success' });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') return;
    toast({ title: 'Could not share', description: url, variant: 'error' });
  }
}

/** The task's header block: back link, chip, status, title, facts, budget, description and actions. */
export function TaskOverview({ task, onAsk, onReport }: { task: TaskDetail; onAsk: () => void; onReport: () => void }) {
  const label = statusLabel(task.status);
  return (
    <section aria-labelledby="task-title" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
      <Link to="/tasks" className="inline-flex items-center gap-1 text-sm font-semibold text-brand-700 hover:underline">
        <ArrowLeft aria-hidden className="h-4 w-4" /> Back to tasks
      </Link>
      <div className="mt-4 flex flex-wrap items-center gap-2">
        <Link to={`/tasks?category=${task.category_id}`} className="rounded-full bg-brand-50 px-2.5 py-1 text-xs font-semibold text-brand-800">
          {task.category}
        </Link>
        <span data-testid="task-status" className={`rounded-full px-2.5 py-1 text-xs font-semibold ring-1 ${statusTone[label] ?? statusTone.Assigned}`}>
          {label}
        </span>
      </div>
      <div className="mt-3 flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <h1 id="task-title" className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
          {task.title}
        </h1>
        <div className="shrink-0 rounded-xl bg-slate-50 px-4 py-2 text-right">
          <p className="text-xs uppercase tracking-wide text-slate-500">Budget</p>
          <p className="text-2xl font-bold text-slate-900">{formatMoney(task.budget_cents, task.currency)}</p>
        </div>
      </div>
      <ul className="mt-4 grid gap-2 text-sm text-slate-600 sm:grid-cols-3">
        <li className="flex items-center gap-1.5">
          <MapPin aria-hidden className="h-4 w-4 text-slate-400" /> {task.location || 'Remote'}
        </li>
        <li className="flex items-center gap-1.5">
          <Calendar aria-hidden className="h-4 w-4 text-slate-400" /> Due {task.due_date ? formatDate(task.due_date) : 'flexible'}
        </li>
        <li className="flex items-center gap-1.5">
          <Clock aria-hidden className="h-4 w-4 text-slate-400" /> Posted {relativeTime(task.created_at)}
        </li>
      </ul>
      <h2 className="mt-6 text-sm font-semibold uppercase tracking-wide text-slate-500">Description</h2>
      <p className="mt-2 whitespace-pre-line text-slate-800">{task.description}</p>
      <TaskPhotoGallery photos={task.photos ?? []} title={task.title} />
      <div className="mt-6 flex flex-wrap gap-2 border-t border-slate-100 pt-4">
        <Button variant="outline" size="sm" onClick={onAsk}>
          <HelpCircle aria-hidden className="h-4 w-4" /> Ask a question
        </Button>
        <Button variant="outline" size="sm" onClick={() => void share(task)}>
          <Share2 aria-hidden className="h-4 w-4" /> Share
        </Button>
        <Button variant="ghost" size="sm" onClick={onReport}>
          <Flag aria-hidden className="h-4 w-4" /> Report
        </Button>
      </div>
    </section>
  );
}
