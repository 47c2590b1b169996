import type { ReactNode } from 'react';

import { ContentPage } from '@/components/layouts/content-page';
import type { Site } from '@/lib/site';

function ContactCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="rounded-2xl bg-white p-5 ring-1 ring-slate-200">
      <h2 className="font-semibold text-slate-900">{title}</h2>
      {children}
    </div>
  );
}

/** The form comes from the contact feature and the addresses from the server's configuration; the route composes them. */
export function ContactPage({ form, site }: { form: ReactNode; site: Site | undefined }) {
  return (
    <ContentPage
      title="Contact Us"
      eyebrow="Support"
      intro="Questions, feedback or a problem with a task? Send us a message and we'll get back to you."
      aside={
        site && (
          <div className="space-y-4 text-sm">
            <ContactCard title="Support">
              <p className="mt-1 text-slate-600">
                <a className="text-brand-700 underline" href={`mailto:${site.support_email}`}>
                  {site.support_email}
                </a>
              </p>
              {!site.support_phone && <p className="mt-1 text-slate-600">{site.support_hours}</p>}
            </ContactCard>
            {site.business_email && (
              <ContactCard title="Business & partnerships">
                <p className="mt-1 text-slate-600">
                  <a className="text-brand-700 underline" href={`mailto:${site.business_email}`}>
                    {site.business_email}
                  </a>
                </p>
              </ContactCard>
            )}
            {site.support_phone && (
              <ContactCard title="Phone">
                <p className="mt-1 text-slate-600">
                  <a className="text-brand-700 underline" href={`tel:${site.support_phone.replace(/[^\d+]/g, '')}`}>
                    {site.support_phone}
                  </a>
                </p>
                <p className="mt-1 text-slate-600">{site.support_hours}</p>
              </ContactCard>
            )}
          </div>
        )
      }
    >
      <div className="not-prose">{form}</div>
    </ContentPage>
  );
}
