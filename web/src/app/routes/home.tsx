import { PopularCategories } from '@/features/categories/components/categories-grid';
import { CallToAction } from '@/features/home/components/call-to-action';
import { FeaturedTasks } from '@/features/home/components/featured-tasks';
import { Hero } from '@/features/home/components/hero';
import { HowSteps } from '@/features/home/components/how-steps';
import { usePageTitle } from '@/lib/use-page-title';
import { lazyWhenIdle } from '@/lib/when-idle';
import { withMotion } from '@/lib/with-motion';

/** Far below the fold and the one part of home that animates: it comes with motion after the first paint. */
const Testimonials = lazyWhenIdle(() =>
  withMotion(() => import('@/features/home/components/testimonials').then((module) => module.Testimonials)),
);

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
