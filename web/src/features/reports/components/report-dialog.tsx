import { useState, type FormEvent } from 'react';

import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { FieldShell, inputClasses, TextAreaField, TextField } from '@/components/ui/field';
import { REPORT_REASONS, reportInputSchema, useReportTask, type ReportInput } from '@/features/reports/api/report-task';
import { errorMessage } from '@/lib/http';
import { toast } from '@/lib/toast';

type Draft = { reason: string; details: string; name: string; email: string };

export function ReportDialog({ open, onClose, taskId, taskTitle, defaults }: {
  open: boolean;
  onClose: () => void;
  taskId: string;
  taskTitle: string;
  defaults: { name: string; email: string };
}) {
  const [draft, setDraft] = useState<Draft>({ reason: '', details: '', ...defaults });
  const [errors, setErrors] = useState<Partial<Record<keyof Draft, string>>>({});
  const report = useReportTask(taskId, taskTitle);
  const edit = (key: keyof Draft, value: string) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setErrors((e) => ({ ...e, [key]: undefined }));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = reportInputSchema.safeParse(draft);
    if (!parsed.success) {
      const next: typeof errors = {};
      for (const issue of parsed.error.issues) next[issue.path[0] as keyof Draft] ??= issue.message;
      return setErrors(next);
    }
    report.mutate(parsed.data as ReportInput, {
      onSuccess: () => {
        toast({ title: 'Report sent', description: 'Thanks — our trust and safety team will review this task.', variant: 'success' });
        setDraft({ reason: '', details: '', ...defaults });
        onClose();
      },
    });
  };
  return (
    <Dialog open={open} onClose={onClose} title="Report this task">
      <form onSubmit={submit} noValidate className="space-y-4">
        <FieldShell id="report-reason" label="Reason" error={errors.reason}>
          <select id="report-reason" value={draft.reason} onChange={(e) => edit('reason', e.target.value)} className={inputClasses(Boolean(errors.reason))}>
            <option value="">Choose a reason</option>
            {REPORT_REASONS.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
        </FieldShell>
        <TextAreaField label="What's wrong?" value={draft.details} onChange={(e) => edit('details', e.target.value)} error={errors.details} />
        {!defaults.email && (
          <>
            <TextField label="Your name" value={draft.name} onChange={(e) => edit('name', e.target.value)} error={errors.name} />
            <TextField label="Your email" type="email" value={draft.email} onChange={(e) => edit('email', e.target.value)} error={errors.email} />
          </>
        )}
        {report.isError && <Alert>{errorMessage(report.error, 'Your report could not be sent. Please try again.')}</Alert>}
        <div className="flex justify-end gap-2">
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" variant="danger" loading={report.isPending}>
            Send report
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
