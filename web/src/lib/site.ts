import { useQuery } from '@tanstack/react-query';

import { request } from '@/lib/http';
import { queryKeys } from '@/lib/query-keys';

/** How to reach this deployment's support, from the server's configuration (`GET /api/site`). */
export type Site = {
  support_email: string;
  business_email: string | null;
  support_phone: string | null;
  support_hours: string;
  social: Array<{ name: string; url: string }>;
};

export function getSite() {
  return request<Site>('/api/site');
}

/** Fetched once a page load: it only changes when the server is reconfigured. */
export function useSite() {
  return useQuery({ queryKey: queryKeys.site, queryFn: getSite, staleTime: Infinity });
}
