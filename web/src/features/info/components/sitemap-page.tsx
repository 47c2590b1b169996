import { Link } from 'react-router';

import { ContentPage } from '@/components/layouts/content-page';

export const SITEMAP_GROUPS = [
  { title: 'Main Pages', links: [['Home', '/'], ['Browse Tasks', '/tasks'], ['Post a Task', '/post-task'], ['Categories', '/categories'], ['How It Works', '/how-it-works'], ['Become a Tasker', '/become-tasker'], ['Sign In', '/login'], ['Sign Up', '/signup']] },
  { title: 'Support', links: [['Help Center', '/help'], ['FAQ', '/faq'], ['Contact Us', '/contact'], ['Trust & Safety', '/trust'], ['Safety Tips', '/safety'], ['COVID-19 Information', '/covid']] },
  // Only pages that exist: no careers, press or blog pages yet.
  { title: 'About', links: [['About Us', '/about']] },
  { title: 'Legal', links: [['Terms of Service', '/terms'], ['Privacy Policy', '/privacy'], ['Cookie Policy', '/cookies'], ['Community Guidelines', '/guidelines']] },
];

export function SitemapPage() {
  return (
    <ContentPage title="Sitemap" eyebrow="Taskhub" intro="Every page on Taskhub, in one place.">
      <div className="not-prose grid gap-6 sm:grid-cols-2">
        {SITEMAP_GROUPS.map((group) => (
          <section key={group.title} className="rounded-2xl bg-white p-6 ring-1 ring-slate-200">
            <h2 className="text-lg font-semibold text-slate-900">{group.title}</h2>
            <ul className="mt-3 space-y-2 text-sm">
              {group.links.map(([label, to]) => (
                <li key={label}>
                  <Link to={to} className="text-brand-700 hover:underline">
                    {label}
                  </Link>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </ContentPage>
  );
}
