import { useState, type FormEvent } from 'react';

import { LocationInput } from '@/components/location/location-input';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { inputClasses } from '@/components/ui/field';
import type { AlertInput, AlertPlace, TaskAlert } from '@/features/alerts/api/get-alerts';

export const RADIUS_OPTIONS = [5, 10, 25, 50, 100] as const;
export const DEFAULT_RADIUS_KM = 10;
export const NOTHING_TO_LOOK_FOR = 'Add keywords, a category or a place to your alert';
export const PICK_A_PLACE = 'Please pick a place from the suggestions';
export const INVALID_BUDGET = 'Please enter a valid budget amount';

export type CategoryOption = { id: number; name: string };

type Draft = {
  name: string;
  q: string;
  categories: number[];
  placeText: string;
  place: AlertPlace | null;
  radiusKm: number;
  remoteOk: boolean;
  minBudget: string;
  paused: boolean;
};

function draftOf(alert?: Partial<TaskAlert>): Draft {
  return {
    name: alert?.name ?? '',
    q: alert?.q ?? '',
    categories: alert?.categories ?? [],
    placeText: alert?.place?.label ?? '',
    place: alert?.place ?? null,
    radiusKm: alert?.radius_km ?? DEFAULT_RADIUS_KM,
    remoteOk: alert?.remote_ok ?? false,
    minBudget: alert?.min_budget_cents ? String(alert.min_budget_cents / 100) : '',
    paused: alert?.paused ?? false,
  };
}

/** The form's draft as the API takes it, or the first problem with it. */
export function toAlertInput(draft: Draft): AlertInput | { error: string } {
  if (draft.placeText.trim() && !draft.place) return { error: PICK_A_PLACE };
  const budget = draft.minBudget.trim();
  if (budget && !/^\d+(\.\d{1,2})?$/.test(budget)) return { error: INVALID_BUDGET };
  if (!draft.q.trim() && draft.categories.length === 0 && !draft.place && !draft.remoteOk) return { error: NOTHING_TO_LOOK_FOR };
  return {
    name: draft.name.trim() || undefined,
    q: draft.q.trim(),
    categories: draft.categories,
    place: draft.place,
    radius_km: draft.place ? draft.radiusKm : null,
    remote_ok: draft.remoteOk,
    min_budget_cents: budget ? Math.round(Number(budget) * 100) : null,
    paused: draft.paused,
  };
}

/** Create or edit a task alert: keywords, categories, a place with a radius, remote, minimum budget, paused. */
export function AlertForm({
  alert,
  categories,
  saving,
  serverError,
  submitLabel = 'Save alert',
  onSubmit,
  onCancel,
}: {
  alert?: Partial<TaskAlert>;
  categories: CategoryOption[];
  saving?: boolean;
  serverError?: string | null;
  submitLabel?: string;
  onSubmit: (input: AlertInput) => void;
  onCancel?: () => void;
}) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(alert));
  const [problem, setProblem] = useState<string | null>(null);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const toggleCategory = (id: number) =>
    set('categories', draft.categories.includes(id) ? draft.categories.filter((c) => c !== id) : [...draft.categories, id].sort((a, b) => a - b));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input = toAlertInput(draft);
    if ('error' in input) return setProblem(input.error);
    setProblem(null);
    onSubmit(input);
  };

  const error = problem ?? serverError;
  return (
    <form onSubmit={submit} aria-label={alert?.id ? 'Edit alert' : 'New alert'} className="space-y-5">
      {error && <Alert tone="error">{error}</Alert>}
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <label htmlFor="alert-q" className="mb-1.5 block text-sm font-medium text-slate-800">
            Keywords
          </label>
          <input id="alert-q" value={draft.q} onChange={(e) => set('q', e.target.value)} placeholder="e.g. plumbing, leaking tap" className={inputClasses(false)} aria-describedby="alert-q-hint" />
          <p id="alert-q-hint" className="mt-1 text-xs text-slate-500">
            A task matches when its title or description contains any of these (separate with commas).
          </p>
        </div>
        <div>
          <label htmlFor="alert-name" className="mb-1.5 block text-sm font-medium text-slate-800">
            Name <span className="font-normal text-slate-500">(optional)</span>
          </label>
          <input id="alert-name" value={draft.name} onChange={(e) => set('name', e.target.value)} placeholder="Named for you if left empty" className={inputClasses(false)} />
        </div>
      </div>

      <fieldset>
        <legend className="text-sm font-medium text-slate-800">Categories</legend>
        <p className="text-xs text-slate-500">None ticked means any category.</p>
        <div className="mt-2 grid grid-cols-1 gap-1 sm:grid-cols-2 lg:grid-cols-3">
          {categories.map((category) => (
            <label key={category.id} className="flex items-center gap-2 text-sm text-slate-700">
              <input type="checkbox" checked={draft.categories.includes(category.id)} onChange={() => toggleCategory(category.id)} />
              {category.name}
            </label>
          ))}
        </div>
      </fieldset>

      <div className="grid gap-4 sm:grid-cols-[2fr_1fr]">
        <LocationInput
          label="Place"
          value={draft.placeText}
          onChange={(text) => setDraft((d) => ({ ...d, placeText: text, place: null }))}
          onPick={(place) => setDraft((d) => ({ ...d, placeText: place.label, place }))}
          placeholder="Suburb or postcode (empty: anywhere)"
          inputClassName={inputClasses(false)}
        />
        <div>
          <label htmlFor="alert-radius" className="mb-1.5 block text-sm font-medium text-slate-800">
            Distance
          </label>
          <select id="alert-radius" value={draft.radiusKm} disabled={!draft.place} onChange={(e) => set('radiusKm', Number(e.target.value))} className={inputClasses(false)}>
            {RADIUS_OPTIONS.map((km) => (
              <option key={km} value={km}>
                Within {km} km
              </option>
            ))}
          </select>
        </div>
      </div>

      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <label htmlFor="alert-budget" className="mb-1.5 block text-sm font-medium text-slate-800">
            Minimum budget (AUD) <span className="font-normal text-slate-500">(optional)</span>
          </label>
          <input id="alert-budget" inputMode="decimal" value={draft.minBudget} onChange={(e) => set('minBudget', e.target.value)} placeholder="e.g. 50" className={inputClasses(false)} />
        </div>
        <div className="flex flex-col justify-end gap-2">
          <label className="flex items-center gap-2 text-sm text-slate-700">
            <input type="checkbox" checked={draft.remoteOk} onChange={(e) => set('remoteOk', e.target.checked)} />
            Include remote tasks
          </label>
          <label className="flex items-center gap-2 text-sm text-slate-700">
            <input type="checkbox" checked={draft.paused} onChange={(e) => set('paused', e.target.checked)} />
            Paused
          </label>
        </div>
      </div>

      <div className="flex flex-wrap justify-end gap-2">
        {onCancel && (
          <Button variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
        )}
        <Button type="submit" disabled={saving}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
