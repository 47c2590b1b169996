import { Link } from 'react-router';

import { buttonClasses } from '@/components/ui/button';
import type { Category } from '@/features/categories/api/get-categories';
import { CategoryIcon } from '@/features/categories/components/category-icon';

export function CategoryCard({ category, compact }: { category: Category; compact?: boolean }) {
  if (compact) {
    return (
      <Link
        to={`/tasks?category=${category.id}`}
        className="group flex flex-col items-center gap-3 rounded-2xl bg-white p-5 text-center ring-1 ring-slate-200 transition hover:-translate-y-0.5 hover:shadow-md hover:ring-brand-300"
      >
        <span className="flex h-14 w-14 items-center justify-center rounded-2xl bg-brand-50 text-brand-700">
          <CategoryIcon name={category.icon} className="h-7 w-7" />
        </span>
        <span className="text-sm font-semibold text-slate-900 group-hover:text-brand-800">{category.name}</span>
      </Link>
    );
  }
  return (
    <article className="flex flex-col rounded-2xl bg-white p-6 ring-1 ring-slate-200">
      <span className="flex h-12 w-12 items-center justify-center rounded-xl bg-brand-50 text-brand-700">
        <CategoryIcon name={category.icon} />
      </span>
      <h2 className="mt-4 text-lg font-semibold text-slate-900">{category.name}</h2>
      <p className="mt-1 flex-1 text-sm leading-relaxed text-slate-600">{category.description}</p>
      <Link
        to={`/tasks?category=${category.id}`}
        className={buttonClasses('outline', 'sm', 'mt-4 self-start')}
        aria-label={`Browse ${category.name} tasks`}
      >
        Browse Tasks
      </Link>
    </article>
  );
}
