import { MarketplacePlaceholder } from '@/app/routes/marketplace/placeholder';

export function NotificationsRoute() {
  return <MarketplacePlaceholder title="Notifications">No notifications yet</MarketplacePlaceholder>;
}
