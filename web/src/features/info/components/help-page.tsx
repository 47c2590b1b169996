import { Link } from 'react-router';

import { ContentPage } from '@/components/layouts/content-page';

const topics = [
  { title: 'Getting started', links: [['Create an account', '/signup'], ['How Taskhub works', '/how-it-works'], ['Browse categories', '/categories']] },
  { title: 'Posting tasks', links: [['Post a Task', '/post-task'], ['Choosing an offer', '/faq#posters'], ['Paying and releasing payment', '/faq#posters']] },
  { title: 'Earning as a tasker', links: [['Become a tasker', '/become-tasker'], ['Making good offers', '/faq#taskers'], ['Getting paid', '/faq#taskers']] },
  { title: 'Account and security', links: [['Reset your password', '/forgot-password'], ['Account settings', '/settings'], ['Privacy Policy', '/privacy']] },
  { title: 'Safety', links: [['Trust & Safety', '/trust'], ['Safety tips', '/safety'], ['Community Guidelines', '/guidelines']] },
  { title: 'Policies', links: [['Terms of Service', '/terms'], ['Cookie Policy', '/cookies'], ['COVID-19 information', '/covid']] },
];

export function HelpPage() {
  return (
    <ContentPage title="Help Center" eyebrow="Support" intro="Guides and answers for posters and taskers. Can't find what you need? Our team is here to help.">
      <div className="not-prose grid gap-5 sm:grid-cols-2">
        {topics.map((topic) => (
          <section key={topic.title} className="rounded-2xl bg-white p-5 ring-1 ring-slate-200">
            <h2 className="text-base font-semibold text-slate-900">{topic.title}</h2>
            <ul className="mt-3 space-y-2 text-sm">
              {topic.links.map(([label, to]) => (
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
      <h2>Quick fixes</h2>
      <ul>
        <li><strong>Didn't get the verification email?</strong> Check your spam folder, then try signing in — you'll be told if your email still needs verifying.</li>
        <li><strong>Can't sign in?</strong> Use <Link to="/forgot-password">Forgot password</Link> to set a new password. Links expire after one hour.</li>
        <li><strong>Payment questions?</strong> Money is held securely until the poster releases it. Payouts take 3-5 business days.</li>
      </ul>
      <h2>Contact support</h2>
      <p>
        Send us a message through the <Link to="/contact">contact form</Link>. We reply Monday-Friday 9am-6pm EST.
      </p>
    </ContentPage>
  );
}
