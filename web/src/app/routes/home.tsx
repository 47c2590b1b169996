import { PopularCategories } from '@/features/categories/components/categories-grid';
import { CallToAction } from '@/features/home/components/call-to-action';
import { FeaturedTasks } from '@/features/home/components/featured-tasks';
import { Hero } from '@/features/home/components/hero';
import { HowSteps } from '@/features/home/components/how-steps';
import { Testimonials } from '@/features/home/components/testimonials';
import { usePageTitle } from '@/lib/use-page-title';

export function HomeRoute() {
  usePageTitle(undefined);
  return (
    <>
      <Hero />
      <HowSteps />
      <PopularCategories />
      <FeaturedTasks />
      <Testimonials />
      <CallToAction />
    </>
  );
}
