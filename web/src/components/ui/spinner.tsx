import { cn } from '@/lib/cn';

const sizes = { sm: 'h-4 w-4 border-2', md: 'h-8 w-8 border-[3px]', lg: 'h-12 w-12 border-4' };

export function Spinner({ size = 'md', className }: { size?: keyof typeof sizes; className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={cn('inline-block animate-spin rounded-full border-current border-r-transparent text-brand-700', sizes[size], className)}
    />
  );
}

export function PageSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div role="status" className="flex min-h-[50vh] flex-col items-center justify-center gap-3 text-slate-600">
      <Spinner size="lg" />
      <span className="sr-only">{label}</span>
    </div>
  );
}
