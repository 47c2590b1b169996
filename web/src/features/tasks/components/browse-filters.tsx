import { Search, SlidersHorizontal } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';

import { LocationInput } from '@/components/location/location-input';
import { Button } from '@/components/ui/button';
import { inputClasses } from '@/components/ui/field';
import {
  DEFAULT_RADIUS_KM,
  RADIUS_OPTIONS,
  defaultSort,
  sortOptionsFor,
  withBudgetsInOrder,
  type TaskFilters,
} from '@/features/tasks/api/get-tasks';

export type CategoryOption = { id: number; name: string };

/** Search row plus the filter panel; edits are local until Search / Apply Filters writes them to the URL. */
export function BrowseFilters({ filters, categories, onApply }: {
  filters: TaskFilters;
  categories: CategoryOption[];
  onApply: (filters: TaskFilters) => void;
}) {
  const [draft, setDraft] = useState<TaskFilters>(filters);
  const [open, setOpen] = useState(false);
  useEffect(() => setDraft(filters), [filters]);

  const set = <K extends keyof TaskFilters>(key: K, value: TaskFilters[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    onApply(withBudgetsInOrder(draft));
  };
  const budget = (value: string) => (value === '' ? undefined : Math.max(0, Number(value)));

  return (
    <form onSubmit={submit} role="search" aria-label="Search tasks" className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
      <div className="grid gap-3 md:grid-cols-[1fr_1fr_auto_auto]">
        <div>
          <label htmlFor="browse-q" className="sr-only">
            Search tasks
          </label>
          <div className="relative">
            <Search aria-hidden className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-slate-400" />
            <input
              id="browse-q"
              type="search"
              value={draft.q ?? ''}
              onChange={(e) => set('q', e.target.value || undefined)}
              placeholder="What do you need done?"
              className={inputClasses(false, 'pl-9')}
            />
          </div>
        </div>
        <LocationInput
          value={draft.location ?? ''}
          onChange={(v) => setDraft((d) => ({ ...d, location: v || undefined, near: undefined, radius_km: undefined }))}
          onPick={(place) => setDraft((d) => ({ ...d, location: place.label, near: `${place.lat},${place.lon}`, radius_km: d.radius_km ?? DEFAULT_RADIUS_KM }))}
          label="Location"
          hideLabel placeholder="Suburb or city" inputClassName={inputClasses(false)} />
        <Button variant="outline" aria-expanded={open} aria-controls="browse-filter-panel" onClick={() => setOpen((o) => !o)}>
          <SlidersHorizontal aria-hidden className="h-4 w-4" />
          Filters
        </Button>
        <Button type="submit">Search</Button>
      </div>

      {/* Always in the page, so the toggle's aria-controls points at something; hidden while closed. */}
      <div id="browse-filter-panel" hidden={!open}>
        {open && (
          <div className="mt-4 grid gap-6 border-t border-slate-100 pt-4 md:grid-cols-3">
            <fieldset>
              <legend className="text-sm font-semibold text-slate-900">Category</legend>
              <div className="mt-2 grid max-h-64 gap-1 overflow-y-auto pr-2">
                <label className="flex items-center gap-2 text-sm text-slate-700">
                  <input type="radio" name="category" checked={!draft.category} onChange={() => set('category', undefined)} />
                  All categories
                </label>
                {categories.map((c) => (
                  <label key={c.id} className="flex items-center gap-2 text-sm text-slate-700">
                    <input type="radio" name="category" checked={draft.category === c.id} onChange={() => set('category', c.id)} />
                    {c.name}
                  </label>
                ))}
              </div>
            </fieldset>
            <fieldset>
              <legend className="text-sm font-semibold text-slate-900">Budget (AUD)</legend>
              <div className="mt-2 grid grid-cols-2 gap-2">
                <label className="text-xs text-slate-600">
                  Min budget
                  <input
                    type="number"
                    inputMode="numeric"
                    min={0}
                    value={draft.min_budget ?? ''}
                    onChange={(e) => set('min_budget', budget(e.target.value))}
                    className={inputClasses(false, 'mt-1')}
                  />
                </label>
                <label className="text-xs text-slate-600">
                  Max budget
                  <input
                    type="number"
                    inputMode="numeric"
                    min={0}
                    value={draft.max_budget ?? ''}
                    onChange={(e) => set('max_budget', budget(e.target.value))}
                    className={inputClasses(false, 'mt-1')}
                  />
                </label>
              </div>
            </fieldset>
            <div>
              {draft.near && (
                <div className="mb-4">
                  <label htmlFor="browse-radius" className="text-sm font-semibold text-slate-900">
                    Distance
                  </label>
                  <select
                    id="browse-radius"
                    value={draft.radius_km ?? DEFAULT_RADIUS_KM}
                    onChange={(e) => set('radius_km', Number(e.target.value))}
                    className={inputClasses(false, 'mt-2')}
                  >
                    {RADIUS_OPTIONS.map((km) => (
                      <option key={km} value={km}>
                        Within {km} km of {draft.location}
                      </option>
                    ))}
                  </select>
                </div>
              )}
              <label htmlFor="browse-sort" className="text-sm font-semibold text-slate-900">
                Sort by
              </label>
              <select
                id="browse-sort"
                value={draft.sort ?? defaultSort(draft)}
                onChange={(e) =>
                  set('sort', e.target.value === defaultSort(draft) ? undefined : (e.target.value as TaskFilters['sort']))
                }
                className={inputClasses(false, 'mt-2')}
              >
                {sortOptionsFor(draft).map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </select>
              <div className="mt-6 flex flex-wrap gap-2">
                <Button
                  variant="ghost"
                  onClick={() => {
                    setDraft({});
                    onApply({});
                  }}
                >
                  Clear all filters
                </Button>
                <Button type="submit">Apply Filters</Button>
              </div>
            </div>
          </div>
        )}
      </div>
    </form>
  );
}
