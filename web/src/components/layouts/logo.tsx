import { Link } from 'react-router';

/** `accentClassName` colours "hub": the default suits light backgrounds. */
export function Logo({ className, accentClassName = 'text-brand-700' }: { className?: string; accentClassName?: string }) {
  return (
    <Link to="/" className={className ?? 'inline-flex items-center gap-2 rounded-md text-lg font-extrabold tracking-tight text-slate-900'}>
      <svg aria-hidden="true" viewBox="0 0 32 32" className="h-8 w-8">
        <rect width="32" height="32" rx="8" fill="#0f766e" />
        <path d="M9 16.5l4.5 4.5L23 11" fill="none" stroke="#fff" strokeWidth="3.2" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      <span>
        Task<span className={accentClassName}>hub</span>
      </span>
    </Link>
  );
}
