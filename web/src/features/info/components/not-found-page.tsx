import { Link } from 'react-router';

import { buttonClasses } from '@/components/ui/button';
import { usePageTitle } from '@/lib/use-page-title';

export function NotFoundPage() {
  usePageTitle('Page not found');
  return (
    <div className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center px-4 py-16 text-center">
      <p className="text-6xl font-extrabold text-brand-700">404</p>
      <h1 className="mt-4 text-3xl font-bold text-slate-900">Oops! Page not found</h1>
      <p className="mt-3 text-slate-600">The page you're looking for doesn't exist or has moved.</p>
      <Link to="/" className={buttonClasses('primary', 'lg', 'mt-8')}>
        Go back home
      </Link>
    </div>
  );
}
