import { useQuery } from '@tanstack/react-query';

import { authorizedRequest } from '@/lib/auth/session';
import type { Skill } from '@/lib/auth/types';
import { queryKeys } from '@/lib/query-keys';

export type ProfileReview = {
  id: string;
  author?: { id?: string; name?: string | null; avatar_url?: string | null } | string | null;
  author_name?: string | null;
  author_avatar_url?: string | null;
  rating: number;
  body?: string | null;
  content?: string | null;
  /** Removed by a moderator: `body` is null. */
  removed?: boolean;
  created_at?: string | null;
};

export type PortfolioItem = {
  id: string;
  title: string;
  description?: string | null;
  image_url?: string | null;
  /** At most 480 px: what the grid shows; `image_url` is the full picture for the lightbox. */
  thumb_url?: string | null;
  image?: string | null;
};

export type Experience = { title: string; organisation?: string | null; period?: string | null; description?: string | null };

export type PublicProfile = {
  id: string;
  first_name: string | null;
  last_name: string | null;
  display_name: string | null;
  location: string | null;
  bio: string | null;
  avatar_url: string | null;
  account_type?: string | null;
  is_tasker?: boolean;
  skills?: Skill[] | null;
  rating?: number | null;
  review_count?: number | null;
  tasks_completed?: number | null;
  member_since?: string | null;
  /** Percent of conversations answered within a day; null until someone has written to them. */
  response_rate?: number | null;
  /** Median minutes to answer; null until they have answered someone. */
  response_minutes?: number | null;
  last_active_at?: string | null;
  verified?: { email?: boolean; phone?: boolean; identity?: boolean; payment?: boolean } | null;
  reviews?: ProfileReview[] | null;
  /** More reviews from `GET /api/profiles/{id}/reviews?cursor=`; null when `reviews` are all. */
  reviews_next_cursor?: string | null;
  portfolio?: PortfolioItem[] | null;
  experience?: Experience[] | null;
};

export function getProfile(id: string) {
  return authorizedRequest<PublicProfile>(`/api/profiles/${encodeURIComponent(id)}`);
}

export function useProfile(id: string | undefined) {
  return useQuery({ queryKey: queryKeys.profile(id), queryFn: () => getProfile(id!), enabled: Boolean(id) });
}
