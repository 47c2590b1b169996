import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from '@/lib/zod';

import { authorizedRequest, getSession, isExpiring, refreshSession } from '@/lib/auth/session';
import { ApiError } from '@/lib/http';
import type { PickedPlace } from '@/lib/geocode';
import type { TaskDetail } from '@/lib/marketplace';
import { queryKeys } from '@/lib/query-keys';

/** Spec §2: the wizard offers the 8 home categories. */
export const WIZARD_CATEGORIES = [
  { id: 1, name: 'Home Cleaning' },
  { id: 2, name: 'Furniture Assembly' },
  { id: 3, name: 'Handyman' },
  { id: 4, name: 'Delivery' },
  { id: 5, name: 'Moving' },
  { id: 6, name: 'Gardening' },
  { id: 7, name: 'Painting' },
  { id: 8, name: 'Pet Care' },
] as const;

/** Spec §9: minimum task budget. */
export const MIN_BUDGET = 5;
export const REQUIRED_FIELDS = 'Please fill in all required fields';
export const INVALID_BUDGET = 'Please enter a valid budget amount';

/** `place`: the suggestion picked for `location` (its short name and coordinates), cleared by typing. */
export type TaskForm = { title: string; description: string; category: string; location: string; budget: string; date: string; place?: PickedPlace };

const required = z.string().trim().min(1, REQUIRED_FIELDS);
export const stepSchemas = {
  1: z.object({ title: required, description: required, category: required }),
  // Spec §5: the location field has no validation.
  2: z.object({ location: z.string() }),
  3: z.object({
    budget: z
      .string()
      .trim()
      .min(1, REQUIRED_FIELDS)
      .refine((v) => /^\d+(\.\d{1,2})?$/.test(v) && Number(v) >= MIN_BUDGET, INVALID_BUDGET),
    date: required,
  }),
} as const;

export const createTaskSchema = stepSchemas[1].merge(stepSchemas[2]).merge(stepSchemas[3]);

/** The first problem with the steps up to `step`, or null. */
export function validateSteps(form: TaskForm, upTo: 1 | 2 | 3 | 4): string | null {
  for (const step of [1, 2, 3] as const) {
    if (step > upTo) break;
    const result = stepSchemas[step].safeParse(form);
    if (!result.success) return result.error.issues[0].message;
  }
  return null;
}

/** The API's body for a task form (posting and editing). */
export function toTaskBody(form: TaskForm) {
  return {
    title: form.title.trim(),
    description: form.description.trim(),
    category_id: Number(form.category),
    location: form.location.trim(),
    budget_cents: Math.round(Number(form.budget) * 100),
    due_date: form.date,
    ...(form.place ? { lat: form.place.lat, lon: form.place.lon } : {}),
  };
}

/** Spec §5: a valid session must exist before creating; one expiring within the 5-minute margin is refreshed first. */
async function checkSessionBeforePosting() {
  const session = getSession();
  if (!session) throw new ApiError(401, 'unauthorized', 'Your session has expired. Please log in again.');
  if (isExpiring(session) && !(await refreshSession())) {
    throw new ApiError(401, 'unauthorized', "Your session has expired and couldn't be refreshed. Please log in again.");
  }
}

export async function createTask(form: TaskForm) {
  await checkSessionBeforePosting();
  return authorizedRequest<TaskDetail>('/api/tasks', { method: 'POST', body: toTaskBody(form) });
}

/** Spec §8 post-task messages: what the alert says for each failure. */
export function postTaskErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 401) return 'User not authenticated';
    if (error.code === 'email_not_confirmed') return 'Unable to verify your account. Please try logging out and back in.';
    if (error.status === 403) return 'Authentication error: Please log out and log in again before posting.';
    if (error.status === 422 || error.status === 409 || error.status === 400) return error.message || 'Failed to post task';
    if (error.status === 0) return error.message;
    return error.message ? `Database error: ${error.message}` : 'Failed to post task';
  }
  return error instanceof Error && error.message ? error.message : 'An unexpected error occurred';
}

/** Spec §2: messages about the session get 'Sign in again' / 'Sign out' links. */
export function isSessionError(message: string | null | undefined): boolean {
  return Boolean(message && /session|log|auth|verify your account/i.test(message));
}

export function useCreateTask() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createTask,
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: queryKeys.myTasks });
      void client.invalidateQueries({ queryKey: queryKeys.taskLists });
    },
  });
}
