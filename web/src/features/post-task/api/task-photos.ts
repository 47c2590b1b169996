import { useMutation, useQueryClient } from '@tanstack/react-query';

import { authorizedRequest } from '@/lib/auth/session';
import type { TaskPhoto } from '@/lib/marketplace';
import { queryKeys } from '@/lib/query-keys';

export const MAX_PHOTO_BYTES = 10 * 1024 * 1024;

/** What the browser can tell before uploading; the server checks the bytes themselves. */
export function photoProblem(file: File): string | null {
  if (!file.type.startsWith('image/')) return `${file.name} is not an image (JPG, PNG, GIF or WebP).`;
  if (file.size > MAX_PHOTO_BYTES) return `${file.name} is larger than 10 MB. Please choose a smaller one.`;
  return null;
}

export function uploadTaskPhoto(taskId: string, file: File) {
  const problem = photoProblem(file);
  if (problem) return Promise.reject(new Error(problem));
  const form = new FormData();
  form.append('file', file);
  return authorizedRequest<TaskPhoto>(`/api/tasks/${encodeURIComponent(taskId)}/photos`, { method: 'POST', body: form });
}

export function deleteTaskPhoto(taskId: string, photoId: string) {
  return authorizedRequest<void>(`/api/tasks/${encodeURIComponent(taskId)}/photos/${encodeURIComponent(photoId)}`, {
    method: 'DELETE',
  });
}

/** Uploads photos one after another; the names of those that failed, with the first reason. */
export async function uploadTaskPhotos(taskId: string, files: File[]) {
  const failed: string[] = [];
  let reason: string | null = null;
  for (const file of files) {
    try {
      await uploadTaskPhoto(taskId, file);
    } catch (error) {
      failed.push(file.name);
      reason ??= error instanceof Error ? error.message : null;
    }
  }
  return { failed, reason };
}

/** Adding and removing photos of an open task from its edit dialog; each refreshes the task. */
export function useTaskPhotoMutations(taskId: string) {
  const client = useQueryClient();
  const onSettled = () => {
    void client.invalidateQueries({ queryKey: queryKeys.task(taskId) });
    void client.invalidateQueries({ queryKey: queryKeys.myTasks });
    void client.invalidateQueries({ queryKey: queryKeys.taskLists });
  };
  return {
    add: useMutation({ mutationFn: (file: File) => uploadTaskPhoto(taskId, file), onSettled }),
    remove: useMutation({ mutationFn: (photoId: string) => deleteTaskPhoto(taskId, photoId), onSettled }),
  };
}
