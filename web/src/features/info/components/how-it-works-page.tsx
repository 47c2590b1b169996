import { Link } from 'react-router';

import { buttonClasses } from '@/components/ui/button';
import { generalFaq, posterFaq } from '@/features/info/components/faq-content';
import { FaqList } from '@/features/info/components/faq-list';
import { usePageTitle } from '@/lib/use-page-title';

const posterSteps = [
  { title: 'Post your task', body: 'Describe what you need, where and by when, and set a budget. Posting is free.' },
  { title: 'Get offers', body: 'Local taskers send offers with their price and a message. Check their reviews, skills and verifications, and ask questions.' },
  { title: 'Get it done', body: 'Accept the offer you like and pay securely. We hold the money until you confirm the job is complete.' },
];

const taskerSteps = [
  { title: 'Browse tasks', body: 'Find open tasks near you by category, keyword, location and budget.' },
  { title: 'Make an offer', body: 'Send your price and a short message explaining how you’ll do the job.' },
  { title: 'Get paid', body: 'Do great work, request payment, and receive it (minus the 10% service fee) within 3-5 business days of release.' },
];

function Steps({ id, title, steps }: { id: string; title: string; steps: typeof posterSteps }) {
  return (
    <section aria-labelledby={id} className="py-12">
      <h2 id={id} className="text-2xl font-bold text-slate-900 sm:text-3xl">
        {title}
      </h2>
      <ol className="mt-8 grid gap-6 md:grid-cols-3">
        {steps.map((step, i) => (
          <li key={step.title} className="rounded-2xl bg-white p-6 ring-1 ring-slate-200">
            <span className="flex h-10 w-10 items-center justify-center rounded-full bg-brand-700 text-lg font-bold text-white">{i + 1}</span>
            <h3 className="mt-4 text-lg font-semibold text-slate-900">{step.title}</h3>
            <p className="mt-2 text-sm leading-relaxed text-slate-600">{step.body}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}

export function HowItWorksPage() {
  usePageTitle('How It Works');
  return (
    <div>
      <section className="bg-gradient-to-br from-brand-800 to-brand-600 text-white">
        <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6 lg:px-8">
          <h1 className="text-3xl font-extrabold tracking-tight sm:text-5xl">How It Works</h1>
          <p className="mt-4 max-w-2xl text-lg text-brand-50">
            Taskhub connects people who need something done with local taskers who can do it — safely, quickly and
            with payment protection built in.
          </p>
          <div className="mt-8 flex flex-wrap gap-3">
            <Link to="/post-task" className={buttonClasses('secondary', 'lg')}>
              Post a Task
            </Link>
            <Link to="/tasks" className={buttonClasses('outline-light', 'lg')}>
              Browse Tasks
            </Link>
          </div>
        </div>
      </section>
      <div className="mx-auto max-w-6xl px-4 sm:px-6 lg:px-8">
        <Steps id="posters-heading" title="For posters" steps={posterSteps} />
        <Steps id="taskers-heading" title="For taskers" steps={taskerSteps} />
        <section aria-labelledby="trust-heading" className="rounded-3xl bg-slate-900 p-8 text-white sm:p-12">
          <h2 id="trust-heading" className="text-2xl font-bold sm:text-3xl">Trust and safety, built in</h2>
          <ul className="mt-6 grid gap-6 md:grid-cols-3">
            <li>
              <h3 className="font-semibold">Secure payments</h3>
              <p className="mt-1 text-sm text-slate-300">Payment is held by Taskhub until the poster confirms the task is complete. Only the poster releases payment.</p>
            </li>
            <li>
              <h3 className="font-semibold">Verified members</h3>
              <p className="mt-1 text-sm text-slate-300">Email, phone, identity and payment checks show on each profile, and Taskhub Verified taskers carry a badge.</p>
            </li>
            <li>
              <h3 className="font-semibold">Honest reviews</h3>
              <p className="mt-1 text-sm text-slate-300">Only people who completed a task together can review each other, so every rating is earned.</p>
            </li>
          </ul>
          <Link to="/trust" className="mt-6 inline-block font-semibold text-brand-200 underline">
            Read about Trust & Safety
          </Link>
        </section>
        <section aria-labelledby="faq-heading" className="py-12">
          <h2 id="faq-heading" className="mb-6 text-2xl font-bold text-slate-900 sm:text-3xl">
            Common questions
          </h2>
          <FaqList items={[...generalFaq.slice(1, 3), ...posterFaq.slice(2, 4)]} />
          <p className="mt-6">
            <Link to="/faq" className="font-semibold text-brand-700 hover:underline">
              See all FAQs →
            </Link>
          </p>
        </section>
      </div>
    </div>
  );
}
