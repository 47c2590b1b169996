import { CategoriesGrid } from '@/features/categories/components/categories-grid';
import { CategoriesPage } from '@/features/info/components/categories-page';

export function CategoriesRoute() {
  return (
    <CategoriesPage>
      <CategoriesGrid />
    </CategoriesPage>
  );
}
