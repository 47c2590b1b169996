import { ShieldCheck, Star } from 'lucide-react';
import { Link } from 'react-router';

import { TaskCard } from '@/components/tasks/task-card';
import { Avatar } from '@/components/ui/avatar';
import { VerifiedBadges } from '@/components/ui/verified-badges';
import { formatMemberSince } from '@/lib/format';
import { initialsOf, statusLabel, type TaskDetail } from '@/lib/marketplace';

export function PosterCard({ task }: { task: TaskDetail }) {
  const stats = task.poster_stats;
  return (
    <section aria-labelledby="poster-heading" className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id="poster-heading" className="text-sm font-semibold uppercase tracking-wide text-slate-500">
        Posted by
      </h2>
      <Link to={`/profile/${task.poster.id}`} className="mt-3 flex items-center gap-3 hover:text-brand-800">
        <Avatar src={task.poster.avatar_url} initials={initialsOf(task.poster.name)} alt="" size="lg" />
        <span>
          <span className="block font-semibold text-slate-900">{task.poster.name || 'Anonymous User'}</span>
          <span className="flex items-center gap-1 text-sm text-slate-600">
            <Star aria-hidden className="h-4 w-4 fill-amber-400 text-amber-400" />
            {stats?.review_count ? `${(stats.rating ?? 0).toFixed(1)} (${stats.review_count} reviews)` : 'No reviews yet'}
          </span>
          <VerifiedBadges verified={task.poster.verified} className="mt-1" />
        </span>
      </Link>
      {stats && (
        <dl className="mt-4 grid grid-cols-2 gap-3 text-sm">
          <div>
            <dt className="text-slate-500">Member since</dt>
            <dd className="font-medium text-slate-900">{formatMemberSince(stats.member_since)}</dd>
          </div>
          <div>
            <dt className="text-slate-500">Tasks completed</dt>
            <dd className="font-medium text-slate-900">{stats.tasks_completed}</dd>
          </div>
        </dl>
      )}
    </section>
  );
}

export function TaskStats({ task }: { task: TaskDetail }) {
  return (
    <section aria-label="Task stats" className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
      <dl className="grid grid-cols-3 gap-2 text-center">
        <div>
          <dt className="text-xs uppercase tracking-wide text-slate-500">Status</dt>
          <dd className="mt-1 font-semibold text-slate-900">{statusLabel(task.status)}</dd>
        </div>
        <div>
          <dt className="text-xs uppercase tracking-wide text-slate-500">Offers</dt>
          <dd className="mt-1 font-semibold text-slate-900" data-testid="stats-offers">
            {task.offer_count}
          </dd>
        </div>
        <div>
          <dt className="text-xs uppercase tracking-wide text-slate-500">Views</dt>
          <dd className="mt-1 font-semibold text-slate-900">{task.view_count ?? 0}</dd>
        </div>
      </dl>
    </section>
  );
}

export function SafetyTips() {
  return (
    <section aria-labelledby="safety-heading" className="rounded-2xl border border-emerald-200 bg-emerald-50 p-5">
      <h2 id="safety-heading" className="flex items-center gap-2 font-semibold text-emerald-900">
        <ShieldCheck aria-hidden className="h-5 w-5" /> Payment protection
      </h2>
      <p className="mt-2 text-sm text-emerald-900">
        Pay through Taskhub: the money is held securely and only released to the tasker when the poster confirms the job is done.
      </p>
      <ul className="mt-3 list-disc space-y-1 pl-5 text-sm text-emerald-900">
        <li>Keep conversations and payments on Taskhub.</li>
        <li>Never share bank details or pay in cash up front.</li>
        <li>Check reviews and ratings before you accept an offer.</li>
      </ul>
      <Link to="/safety" className="mt-3 inline-block text-sm font-semibold text-emerald-800 underline">
        Read our safety tips
      </Link>
    </section>
  );
}

export function SimilarTasks({ task }: { task: TaskDetail }) {
  const similar = (task.similar_tasks ?? []).filter((t) => t.id !== task.id).slice(0, 3);
  if (!similar.length) return null;
  return (
    <section aria-labelledby="similar-heading">
      <h2 id="similar-heading" className="text-lg font-semibold text-slate-900">
        Similar tasks
      </h2>
      <ul className="mt-3 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {similar.map((t) => (
          <li key={t.id}>
            <TaskCard task={t} />
          </li>
        ))}
      </ul>
    </section>
  );
}
