import { CircleCheck, ClipboardList, MessageSquare } from 'lucide-react';
import { Link } from 'react-router';

const steps = [
  { icon: ClipboardList, title: 'Post a task', body: "Tell us what you need, where and when. It's free and takes about two minutes." },
  { icon: MessageSquare, title: 'Get offers', body: 'Local taskers send offers with their price. Compare profiles, reviews and skills.' },
  { icon: CircleCheck, title: 'Choose and get it done', body: 'Accept the best offer and pay securely. Release the payment once the job is done.' },
];

export function HowSteps() {
  return (
    <section className="bg-white py-16" aria-labelledby="how-steps-heading">
      <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
        <h2 id="how-steps-heading" className="text-center text-2xl font-bold text-slate-900 sm:text-3xl">
          How Taskhub works
        </h2>
        <ol className="mt-10 grid gap-6 md:grid-cols-3">
          {steps.map((step, i) => (
            <li key={step.title} className="relative rounded-2xl bg-slate-50 p-6 text-center">
              <span className="mx-auto flex h-14 w-14 items-center justify-center rounded-2xl bg-brand-100 text-brand-700">
                <step.icon aria-hidden="true" className="h-7 w-7" />
              </span>
              <h3 className="mt-4 text-lg font-semibold text-slate-900">
                <span className="sr-only">Step {i + 1}: </span>
                {step.title}
              </h3>
              <p className="mt-2 text-sm text-slate-600">{step.body}</p>
            </li>
          ))}
        </ol>
        <p className="mt-8 text-center">
          <Link to="/how-it-works" className="font-semibold text-brand-700 hover:underline">
            Learn more about how it works →
          </Link>
        </p>
      </div>
    </section>
  );
}
