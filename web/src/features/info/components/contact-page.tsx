import type { ReactNode } from 'react';

import { ContentPage } from '@/components/layouts/content-page';

/** The form comes from the contact feature; the route composes both. */
export function ContactPage({ form }: { form: ReactNode }) {
  return (
    <ContentPage
      title="Contact Us"
      eyebrow="Support"
      intro="Questions, feedback or a problem with a task? Send us a message and we'll get back to you."
      aside={
        <div className="space-y-4 text-sm">
          <div className="rounded-2xl bg-white p-5 ring-1 ring-slate-200">
            <h2 className="font-semibold text-slate-900">Support</h2>
            <p className="mt-1 text-slate-600">
              <a className="text-brand-700 underline" href="mailto:support@taskhub.example">support@taskhub.example</a>
            </p>
          </div>
          <div className="rounded-2xl bg-white p-5 ring-1 ring-slate-200">
            <h2 className="font-semibold text-slate-900">Business & partnerships</h2>
            <p className="mt-1 text-slate-600">
              <a className="text-brand-700 underline" href="mailto:business@taskhub.example">business@taskhub.example</a>
            </p>
          </div>
          <div className="rounded-2xl bg-white p-5 ring-1 ring-slate-200">
            <h2 className="font-semibold text-slate-900">Phone</h2>
            <p className="mt-1 text-slate-600">
              <a className="text-brand-700 underline" href="tel:+61290000000">+61 2 9000 0000</a>
            </p>
            <p className="mt-1 text-slate-600">Monday-Friday 9am-6pm EST</p>
          </div>
        </div>
      }
    >
      <div className="not-prose">{form}</div>
    </ContentPage>
  );
}
