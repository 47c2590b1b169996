import { useState, type FormEvent } from 'react';

import { LocationInput } from '@/components/location/location-input';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { FieldShell, inputClasses, TextAreaField, TextField } from '@/components/ui/field';
import { createTaskSchema, MIN_BUDGET, WIZARD_CATEGORIES, type TaskForm } from '@/features/post-task/api/create-task';
import { useTaskPhotoMutations } from '@/features/post-task/api/task-photos';
import { changedFields, taskFormOf, useUpdateTask } from '@/features/post-task/api/update-task';
import { PhotoPicker } from '@/features/post-task/components/photo-picker';
import { today } from '@/features/post-task/components/post-task-wizard';
import { ApiError, errorMessage } from '@/lib/http';
import type { TaskDetail } from '@/lib/marketplace';
import { toast } from '@/lib/toast';
import { useForm } from '@/lib/use-form';
import { validate } from '@/lib/validation';

/** Edit an open task (poster only): the wizard's fields and rules on one screen; watchers see the change live. */
export function EditTaskDialog({ task, open, onClose }: { task: TaskDetail; open: boolean; onClose: () => void }) {
  return (
    <Dialog open={open} onClose={onClose} title="Edit task">
      {/* Mounted only while open, so each opening starts from what the task says now. */}
      {open && <EditTaskForm task={task} onDone={onClose} />}
    </Dialog>
  );
}

function EditTaskForm({ task, onDone }: { task: TaskDetail; onDone: () => void }) {
  const [initial] = useState(() => taskFormOf(task));
  const { values, errors, setField, setErrors } = useForm<TaskForm>(initial);
  const update = useUpdateTask(task.id);
  // The wizard's 8 categories, plus the task's own if it was posted in another one.
  const categories = WIZARD_CATEGORIES.some((c) => c.id === task.category_id)
    ? WIZARD_CATEGORIES
    : [...WIZARD_CATEGORIES, { id: task.category_id, name: task.category }];
  const earliest = initial.date && initial.date < today() ? initial.date : today();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problems = validate<keyof TaskForm>(createTaskSchema, values);
    if (Object.keys(problems).length > 0) return setErrors(problems);
    const changes = changedFields(initial, values);
    if (Object.keys(changes).length === 0) return onDone();
    update.mutate(changes, {
      onSuccess: () => {
        toast({ title: 'Task updated', description: 'Everyone viewing your task now sees the changes.', variant: 'success' });
        onDone();
      },
      onError: (error) => {
        const fields = error instanceof ApiError ? error.fields : {};
        setErrors({
          title: fields.title,
          description: fields.description,
          category: fields.category_id,
          location: fields.location,
          budget: fields.budget_cents,
          date: fields.due_date,
        });
      },
    });
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <TextField label="Task title" name="title" value={values.title} onChange={(e) => setField('title', e.target.value)} maxLength={120} error={errors.title} required />
      <TextAreaField label="Description" name="description" value={values.description} onChange={(e) => setField('description', e.target.value)} error={errors.description} required />
      <FieldShell id="edit-task-category" label="Category" error={errors.category}>
        <select
          id="edit-task-category"
          required
          value={values.category}
          onChange={(e) => setField('category', e.target.value)}
          aria-invalid={errors.category ? true : undefined}
          aria-describedby={errors.category ? 'edit-task-category-error' : undefined}
          className={inputClasses(Boolean(errors.category))}
        >
          {categories.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
      </FieldShell>
      <LocationInput label="Location" value={values.location} onChange={(v) => setField('location', v)} inputClassName={inputClasses(Boolean(errors.location))} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Budget (AUD)"
          name="budget"
          type="number"
          inputMode="decimal"
          min={MIN_BUDGET}
          step="1"
          value={values.budget}
          onChange={(e) => setField('budget', e.target.value)}
          error={errors.budget}
          required
        />
        <TextField label="Due date" name="date" type="date" min={earliest} value={values.date} onChange={(e) => setField('date', e.target.value)} error={errors.date} required />
      </div>
      <TaskPhotosEditor task={task} />
      {update.isError && <Alert>{errorMessage(update.error, 'Your task could not be updated. Please try again.')}</Alert>}
      <div className="flex justify-end gap-2">
        <Button variant="outline" onClick={onDone} disabled={update.isPending}>
          Cancel
        </Button>
        <Button type="submit" loading={update.isPending}>
          Save changes
        </Button>
      </div>
    </form>
  );
}

/** The task's photos in the edit dialog: each added or removed at once (the poster sees it in the gallery). */
function TaskPhotosEditor({ task }: { task: TaskDetail }) {
  const { add, remove } = useTaskPhotoMutations(task.id);
  const [error, setError] = useState<string | null>(null);
  const photos = (task.photos ?? []).map((photo, i) => ({ key: photo.id, src: photo.thumb_url, label: `${task.title} ${i + 1}` }));
  return (
    <PhotoPicker
      photos={photos}
      busy={add.isPending || remove.isPending}
      error={error}
      onAdd={(files) => {
        setError(null);
        void files.reduce(
          (previous, file) =>
            previous.then(() =>
              add.mutateAsync(file).then(
                () => undefined,
                (problem: unknown) => setError(errorMessage(problem, `${file.name} could not be added.`)),
              ),
            ),
          Promise.resolve(),
        );
      }}
      onRemove={(photoId) => {
        setError(null);
        remove.mutate(photoId, { onError: (problem) => setError(errorMessage(problem, 'That photo could not be removed.')) });
      }}
    />
  );
}
