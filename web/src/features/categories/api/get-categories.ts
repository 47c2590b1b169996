import { useQuery } from '@tanstack/react-query';

import { request } from '@/lib/http';
import { queryKeys } from '@/lib/query-keys';

export type Category = { id: number; name: string; icon: string; description: string };

/** Spec §3 catalogue, shown until the API answers; the API is the source of truth. Icons are lucide names. */
export const CATEGORIES: Category[] = [
  { id: 1, name: 'Home Cleaning', icon: 'sparkles', description: 'Regular cleans, end-of-lease cleans, ovens, windows and carpets.' },
  { id: 2, name: 'Furniture Assembly', icon: 'sofa', description: 'Flat-pack beds, desks, wardrobes and outdoor settings put together properly.' },
  { id: 3, name: 'Handyman', icon: 'hammer', description: 'Small repairs, mounting TVs and shelves, fixing doors, taps and fences.' },
  { id: 4, name: 'Delivery', icon: 'package', description: 'Pick up and drop off anything from marketplace finds to forgotten keys.' },
  { id: 5, name: 'Moving', icon: 'truck', description: 'Help with packing, lifting and transporting for house and office moves.' },
  { id: 6, name: 'Gardening', icon: 'flower', description: 'Mowing, weeding, hedge trimming, planting and green-waste removal.' },
  { id: 7, name: 'Painting', icon: 'paintbrush', description: 'Interior and exterior painting, touch-ups, feature walls and fences.' },
  { id: 8, name: 'Pet Care', icon: 'paw-print', description: 'Dog walking, pet sitting, feeding visits and grooming help.' },
  { id: 9, name: 'Computer Help', icon: 'laptop', description: 'Set-up, Wi-Fi and printer fixes, data backup and virus clean-ups.' },
  { id: 10, name: 'Photography', icon: 'camera', description: 'Events, portraits, real-estate listings and product photos.' },
  { id: 11, name: 'Graphic Design', icon: 'palette', description: 'Logos, flyers, social media graphics and business cards.' },
  { id: 12, name: 'Writing & Translation', icon: 'pen-tool', description: 'Copywriting, proofreading, CVs and translation between languages.' },
  { id: 13, name: 'Automotive', icon: 'car', description: 'Car washing and detailing, battery swaps and basic servicing.' },
  { id: 14, name: 'Event Help', icon: 'party-popper', description: 'Set-up and pack-down, waiting staff, bartending and party help.' },
  { id: 15, name: 'Cooking', icon: 'chef-hat', description: 'Meal prep, private chefs, catering for small events and baking.' },
  { id: 16, name: 'Education', icon: 'graduation-cap', description: 'Tutoring, music lessons, language coaching and exam preparation.' },
];

export function getCategories(): Promise<Category[]> {
  return request<Category[]>('/api/categories');
}

export function useCategories() {
  return useQuery({
    queryKey: queryKeys.categories,
    queryFn: getCategories,
    placeholderData: CATEGORIES,
    staleTime: 60 * 60 * 1000,
  });
}
