import { MarketplacePlaceholder } from '@/app/routes/marketplace/placeholder';

export function BrowseTasksRoute() {
  return <MarketplacePlaceholder title="Available Tasks">Open tasks near you will appear here.</MarketplacePlaceholder>;
}
