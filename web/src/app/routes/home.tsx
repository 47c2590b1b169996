import { PopularCategories } from '@/features/categories/components/categories-grid';
import { CallToAction } from '@/features/home/components/call-to-action';
import { Hero } from '@/features/home/components/hero';
import { HowSteps } from '@/features/home/components/how-steps';
import { Testimonials } from '@/features/home/components/testimonials';
import { usePageTitle } from '@/lib/use-page-title';

/** Featured tasks (live data) join between the categories and the testimonials in web part 2. */
export function HomeRoute() {
  usePageTitle(undefined);
  return (
    <>
      <Hero />
      <HowSteps />
      <PopularCategories />
      <Testimonials />
      <CallToAction />
    </>
  );
}
