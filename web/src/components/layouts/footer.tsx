import { Link } from 'react-router';

import { Logo } from '@/components/layouts/logo';
import { useSite } from '@/lib/site';

const groups = [
  {
    title: 'Quick Links',
    links: [
      { to: '/tasks', label: 'Browse Tasks' },
      { to: '/post-task', label: 'Post a Task' },
      { to: '/become-tasker', label: 'Become a Tasker' },
      { to: '/categories', label: 'Categories' },
      { to: '/how-it-works', label: 'How It Works' },
      { to: '/about', label: 'About Us' },
    ],
  },
  {
    title: 'Support',
    links: [
      { to: '/help', label: 'Help Center' },
      { to: '/trust', label: 'Trust & Safety' },
      { to: '/safety', label: 'Safety Tips' },
      { to: '/covid', label: 'COVID-19 Information' },
      { to: '/faq', label: 'FAQ' },
      { to: '/contact', label: 'Contact Us' },
    ],
  },
  {
    title: 'Legal',
    links: [
      { to: '/terms', label: 'Terms of Service' },
      { to: '/privacy', label: 'Privacy Policy' },
      { to: '/cookies', label: 'Cookie Policy' },
      { to: '/guidelines', label: 'Community Guidelines' },
      { to: '/sitemap', label: 'Sitemap' },
    ],
  },
];

/** Icons for the networks we know; any other configured link shows its name. */
const socialIcons: Record<string, string> = {
  facebook: 'M14 8h3V4h-3a4 4 0 00-4 4v2H8v4h2v8h4v-8h3l1-4h-4V8a0 0 0 010 0z',
  instagram: 'M7 3h10a4 4 0 014 4v10a4 4 0 01-4 4H7a4 4 0 01-4-4V7a4 4 0 014-4zm5 5a4 4 0 100 8 4 4 0 000-8zm5.5-1.5a1 1 0 100 2 1 1 0 000-2z',
  linkedin: 'M4 9h4v12H4zM6 3a2 2 0 110 4 2 2 0 010-4zm4 6h4v2c.6-1.1 2-2.2 4-2.2 4 0 4.5 2.6 4.5 6V21h-4v-5.5c0-1.4 0-3.2-2-3.2s-2.3 1.5-2.3 3.1V21h-4z',
  x: 'M4 4h4.5l4 5.6L17.3 4H20l-6.2 7.2L20.5 20H16l-4.3-6-5.2 6H4l6.5-7.5z',
};

/** Social links come from the server's configuration (`SOCIAL_LINKS`); none configured, none shown. */
function SocialLinks() {
  const { data: site } = useSite();
  if (!site?.social.length) return null;
  return (
    <ul className="mt-6 flex flex-wrap gap-3" aria-label="Social media">
      {site.social.map((social) => {
        const icon = socialIcons[social.name.toLowerCase()];
        return (
          <li key={social.url}>
            <a
              href={social.url}
              aria-label={`Taskhub on ${social.name}`}
              target="_blank"
              rel="noreferrer"
              className="inline-flex h-10 min-w-10 items-center justify-center rounded-full bg-slate-800 px-3 text-sm text-slate-300 hover:bg-brand-700 hover:text-white"
            >
              {icon ? (
                <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="currentColor">
                  <path d={icon} />
                </svg>
              ) : (
                social.name
              )}
            </a>
          </li>
        );
      })}
    </ul>
  );
}

export function Footer() {
  return (
    <footer className="border-t border-slate-200 bg-slate-900 text-slate-300">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 sm:px-6 md:grid-cols-2 lg:grid-cols-5 lg:px-8">
        <div className="lg:col-span-2">
          <Logo className="inline-flex items-center gap-2 rounded-md text-lg font-extrabold tracking-tight text-white" accentClassName="text-brand-200" />
          <p className="mt-4 max-w-sm text-sm leading-relaxed text-slate-400">
            Taskhub connects people who need a hand with trusted local taskers. Post for free, compare offers,
            and pay securely — your money is held until the job is done.
          </p>
          <SocialLinks />
        </div>
        {groups.map((group) => (
          <nav key={group.title} aria-label={group.title}>
            <h2 className="text-sm font-semibold uppercase tracking-wider text-white">{group.title}</h2>
            <ul className="mt-4 space-y-2.5">
              {group.links.map((link) => (
                <li key={link.to}>
                  <Link to={link.to} className="text-sm text-slate-400 hover:text-white">
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <div className="border-t border-slate-800">
        <p className="mx-auto max-w-7xl px-4 py-6 text-sm text-slate-400 sm:px-6 lg:px-8">
          © {new Date().getFullYear()} Taskhub. All rights reserved.
        </p>
      </div>
    </footer>
  );
}
