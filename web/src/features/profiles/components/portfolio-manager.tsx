import { ArrowDown, ArrowUp, GripVertical } from 'lucide-react';
import { useId, useRef, useState, type FormEvent } from 'react';

import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { FieldShell, TextAreaField, TextField, inputClasses } from '@/components/ui/field';
import type { PortfolioItem } from '@/features/profiles/api/get-profile';
import { MAX_PORTFOLIO_ITEMS, photoProblem, usePortfolioMutations } from '@/features/profiles/api/portfolio';
import { ApiError, errorMessage } from '@/lib/http';
import { toast } from '@/lib/toast';

function fieldError(error: unknown, field: string) {
  return error instanceof ApiError ? error.fields[field] : undefined;
}

function AddItemForm({ userId, full }: { userId: string; full: boolean }) {
  const { add } = usePortfolioMutations(userId);
  const fileId = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!file) return setProblem('Please choose a picture.');
    if (!title.trim()) return setProblem('Please give the item a title.');
    setProblem(null);
    add.mutate(
      { file, title, description },
      {
        onSuccess: (item) => {
          setFile(null);
          setTitle('');
          setDescription('');
          if (fileInput.current) fileInput.current.value = '';
          toast({ title: 'Added to your portfolio', description: item.title, variant: 'success' });
        },
      },
    );
  };

  const fileError = problem ?? fieldError(add.error, 'file');
  return (
    <form onSubmit={submit} className="space-y-3 rounded-xl bg-white p-5 ring-1 ring-slate-200" aria-label="Add a portfolio item">
      <h3 className="text-base font-semibold text-slate-900">Add to your portfolio</h3>
      {full ? (
        <p className="text-sm text-slate-600">Your portfolio is full ({MAX_PORTFOLIO_ITEMS} items). Delete an item to add another.</p>
      ) : (
        <>
          <FieldShell id={fileId} label="Picture" error={fileError} hint="JPG, PNG, GIF or WebP, up to 10 MB. Location data is removed.">
            <input
              ref={fileInput}
              id={fileId}
              type="file"
              accept="image/jpeg,image/png,image/gif,image/webp"
              aria-invalid={fileError ? true : undefined}
              className={inputClasses(Boolean(fileError))}
              onChange={(event) => {
                const chosen = event.target.files?.[0] ?? null;
                setFile(chosen);
                setProblem(chosen ? photoProblem(chosen) : null);
              }}
            />
          </FieldShell>
          <TextField label="Title" value={title} maxLength={80} onChange={(event) => setTitle(event.target.value)} error={fieldError(add.error, 'title')} />
          <TextAreaField
            label="Description"
            optional
            value={description}
            maxLength={500}
            onChange={(event) => setDescription(event.target.value)}
            error={fieldError(add.error, 'description')}
          />
          {add.isError && !fieldError(add.error, 'file') && !fieldError(add.error, 'title') && (
            <Alert>{errorMessage(add.error, 'We could not add that item. Please try again.')}</Alert>
          )}
          <Button type="submit" loading={add.isPending}>
            Add to portfolio
          </Button>
        </>
      )}
    </form>
  );
}

function EditItemForm({ userId, item, onDone }: { userId: string; item: PortfolioItem; onDone: () => void }) {
  const { update } = usePortfolioMutations(userId);
  const [title, setTitle] = useState(item.title);
  const [description, setDescription] = useState(item.description ?? '');
  return (
    <form
      className="mt-3 space-y-3"
      aria-label={`Edit ${item.title}`}
      onSubmit={(event) => {
        event.preventDefault();
        update.mutate({ id: item.id, title, description: description.trim() ? description : null }, { onSuccess: onDone });
      }}
    >
      <TextField label="Title" value={title} maxLength={80} onChange={(event) => setTitle(event.target.value)} error={fieldError(update.error, 'title')} />
      <TextAreaField
        label="Description"
        optional
        value={description}
        maxLength={500}
        onChange={(event) => setDescription(event.target.value)}
        error={fieldError(update.error, 'description')}
      />
      <div className="flex gap-2">
        <Button type="submit" size="sm" loading={update.isPending}>
          Save
        </Button>
        <Button variant="outline" size="sm" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/**
 * The tasker's own portfolio, to manage: add (picture, title, description), edit, reorder with
 * the Move up/down buttons or by dragging, delete.
 */
export function PortfolioManager({ userId, items }: { userId: string; items: PortfolioItem[] }) {
  const { update, remove } = usePortfolioMutations(userId);
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<PortfolioItem | null>(null);
  const [dragged, setDragged] = useState<string | null>(null);
  const move = (item: PortfolioItem, position: number) => update.mutate({ id: item.id, position });

  return (
    <div className="space-y-4">
      <AddItemForm userId={userId} full={items.length >= MAX_PORTFOLIO_ITEMS} />
      {items.length > 0 && (
        <section className="rounded-xl bg-white p-5 ring-1 ring-slate-200" aria-labelledby="manage-portfolio-heading">
          <h3 id="manage-portfolio-heading" className="text-base font-semibold text-slate-900">
            Manage your portfolio{' '}
            <span className="font-normal text-slate-500">
              ({items.length} of {MAX_PORTFOLIO_ITEMS})
            </span>
          </h3>
          <p className="mt-1 text-sm text-slate-600">Drag items, or use Move up and Move down, to choose the order visitors see.</p>
          {update.isError && !editing && <Alert className="mt-3">{errorMessage(update.error, 'We could not move that item.')}</Alert>}
          <ol className="mt-3 space-y-2">
            {items.map((item, index) => (
              <li
                key={item.id}
                draggable={editing === null}
                onDragStart={(event) => {
                  setDragged(item.id);
                  event.dataTransfer.effectAllowed = 'move';
                }}
                onDragOver={(event) => {
                  if (dragged && dragged !== item.id) event.preventDefault();
                }}
                onDrop={(event) => {
                  event.preventDefault();
                  const source = items.find((candidate) => candidate.id === dragged);
                  setDragged(null);
                  if (source && source.id !== item.id) move(source, index);
                }}
                onDragEnd={() => setDragged(null)}
                className={`rounded-lg border p-3 ${dragged === item.id ? 'border-brand-400 bg-brand-50' : 'border-slate-200'}`}
              >
                <div className="flex items-center gap-3">
                  <GripVertical aria-hidden className="h-5 w-5 shrink-0 cursor-grab text-slate-400" />
                  <img src={item.thumb_url ?? item.image_url ?? ''} alt="" className="h-14 w-14 shrink-0 rounded-md object-cover" />
                  <div className="min-w-0 flex-1">
                    <p className="truncate text-sm font-semibold text-slate-900">{item.title}</p>
                    {item.description && <p className="truncate text-xs text-slate-600">{item.description}</p>}
                  </div>
                  <div className="flex shrink-0 flex-wrap justify-end gap-1">
                    <Button variant="ghost" size="sm" aria-label={`Move ${item.title} up`} disabled={index === 0 || update.isPending} onClick={() => move(item, index - 1)}>
                      <ArrowUp aria-hidden className="h-4 w-4" />
                    </Button>
                    <Button
                      variant="ghost"
                      size="sm"
                      aria-label={`Move ${item.title} down`}
                      disabled={index === items.length - 1 || update.isPending}
                      onClick={() => move(item, index + 1)}
                    >
                      <ArrowDown aria-hidden className="h-4 w-4" />
                    </Button>
                    <Button variant="outline" size="sm" aria-label={`Edit ${item.title}`} onClick={() => setEditing(item.id)}>
                      Edit
                    </Button>
                    <Button variant="outline" size="sm" aria-label={`Delete ${item.title}`} onClick={() => setDeleting(item)}>
                      Delete
                    </Button>
                  </div>
                </div>
                {editing === item.id && <EditItemForm userId={userId} item={item} onDone={() => setEditing(null)} />}
              </li>
            ))}
          </ol>
        </section>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this portfolio item?"
        confirmLabel="Delete item"
        variant="danger"
        pending={remove.isPending}
        error={remove.error}
        onClose={() => {
          setDeleting(null);
          remove.reset();
        }}
        onConfirm={() => deleting && remove.mutate(deleting.id, { onSuccess: () => setDeleting(null) })}
      >
        <p>“{deleting?.title}” and its picture will be removed from your profile.</p>
      </ConfirmDialog>
    </div>
  );
}
