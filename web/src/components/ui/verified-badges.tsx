import { BadgeCheck, Smartphone } from 'lucide-react';

import { cn } from '@/lib/cn';

export type Badges = { identity: boolean; phone: boolean };

/** Compact ID-verified and mobile-verified badges beside a person's name; nothing when neither. */
export function VerifiedBadges({ verified, className }: { verified?: Badges | null; className?: string }) {
  if (!verified || (!verified.identity && !verified.phone)) return null;
  const badge = 'inline-flex items-center gap-0.5 rounded-full px-1.5 py-0.5 text-[11px] font-medium ring-1';
  return (
    <span className={cn('inline-flex flex-wrap items-center gap-1', className)}>
      {verified.identity && (
        <span className={cn(badge, 'bg-emerald-50 text-emerald-800 ring-emerald-200')}>
          <BadgeCheck aria-hidden className="h-3 w-3" />
          ID-verified
        </span>
      )}
      {verified.phone && (
        <span className={cn(badge, 'bg-sky-50 text-sky-900 ring-sky-200')}>
          <Smartphone aria-hidden className="h-3 w-3" />
          Mobile-verified
        </span>
      )}
    </span>
  );
}
