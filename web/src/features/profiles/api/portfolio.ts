import { useMutation, useQueryClient } from '@tanstack/react-query';

import type { PortfolioItem } from '@/features/profiles/api/get-profile';
import { authorizedRequest } from '@/lib/auth/session';
import { queryKeys } from '@/lib/query-keys';

/** The most items a portfolio holds (`POST /api/me/portfolio` answers 422 past it). */
export const MAX_PORTFOLIO_ITEMS = 12;
export const MAX_PHOTO_BYTES = 10 * 1024 * 1024;

/** What the browser can tell before uploading; the server checks the bytes themselves. */
export function photoProblem(file: File): string | null {
  if (!file.type.startsWith('image/')) return 'Please choose an image file (JPG, PNG, GIF or WebP).';
  if (file.size > MAX_PHOTO_BYTES) return 'That image is larger than 10 MB. Please choose a smaller one.';
  return null;
}

export type NewPortfolioItem = { file: File; title: string; description: string };
export type PortfolioChange = { id: string; title?: string; description?: string | null; position?: number };

function addPortfolioItem({ file, title, description }: NewPortfolioItem) {
  const problem = photoProblem(file);
  if (problem) return Promise.reject(new Error(problem));
  const form = new FormData();
  form.append('file', file);
  form.append('title', title);
  if (description.trim()) form.append('description', description);
  return authorizedRequest<PortfolioItem>('/api/me/portfolio', { method: 'POST', body: form });
}

function updatePortfolioItem({ id, ...changes }: PortfolioChange) {
  return authorizedRequest<PortfolioItem>(`/api/me/portfolio/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    body: changes,
  });
}

function deletePortfolioItem(id: string) {
  return authorizedRequest<void>(`/api/me/portfolio/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

/** Add, edit, move and delete items of the signed-in tasker's portfolio; each refreshes their profile. */
export function usePortfolioMutations(userId: string) {
  const client = useQueryClient();
  const onSettled = () => client.invalidateQueries({ queryKey: queryKeys.profile(userId) });
  return {
    add: useMutation({ mutationFn: addPortfolioItem, onSettled }),
    update: useMutation({ mutationFn: updatePortfolioItem, onSettled }),
    remove: useMutation({ mutationFn: deletePortfolioItem, onSettled }),
  };
}
