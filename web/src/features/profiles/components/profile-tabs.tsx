import { useState } from 'react';

import { RemovedText } from '@/components/moderation/removed-text';
import { ReportAction } from '@/components/moderation/report-action';
import { skillLevelLabel } from '@/components/skills/common-skills';
import { Alert } from '@/components/ui/alert';
import { Avatar } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';
import { Tabs } from '@/components/ui/tabs';
import type { PublicProfile, ProfileReview } from '@/features/profiles/api/get-profile';
import { useMoreProfileReviews } from '@/features/profiles/api/get-profile-reviews';
import { PortfolioGrid } from '@/features/profiles/components/portfolio-grid';
import { PortfolioManager } from '@/features/profiles/components/portfolio-manager';
import { formatDate } from '@/lib/format';

/** Spec §2: four skills show by default, expandable to all. */
export const SKILLS_SHOWN_ON_PROFILE = 4;

function reviewAuthor(review: ProfileReview) {
  if (typeof review.author === 'string') return { name: review.author, avatar: review.author_avatar_url ?? null };
  return {
    name: review.author?.name ?? review.author_name ?? 'Taskhub member',
    avatar: review.author?.avatar_url ?? review.author_avatar_url ?? null,
  };
}

export function Stars({ rating, label }: { rating: number; label?: string }) {
  const rounded = Math.round(rating);
  return (
    <span role="img" aria-label={label ?? `${rating.toFixed(1)} out of 5 stars`} className="text-amber-500">
      {'★'.repeat(rounded)}
      <span className="text-slate-300">{'★'.repeat(5 - rounded)}</span>
    </span>
  );
}

type Tab = 'reviews' | 'skills' | 'portfolio';

export function ProfileTabs({ profile, name, isOwn = false }: { profile: PublicProfile; name: string; isOwn?: boolean }) {
  const [tab, setTab] = useState<Tab>('reviews');
  const [allSkills, setAllSkills] = useState(false);
  const [showMore, setShowMore] = useState(false);
  const more = useMoreProfileReviews(profile.id, profile.reviews_next_cursor ?? null, showMore);
  const reviews = [...(profile.reviews ?? []), ...(more.data?.pages.flatMap((page) => page.items) ?? [])];
  const hasMoreReviews = showMore ? more.hasNextPage : Boolean(profile.reviews_next_cursor);
  const skills = profile.skills ?? [];
  const portfolio = profile.portfolio ?? [];
  const experience = profile.experience ?? [];
  const shownSkills = allSkills ? skills : skills.slice(0, SKILLS_SHOWN_ON_PROFILE);

  return (
    <Tabs
      label="Profile sections"
      value={tab}
      onChange={setTab}
      items={[
        { value: 'reviews', label: `Reviews (${profile.review_count ?? reviews.length})` },
        { value: 'skills', label: 'Skills & Experience' },
        { value: 'portfolio', label: 'Portfolio' },
      ]}
    >
      {tab === 'reviews' &&
        (reviews.length === 0 ? (
          <p className="rounded-xl bg-white p-6 text-sm text-slate-600 ring-1 ring-slate-200">
            {name} hasn't been reviewed yet. Reviews appear here after completed tasks.
          </p>
        ) : (
          <ul className="space-y-4">
            {reviews.map((review) => {
              const author = reviewAuthor(review);
              return (
                <li key={review.id} className="rounded-xl bg-white p-5 ring-1 ring-slate-200">
                  <div className="flex items-center gap-3">
                    <Avatar src={author.avatar} initials={author.name.slice(0, 1).toUpperCase()} alt="" size="sm" />
                    <div>
                      <p className="text-sm font-semibold text-slate-900">{author.name}</p>
                      <p className="text-xs text-slate-500">{formatDate(review.created_at)}</p>
                    </div>
                    <span className="ml-auto">
                      <Stars rating={review.rating} />
                    </span>
                  </div>
                  <p className="mt-3 text-sm leading-relaxed text-slate-700">{review.removed ? <RemovedText text={review.body} /> : (review.body ?? review.content)}</p>
                  {!review.removed && (
                    <div className="mt-1 flex justify-end">
                      <ReportAction target={{ type: 'review', id: review.id }} />
                    </div>
                  )}
                </li>
              );
            })}
            {hasMoreReviews && (
              <li className="flex justify-center">
                <Button
                  variant="outline"
                  loading={more.isFetching}
                  onClick={() => (showMore ? void more.fetchNextPage() : setShowMore(true))}
                >
                  Show more reviews
                </Button>
              </li>
            )}
            {more.isError && (
              <li>
                <Alert>We couldn't load more reviews. Please try again.</Alert>
              </li>
            )}
          </ul>
        ))}

      {tab === 'skills' && (
        <div className="space-y-6">
          {skills.length === 0 ? (
            <p className="rounded-xl bg-white p-6 text-sm text-slate-600 ring-1 ring-slate-200">No skills listed yet.</p>
          ) : (
            <div className="rounded-xl bg-white p-5 ring-1 ring-slate-200">
              <h3 className="text-base font-semibold text-slate-900">Skills</h3>
              <ul className="mt-4 space-y-4">
                {shownSkills.map((skill) => (
                  <li key={skill.name}>
                    <div className="flex justify-between text-sm">
                      <span className="font-medium text-slate-800">{skill.name}</span>
                      <span className="text-slate-500">{skillLevelLabel(skill.level)}</span>
                    </div>
                    <div className="mt-1.5 h-2 rounded-full bg-slate-100" role="meter" aria-valuemin={1} aria-valuemax={100} aria-valuenow={skill.level} aria-label={`${skill.name} proficiency`}>
                      <div className="h-2 rounded-full bg-brand-600" style={{ width: `${skill.level}%` }} />
                    </div>
                  </li>
                ))}
              </ul>
              {skills.length > SKILLS_SHOWN_ON_PROFILE && (
                <button type="button" onClick={() => setAllSkills((v) => !v)} className="mt-4 text-sm font-semibold text-brand-700 hover:underline" aria-expanded={allSkills}>
                  {allSkills ? 'Show fewer skills' : `Show all ${skills.length} skills`}
                </button>
              )}
            </div>
          )}
          <div className="rounded-xl bg-white p-5 ring-1 ring-slate-200">
            <h3 className="text-base font-semibold text-slate-900">Experience</h3>
            {experience.length === 0 ? (
              <p className="mt-2 text-sm text-slate-600">
                {profile.tasks_completed
                  ? `${profile.tasks_completed} tasks completed on Taskhub.`
                  : 'No experience listed yet.'}
              </p>
            ) : (
              <ul className="mt-3 space-y-3">
                {experience.map((item, i) => (
                  <li key={i} className="text-sm">
                    <p className="font-medium text-slate-900">{item.title}</p>
                    <p className="text-slate-500">{[item.organisation, item.period].filter(Boolean).join(' · ')}</p>
                    {item.description && <p className="mt-1 text-slate-700">{item.description}</p>}
                  </li>
                ))}
              </ul>
            )}
          </div>
        </div>
      )}

      {tab === 'portfolio' && (
        <div className="space-y-6">
          {isOwn && profile.is_tasker && <PortfolioManager userId={profile.id} items={portfolio} />}
          {portfolio.length === 0 ? (
            <p className="rounded-xl bg-white p-6 text-sm text-slate-600 ring-1 ring-slate-200">No portfolio items yet.</p>
          ) : (
            <PortfolioGrid items={portfolio} name={name} />
          )}
        </div>
      )}
    </Tabs>
  );
}
