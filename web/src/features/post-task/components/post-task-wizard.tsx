import { ArrowLeft, ArrowRight, Check } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';

import { LocationInput } from '@/components/location/location-input';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { FieldShell, inputClasses, TextAreaField, TextField } from '@/components/ui/field';
import { PageSpinner, Spinner } from '@/components/ui/spinner';
import {
  isSessionError,
  MIN_BUDGET,
  postTaskErrorMessage,
  useCreateTask,
  validateSteps,
  WIZARD_CATEGORIES,
  type TaskForm,
} from '@/features/post-task/api/create-task';
import { photoProblem, uploadTaskPhotos } from '@/features/post-task/api/task-photos';
import { PhotoPicker, useLocalPreviews } from '@/features/post-task/components/photo-picker';
import { fromLocation } from '@/lib/auth/redirect';
import { useAuth } from '@/lib/auth/use-auth';
import { useSignOut } from '@/lib/auth/use-sign-out';
import { ApiError } from '@/lib/http';
import { formatMoney } from '@/lib/marketplace';
import { toast } from '@/lib/toast';

const STEPS = ['Details', 'Location', 'Budget', 'Review'] as const;
type Step = 1 | 2 | 3 | 4;
const EMPTY: TaskForm = { title: '', description: '', category: '', location: '', budget: '', date: '' };

/** Spec §4: the bar is (step - 1) × 33.3% wide. */
export function progressWidth(step: number) {
  return `${((step - 1) * 33.3).toFixed(1)}%`;
}

export function today() {
  const now = new Date();
  return new Date(now.getTime() - now.getTimezoneOffset() * 60_000).toISOString().slice(0, 10);
}

export function PostTaskWizard() {
  const { session, loading } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const signOut = useSignOut();
  const create = useCreateTask();
  const [form, setForm] = useState<TaskForm>(EMPTY);
  const [step, setStep] = useState<Step>(1);
  const [submissionError, setSubmissionError] = useState<string | null>(null);
  const [photos, setPhotos] = useState<File[]>([]);
  const [photoError, setPhotoError] = useState<string | null>(null);
  const [uploadingPhotos, setUploadingPhotos] = useState(false);
  const previews = useLocalPreviews(photos);
  const isSubmitting = create.isPending || uploadingPhotos;
  const stepHeading = useRef<HTMLHeadingElement>(null);
  const stepChangedByUser = useRef(false);

  useEffect(() => {
    // Next/Previous replace the fields under the keyboard: tell screen readers where they are now.
    if (stepChangedByUser.current) stepHeading.current?.focus();
  }, [step]);

  useEffect(() => {
    if (loading || session) return;
    toast({ title: 'Authentication Required', description: 'You must be logged in to post a task', variant: 'error' });
    void navigate('/login', { replace: true, state: fromLocation(location) });
  }, [loading, session, navigate, location]);

  if (loading || !session) return <PageSpinner label="Loading your session" />;

  const set = (key: keyof TaskForm, value: string) => setForm((f) => ({ ...f, [key]: value }));
  const top = () => window.scrollTo?.({ top: 0, behavior: 'smooth' });
  const next = () => {
    const problem = validateSteps(form, step);
    if (problem) {
      setSubmissionError(problem);
      return;
    }
    setSubmissionError(null);
    stepChangedByUser.current = true;
    setStep((s) => Math.min(4, s + 1) as Step);
    top();
  };
  const previous = () => {
    setSubmissionError(null);
    stepChangedByUser.current = true;
    setStep((s) => Math.max(1, s - 1) as Step);
    top();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (step !== 4) return next();
    const problem = validateSteps(form, 4);
    if (problem) return setSubmissionError(problem);
    setSubmissionError(null);
    create.mutate(form, {
      onSuccess: async (task) => {
        // The photos go up once the task exists; the task is live whatever becomes of them.
        if (photos.length > 0) {
          setUploadingPhotos(true);
          const { failed, reason } = await uploadTaskPhotos(task.id, photos);
          setUploadingPhotos(false);
          if (failed.length > 0) {
            toast({
              title: `${failed.length} photo${failed.length === 1 ? '' : 's'} could not be added`,
              description: `${reason ?? 'Please try again'} You can add photos by editing your task.`,
              variant: 'error',
            });
          }
        }
        setForm(EMPTY);
        setPhotos([]);
        setStep(1);
        toast({ title: 'Task posted', description: 'Your task is live. Taskers can now make offers.', variant: 'success' });
        void navigate('/my-tasks');
      },
      onError: (error) => {
        if (error instanceof ApiError && error.status === 401) {
          toast({
            title: 'Authentication Error',
            description: 'You must be logged in to post a task. Please sign in and try again.',
            variant: 'error',
          });
          void navigate('/login', { state: fromLocation(location) });
          return;
        }
        const message = postTaskErrorMessage(error);
        setSubmissionError(message);
        toast({ title: 'Error', description: message, variant: 'error' });
      },
    });
  };

  const category = WIZARD_CATEGORIES.find((c) => String(c.id) === form.category);

  return (
    <div className="mx-auto max-w-2xl px-4 py-10 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">Post a Task</h1>
      <p className="mt-1 text-slate-600">Tell us what you need done. Posting is free.</p>

      <ol className="mt-8 grid grid-cols-4 gap-2 text-xs font-medium sm:text-sm" aria-label="Steps">
        {STEPS.map((label, i) => {
          const n = i + 1;
          return (
            <li key={label} aria-current={n === step ? 'step' : undefined} className={n <= step ? 'text-brand-800' : 'text-slate-600'}>
              <span
                className={`mr-1.5 inline-flex h-6 w-6 items-center justify-center rounded-full text-xs ${n < step ? 'bg-brand-700 text-white' : n === step ? 'border-2 border-brand-700' : 'border border-slate-300'}`}
              >
                {n < step ? <Check aria-hidden className="h-3.5 w-3.5" /> : n}
              </span>
              {label}
            </li>
          );
        })}
      </ol>
      <div
        className="mt-3 h-2 overflow-hidden rounded-full bg-slate-200"
        role="progressbar"
        aria-label="Progress"
        aria-valuemin={1}
        aria-valuemax={4}
        aria-valuenow={step}
      >
        <div data-testid="wizard-progress" className="h-full rounded-full bg-brand-700 transition-all duration-300" style={{ width: progressWidth(step) }} />
      </div>

      <form onSubmit={submit} noValidate className="mt-8 space-y-5 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
        <h2 ref={stepHeading} tabIndex={-1} className="text-lg font-semibold text-slate-900 focus:outline-none">
          Step {step} of 4: {STEPS[step - 1]}
        </h2>

        {step === 1 && (
          <>
            <TextField label="Task title" name="title" placeholder="e.g. Assemble an IKEA wardrobe" value={form.title} onChange={(e) => set('title', e.target.value)} maxLength={120} required />
            <TextAreaField
              label="Description"
              name="description"
              placeholder="What needs doing, any tools or materials, access details"
              value={form.description}
              onChange={(e) => set('description', e.target.value)}
              required
            />
            <FieldShell id="task-category" label="Category">
              <select id="task-category" required value={form.category} onChange={(e) => set('category', e.target.value)} className={inputClasses(false)}>
                <option value="">Select a category</option>
                {WIZARD_CATEGORIES.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name}
                  </option>
                ))}
              </select>
            </FieldShell>
            <PhotoPicker
              photos={previews}
              error={photoError}
              onAdd={(files) => {
                const problems = files.map(photoProblem).filter(Boolean);
                setPhotoError(problems[0] ?? null);
                setPhotos((current) => [...current, ...files.filter((file) => !photoProblem(file))]);
              }}
              onRemove={(key) => {
                setPhotoError(null);
                setPhotos((current) => current.filter((_, i) => previews[i]?.key !== key));
              }}
            />
          </>
        )}

        {step === 2 && <LocationInput label="Location" value={form.location} onChange={(v) => setForm((f) => ({ ...f, location: v, place: undefined }))} onPick={(place) => setForm((f) => ({ ...f, location: place.label, place }))} placeholder="Suburb, e.g. Newtown NSW" inputClassName={inputClasses(false)} />}

        {step === 3 && (
          <>
            <TextField
              label="Budget (AUD)"
              name="budget"
              type="number"
              inputMode="decimal"
              min={MIN_BUDGET}
              step="1"
              placeholder="e.g. 120"
              value={form.budget}
              onChange={(e) => set('budget', e.target.value)}
              hint={`Minimum $${MIN_BUDGET}. Taskers may offer more or less.`}
              required
            />
            <TextField label="Due date" name="date" type="date" min={today()} value={form.date} onChange={(e) => set('date', e.target.value)} required />
          </>
        )}

        {step === 4 && (
          <dl className="divide-y divide-slate-100 rounded-xl border border-slate-200 text-sm">
            {[
              ['Title', form.title],
              ['Description', form.description],
              ['Category', category?.name ?? ''],
              ['Location', form.location],
              ['Budget', form.budget ? formatMoney(Math.round(Number(form.budget) * 100)) : ''],
              ['Due date', form.date ? new Date(`${form.date}T00:00:00`).toLocaleDateString('en-AU', { day: 'numeric', month: 'long', year: 'numeric' }) : ''],
              ...(photos.length > 0 ? [['Photos', `${photos.length} photo${photos.length === 1 ? '' : 's'}`]] : []),
            ].map(([label, value]) => (
              <div key={label} className="grid grid-cols-3 gap-3 p-3">
                <dt className="font-medium text-slate-500">{label}</dt>
                <dd className="col-span-2 whitespace-pre-line text-slate-900">{value}</dd>
              </div>
            ))}
          </dl>
        )}

        {submissionError && (
          <Alert title="Error">
            <p>{submissionError}</p>
            {isSessionError(submissionError) && (
              <p className="mt-2">
                Your session needs refreshing.{' '}
                <Link to="/login" state={fromLocation(location)} className="font-semibold underline">
                  Sign in again
                </Link>{' '}
                or{' '}
                <button type="button" className="font-semibold underline" onClick={() => void signOut()}>
                  Sign out
                </button>
                .
              </p>
            )}
          </Alert>
        )}

        <div className="flex justify-between gap-3 border-t border-slate-100 pt-5">
          <Button variant="outline" onClick={previous} disabled={step === 1 || isSubmitting}>
            <ArrowLeft aria-hidden className="h-4 w-4" /> Previous
          </Button>
          {step < 4 ? (
            <Button key="next" onClick={next}>
              Next <ArrowRight aria-hidden className="h-4 w-4" />
            </Button>
          ) : (
            <Button key="submit" type="submit" disabled={isSubmitting} aria-busy={isSubmitting || undefined}>
              {isSubmitting ? (
                <>
                  <Spinner size="sm" className="text-current" /> Posting…
                </>
              ) : (
                'Post Task'
              )}
            </Button>
          )}
        </div>
      </form>
    </div>
  );
}
