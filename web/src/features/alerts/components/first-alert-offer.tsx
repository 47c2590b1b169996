import { BellRing } from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';

import { Button } from '@/components/ui/button';
import { useAlerts, type AlertInput } from '@/features/alerts/api/get-alerts';
import { useSaveAlert } from '@/features/alerts/api/save-alert';
import type { Skill } from '@/lib/auth/types';
import { placeOf, searchLocations } from '@/lib/geocode';
import { errorMessage } from '@/lib/http';
import { queryKeys } from '@/lib/query-keys';
import { toast } from '@/lib/toast';

const DISMISSED_KEY = 'taskhub.first-alert-dismissed';

/** The first alert proposed to a new tasker: their skills as keywords, near their profile location. */
export function firstAlertFrom(skills: Skill[], place: AlertInput['place']): AlertInput {
  return {
    q: skills.map((skill) => skill.name.toLowerCase()).join(', '),
    categories: [],
    place,
    radius_km: place ? 10 : null,
    remote_ok: false,
    min_budget_cents: null,
    paused: false,
  };
}

/** Offered to a tasker who has no alerts yet (until they save one or say "Not now"). */
export function FirstAlertOffer({ skills, location }: { skills: Skill[]; location: string | null | undefined }) {
  const { data } = useAlerts();
  const save = useSaveAlert();
  const [dismissed, setDismissed] = useState(() => localStorage.getItem(DISMISSED_KEY) === '1');
  const placeQuery = useQuery({
    queryKey: queryKeys.firstAlertPlace(location ?? ''),
    queryFn: async () => {
      const [first] = await searchLocations(location ?? '');
      return first ? placeOf(first) : null;
    },
    enabled: Boolean(location?.trim()),
    staleTime: Infinity,
  });
  if (dismissed || !data || data.items.length > 0 || skills.length === 0) return null;
  const place = placeQuery.data ?? null;
  const proposal = firstAlertFrom(skills, place);
  const dismiss = () => {
    localStorage.setItem(DISMISSED_KEY, '1');
    setDismissed(true);
  };

  return (
    <section aria-labelledby="first-alert-heading" className="flex flex-col gap-3 rounded-2xl border border-brand-200 bg-brand-50 p-4 sm:flex-row sm:items-center">
      <BellRing aria-hidden className="h-6 w-6 shrink-0 text-brand-700" />
      <div className="min-w-0 flex-1">
        <h2 id="first-alert-heading" className="font-semibold text-slate-900">
          Hear about tasks that fit your skills
        </h2>
        <p className="text-sm text-slate-700">
          An alert for “{proposal.q}”{place ? ` within 10 km of ${place.label}` : ''}: we’ll tell you as soon as a matching task is posted.
        </p>
      </div>
      <div className="flex gap-2">
        <Button variant="ghost" size="sm" onClick={dismiss}>
          Not now
        </Button>
        <Button
          size="sm"
          disabled={save.isPending || placeQuery.isFetching}
          onClick={() =>
            save.mutate(
              { input: proposal },
              {
                onSuccess: () => toast({ title: 'Alert saved', description: 'Change it any time in Settings → Task alerts.', variant: 'success' }),
                onError: (error) => toast({ title: 'Could not save the alert', description: errorMessage(error, 'Please try again'), variant: 'error' }),
              },
            )
          }
        >
          Create this alert
        </Button>
      </div>
    </section>
  );
}
