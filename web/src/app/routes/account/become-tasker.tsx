import { BecomeTaskerPage } from '@/features/tasker/components/become-tasker-page';

export function BecomeTaskerRoute() {
  return <BecomeTaskerPage />;
}
