import type { ReactNode } from 'react';
import { usePageTitle } from '@/lib/use-page-title';

export function AuthCard({ title, subtitle, children, wide }: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  wide?: boolean;
}) {
  usePageTitle(title);
  return (
    <div className="bg-gradient-to-b from-brand-50 to-slate-50 px-4 py-10 sm:py-16">
      <div className={`mx-auto w-full ${wide ? 'max-w-2xl' : 'max-w-md'} rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8`}>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
        {subtitle && <p className="mt-2 text-sm text-slate-600">{subtitle}</p>}
        <div className="mt-6">{children}</div>
      </div>
    </div>
  );
}
