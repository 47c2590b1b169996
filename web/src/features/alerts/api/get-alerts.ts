import { useQuery } from '@tanstack/react-query';

import { authorizedRequest } from '@/lib/auth/session';
import { queryKeys } from '@/lib/query-keys';

export type AlertPlace = { label: string; lat: number; lon: number };
export type TaskAlert = {
  id: string;
  name: string;
  q: string;
  categories: number[];
  place: AlertPlace | null;
  radius_km: number | null;
  remote_ok: boolean;
  min_budget_cents: number | null;
  paused: boolean;
  matched_this_week: number;
  created_at: string;
  updated_at: string;
};

/** What the form sends (POST, or PATCH of the same shape). */
export type AlertInput = {
  name?: string;
  q: string;
  categories: number[];
  place: AlertPlace | null;
  radius_km: number | null;
  remote_ok: boolean;
  min_budget_cents: number | null;
  paused: boolean;
};

export const MAX_ALERTS = 20;

export function getAlerts(): Promise<{ items: TaskAlert[] }> {
  return authorizedRequest<{ items: TaskAlert[] }>('/api/me/alerts');
}

export function useAlerts(enabled = true) {
  return useQuery({ queryKey: queryKeys.alerts, queryFn: getAlerts, enabled });
}
