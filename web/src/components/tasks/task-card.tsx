import { Calendar, MapPin, MessageSquare, Star } from 'lucide-react';
import { Link } from 'react-router';

import { Avatar } from '@/components/ui/avatar';
import { VerifiedBadges } from '@/components/ui/verified-badges';
import { formatDate } from '@/lib/format';
import { formatMoney, initialsOf, relativeTime, type TaskSummary } from '@/lib/marketplace';

/**
 * One task in a list; the whole card links to /task/{id}, the category chip to /tasks?category={id}.
 * `headingLevel`: 2 in a list right under the page's h1 (browse), else 3 (under a section's h2).
 */
export function TaskCard({
  task,
  onCategory,
  headingLevel = 3,
}: {
  task: TaskSummary;
  onCategory?: (categoryId: number) => void;
  headingLevel?: 2 | 3;
}) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <article className="relative flex h-full flex-col rounded-2xl border border-slate-200 bg-white p-5 shadow-sm transition hover:-translate-y-0.5 hover:shadow-md">
      <div className="flex items-start justify-between gap-3">
        <Link
          to={`/tasks?category=${task.category_id}`}
          onClick={(event) => {
            if (onCategory) {
              event.preventDefault();
              onCategory(task.category_id);
            }
          }}
          className="relative z-10 rounded-full bg-brand-50 px-2.5 py-1 text-xs font-semibold text-brand-800 hover:bg-brand-100"
        >
          {task.category}
        </Link>
        <p className="text-lg font-bold text-slate-900">{formatMoney(task.budget_cents, task.currency)}</p>
      </div>
      <Heading className="mt-3 text-base font-semibold text-slate-900">
        <Link to={`/task/${task.id}`} className="after:absolute after:inset-0 hover:text-brand-800 focus:outline-none">
          {task.title}
        </Link>
      </Heading>
      <div className="mt-1 flex items-start gap-3">
        <p className="line-clamp-2 min-w-0 flex-1 text-sm text-slate-600">{task.description}</p>
        {task.photos?.[0] && (
          <img
            src={task.photos[0].thumb_url}
            alt=""
            width={64}
            height={64}
            loading="lazy"
            decoding="async"
            data-testid="task-card-photo"
            className="h-16 w-16 shrink-0 rounded-lg object-cover ring-1 ring-slate-200"
          />
        )}
      </div>
      <ul className="mt-3 space-y-1 text-sm text-slate-600">
        <li className="flex items-center gap-1.5">
          <MapPin aria-hidden className="h-4 w-4 text-slate-400" />
          {task.location || 'Remote'}
        </li>
        {task.due_date && (
          <li className="flex items-center gap-1.5">
            <Calendar aria-hidden className="h-4 w-4 text-slate-400" />
            Due {formatDate(task.due_date)}
          </li>
        )}
      </ul>
      <div className="mt-auto flex items-center justify-between gap-3 border-t border-slate-100 pt-3 text-sm">
        <span className="flex min-w-0 items-center gap-2 text-slate-700">
          <Avatar src={task.poster.avatar_url} initials={initialsOf(task.poster.name)} alt="" size="sm" />
          <span className="truncate">{task.poster.name || 'Anonymous User'}</span>
          {task.poster.rating != null && (
            <span className="shrink-0 text-amber-600" aria-label={`rated ${task.poster.rating.toFixed(1)} out of 5`}>
              <Star aria-hidden className="inline h-3.5 w-3.5 fill-amber-400 text-amber-400" /> {task.poster.rating.toFixed(1)}
            </span>
          )}
        </span>
        <span className="flex shrink-0 items-center gap-1 text-slate-500" data-testid="offer-count">
          <MessageSquare aria-hidden className="h-4 w-4" />
          {task.offer_count} {task.offer_count === 1 ? 'offer' : 'offers'}
        </span>
      </div>
      <div className="mt-2 flex flex-wrap items-center justify-between gap-2">
        <p className="text-xs text-slate-500">Posted {relativeTime(task.created_at)}</p>
        <VerifiedBadges verified={task.poster.verified} />
      </div>
    </article>
  );
}

export function TaskCardSkeleton() {
  return (
    <div aria-hidden className="h-64 animate-pulse rounded-2xl border border-slate-200 bg-white p-5">
      <div className="flex justify-between">
        <div className="h-6 w-24 rounded-full bg-slate-200" />
        <div className="h-6 w-14 rounded bg-slate-200" />
      </div>
      <div className="mt-4 h-5 w-3/4 rounded bg-slate-200" />
      <div className="mt-3 h-4 w-full rounded bg-slate-100" />
      <div className="mt-2 h-4 w-2/3 rounded bg-slate-100" />
      <div className="mt-6 h-4 w-1/2 rounded bg-slate-100" />
      <div className="mt-8 h-8 w-full rounded bg-slate-100" />
    </div>
  );
}
