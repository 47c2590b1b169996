import { MarketplacePlaceholder } from '@/app/routes/marketplace/placeholder';

export function MyTasksRoute() {
  return <MarketplacePlaceholder title="My Tasks">Tasks you posted and tasks you're offering on.</MarketplacePlaceholder>;
}
