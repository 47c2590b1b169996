import { MarketplacePlaceholder } from '@/app/routes/marketplace/placeholder';

export function PostTaskRoute() {
  return <MarketplacePlaceholder title="Post a Task">Describe your task, set a budget and get offers.</MarketplacePlaceholder>;
}
