import { useNavigate } from 'react-router';

import { Button } from '@/components/ui/button';
import { useBecomeTasker } from '@/features/tasker/api/become-tasker';
import { EarningsCalculator } from '@/features/tasker/components/earnings-calculator';
import { useAuth } from '@/lib/auth/use-auth';
import { errorMessage } from '@/lib/http';
import { toast } from '@/lib/toast';
import { usePageTitle } from '@/lib/use-page-title';

const benefits = [
  { title: 'Be your own boss', body: 'Choose the tasks you want, set your own price and work the hours that suit you.' },
  { title: 'Get paid securely', body: "The poster pays upfront and Taskhub holds the money until the job is done. Payouts reach your bank in 3-5 business days." },
  { title: 'Grow with reviews', body: 'Every completed task earns a review. Great reviews put your offers at the top of posters\' lists.' },
];

const steps = [
  { title: 'Create your profile', body: 'Add a photo, your skills and the suburbs you cover.' },
  { title: 'Browse and offer', body: 'Find open tasks near you and send an offer with your price and a short message.' },
  { title: 'Do great work', body: 'Once the poster accepts and pays, get the job done and request payment.' },
  { title: 'Get paid', body: 'The poster releases the payment and it is transferred to you, minus the 10% service fee.' },
];

export function BecomeTaskerPage() {
  usePageTitle('Become a Tasker');
  const { user, loading } = useAuth();
  const navigate = useNavigate();
  const become = useBecomeTasker();

  const start = async () => {
    if (!user) {
      toast({ title: 'Please sign in first to become a tasker', variant: 'error' });
      navigate('/login', { state: { from: { pathname: '/become-tasker' } } });
      return;
    }
    try {
      await become.mutateAsync();
      toast({ title: 'Tasker application started!', variant: 'success' });
      navigate(`/profile/${user.id}?tasker=new`);
    } catch (error) {
      toast({ title: 'Error', description: errorMessage(error, 'Something went wrong. Please try again.'), variant: 'error' });
    }
  };

  const cta = (label: string) => (
    <Button variant="secondary" size="lg" onClick={start} loading={become.isPending} disabled={loading}>
      {label}
    </Button>
  );

  return (
    <div>
      <section className="bg-gradient-to-br from-brand-900 via-brand-800 to-brand-600 text-white">
        <div className="mx-auto grid max-w-6xl items-center gap-10 px-4 py-16 sm:px-6 lg:grid-cols-2 lg:px-8">
          <div>
            <p className="text-sm font-semibold uppercase tracking-wider text-brand-100">Become a tasker</p>
            <h1 className="mt-3 text-4xl font-extrabold tracking-tight sm:text-5xl">Earn money doing what you're good at</h1>
            <p className="mt-4 max-w-xl text-lg text-brand-50">
              Thousands of neighbours need a hand every week — assembling furniture, fixing taps, moving house, walking
              dogs. Taskers on Taskhub earn $25–45 per hour, on their own schedule.
            </p>
            <div className="mt-8 flex flex-wrap gap-3">{cta('Start earning today')}</div>
          </div>
          <EarningsCalculator />
        </div>
      </section>

      <section className="mx-auto max-w-6xl px-4 py-16 sm:px-6 lg:px-8" aria-labelledby="why-heading">
        <h2 id="why-heading" className="text-2xl font-bold text-slate-900 sm:text-3xl">Why taskers choose Taskhub</h2>
        <div className="mt-8 grid gap-6 md:grid-cols-3">
          {benefits.map((b) => (
            <div key={b.title} className="rounded-2xl bg-white p-6 ring-1 ring-slate-200">
              <h3 className="text-lg font-semibold text-slate-900">{b.title}</h3>
              <p className="mt-2 text-sm leading-relaxed text-slate-600">{b.body}</p>
            </div>
          ))}
        </div>
      </section>

      <section className="bg-white py-16" aria-labelledby="steps-heading">
        <div className="mx-auto max-w-6xl px-4 sm:px-6 lg:px-8">
          <h2 id="steps-heading" className="text-2xl font-bold text-slate-900 sm:text-3xl">How it works for taskers</h2>
          <ol className="mt-8 grid gap-6 md:grid-cols-4">
            {steps.map((s, i) => (
              <li key={s.title} className="rounded-2xl bg-slate-50 p-6">
                <span className="flex h-9 w-9 items-center justify-center rounded-full bg-brand-700 font-bold text-white">{i + 1}</span>
                <h3 className="mt-4 font-semibold text-slate-900">{s.title}</h3>
                <p className="mt-1 text-sm text-slate-600">{s.body}</p>
              </li>
            ))}
          </ol>
          <div className="mt-10 flex flex-wrap items-center gap-4">
            {cta('Become a tasker')}
            <p className="text-sm text-slate-600">Only the poster releases payment, so agree on the scope before you start.</p>
          </div>
        </div>
      </section>
    </div>
  );
}
