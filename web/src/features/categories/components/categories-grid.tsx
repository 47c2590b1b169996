import { Link } from 'react-router';

import { CATEGORIES, useCategories } from '@/features/categories/api/get-categories';
import { CategoryCard } from '@/features/categories/components/category-card';

/** The full catalogue (16) for /categories. */
export function CategoriesGrid() {
  const { data = CATEGORIES } = useCategories();
  return (
    <div className="grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
      {data.map((category) => (
        <CategoryCard key={category.id} category={category} />
      ))}
    </div>
  );
}

/** Spec §2 home: a grid of 8 popular categories plus a link to /categories. */
export function PopularCategories() {
  const { data = CATEGORIES } = useCategories();
  return (
    <section className="mx-auto max-w-7xl px-4 py-16 sm:px-6 lg:px-8" aria-labelledby="popular-categories-heading">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h2 id="popular-categories-heading" className="text-2xl font-bold text-slate-900 sm:text-3xl">
            Popular categories
          </h2>
          <p className="mt-2 text-slate-600">Whatever needs doing, there's a local tasker for it.</p>
        </div>
        <Link to="/categories" className="text-sm font-semibold text-brand-700 hover:underline">
          View all categories →
        </Link>
      </div>
      <div className="mt-8 grid grid-cols-2 gap-4 sm:grid-cols-4">
        {data.slice(0, 8).map((category) => (
          <CategoryCard key={category.id} category={category} compact />
        ))}
      </div>
    </section>
  );
}
