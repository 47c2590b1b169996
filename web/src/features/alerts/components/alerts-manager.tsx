import { BellRing, MapPin, Pause, Pencil, Play, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';

import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { PageSpinner } from '@/components/ui/spinner';
import { MAX_ALERTS, useAlerts, type TaskAlert } from '@/features/alerts/api/get-alerts';
import { useDeleteAlert } from '@/features/alerts/api/delete-alert';
import { useSaveAlert } from '@/features/alerts/api/save-alert';
import { AlertForm, type CategoryOption } from '@/features/alerts/components/alert-form';
import { errorMessage } from '@/lib/http';
import { toast } from '@/lib/toast';

function describe(alert: TaskAlert, categories: CategoryOption[]): string {
  const names = alert.categories.map((id) => categories.find((c) => c.id === id)?.name ?? `Category ${id}`);
  const parts = [
    alert.q ? `“${alert.q}”` : null,
    names.length ? names.join(', ') : 'Any category',
    alert.place ? `within ${alert.radius_km} km of ${alert.place.label}` : 'anywhere',
    alert.remote_ok ? 'remote tasks too' : null,
    alert.min_budget_cents ? `from $${alert.min_budget_cents / 100}` : null,
  ];
  return parts.filter(Boolean).join(' · ');
}

function AlertRow({ alert, categories, onEdit }: { alert: TaskAlert; categories: CategoryOption[]; onEdit: () => void }) {
  const save = useSaveAlert();
  const remove = useDeleteAlert();
  const matched = alert.matched_this_week;
  return (
    <li className="flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-4 sm:flex-row sm:items-center">
      <div className="min-w-0 flex-1">
        <p className="flex items-center gap-2 font-semibold text-slate-900">
          <BellRing aria-hidden className="h-4 w-4 text-brand-700" />
          <span className="truncate">{alert.name}</span>
          {alert.paused && <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-600">Paused</span>}
        </p>
        <p className="mt-1 flex items-start gap-1 text-sm text-slate-600">
          <MapPin aria-hidden className="mt-0.5 h-4 w-4 shrink-0" />
          {describe(alert, categories)}
        </p>
        <p className="mt-1 text-xs text-slate-500">
          {matched === 1 ? '1 task matched this week' : `${matched} tasks matched this week`}
        </p>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" size="sm" onClick={onEdit} aria-label={`Edit ${alert.name}`}>
          <Pencil aria-hidden className="h-4 w-4" />
          Edit
        </Button>
        <Button
          variant="outline"
          size="sm"
          disabled={save.isPending}
          aria-label={`${alert.paused ? 'Resume' : 'Pause'} ${alert.name}`}
          onClick={() => save.mutate({ id: alert.id, input: { paused: !alert.paused } }, { onError: (e) => toast({ title: 'Error', description: errorMessage(e, 'Could not change the alert'), variant: 'error' }) })}
        >
          {alert.paused ? <Play aria-hidden className="h-4 w-4" /> : <Pause aria-hidden className="h-4 w-4" />}
          {alert.paused ? 'Resume' : 'Pause'}
        </Button>
        <Button
          variant="ghost"
          size="sm"
          disabled={remove.isPending}
          aria-label={`Delete ${alert.name}`}
          onClick={() =>
            remove.mutate(alert.id, {
              onSuccess: () => toast({ title: 'Alert deleted', variant: 'success' }),
              onError: (e) => toast({ title: 'Error', description: errorMessage(e, 'Could not delete the alert'), variant: 'error' }),
            })
          }
        >
          <Trash2 aria-hidden className="h-4 w-4" />
          Delete
        </Button>
      </div>
    </li>
  );
}

/** Settings → Task alerts: list, create, edit, pause/resume, delete. */
export function AlertsManager({ categories }: { categories: CategoryOption[] }) {
  const { data, isPending, isError, error } = useAlerts();
  const save = useSaveAlert();
  const [editing, setEditing] = useState<string | 'new' | null>(null);
  if (isPending) return <PageSpinner label="Loading your alerts" />;
  if (isError) return <Alert tone="error">{errorMessage(error, 'Could not load your alerts')}</Alert>;
  const alerts = data.items;
  const editingAlert = alerts.find((a) => a.id === editing);
  const close = () => {
    setEditing(null);
    save.reset();
  };

  return (
    <div className="space-y-4">
      {editing ? (
        <section aria-labelledby="alert-form-heading" className="rounded-2xl bg-white p-6 ring-1 ring-slate-200">
          <h2 id="alert-form-heading" className="mb-4 text-lg font-semibold text-slate-900">
            {editingAlert ? `Edit “${editingAlert.name}”` : 'New alert'}
          </h2>
          <AlertForm
            key={editing}
            alert={editingAlert}
            categories={categories}
            saving={save.isPending}
            serverError={save.isError ? errorMessage(save.error, 'Could not save the alert') : null}
            onCancel={close}
            onSubmit={(input) =>
              save.mutate(
                { id: editingAlert?.id, input },
                {
                  onSuccess: () => {
                    toast({ title: 'Alert saved', description: 'We’ll let you know when a matching task is posted.', variant: 'success' });
                    close();
                  },
                },
              )
            }
          />
        </section>
      ) : (
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="text-sm text-slate-600">
            {alerts.length} of {MAX_ALERTS} alerts
          </p>
          <Button onClick={() => setEditing('new')} disabled={alerts.length >= MAX_ALERTS}>
            <Plus aria-hidden className="h-4 w-4" />
            New alert
          </Button>
        </div>
      )}
      {alerts.length === 0 && !editing ? (
        <div className="rounded-2xl border border-dashed border-slate-300 bg-white p-8 text-center">
          <p className="font-semibold text-slate-900">No alerts yet</p>
          <p className="mt-1 text-sm text-slate-600">Save a search and we’ll tell you the moment a task like it is posted.</p>
        </div>
      ) : (
        <ul aria-label="Your alerts" className="space-y-3">
          {alerts.map((alert) => (
            <AlertRow key={alert.id} alert={alert} categories={categories} onEdit={() => setEditing(alert.id)} />
          ))}
        </ul>
      )}
    </div>
  );
}
