import { useQuery } from '@tanstack/react-query';

import { request } from '@/lib/http';

export type Category = { id: number; name: string; icon: string; description: string };

/** Spec §3 catalogue, shown until (and if) the API answers; the API is the source of truth. */
export const CATEGORIES: Category[] = [
  { id: 1, name: 'Home Cleaning', icon: '🧽', description: 'Regular cleans, end-of-lease cleans, ovens, windows and carpets.' },
  { id: 2, name: 'Furniture Assembly', icon: '🪑', description: 'Flat-pack beds, desks, wardrobes and outdoor settings put together properly.' },
  { id: 3, name: 'Handyman', icon: '🔧', description: 'Small repairs, mounting TVs and shelves, fixing doors, taps and fences.' },
  { id: 4, name: 'Delivery', icon: '📦', description: 'Pick up and drop off anything from marketplace finds to forgotten keys.' },
  { id: 5, name: 'Moving', icon: '🚚', description: 'Help with packing, lifting and transporting for house and office moves.' },
  { id: 6, name: 'Gardening', icon: '🌿', description: 'Mowing, weeding, hedge trimming, planting and green-waste removal.' },
  { id: 7, name: 'Painting', icon: '🎨', description: 'Interior and exterior painting, touch-ups, feature walls and fences.' },
  { id: 8, name: 'Pet Care', icon: '🐾', description: 'Dog walking, pet sitting, feeding visits and grooming help.' },
  { id: 9, name: 'Computer Help', icon: '💻', description: 'Set-up, Wi-Fi and printer fixes, data backup and virus clean-ups.' },
  { id: 10, name: 'Photography', icon: '📷', description: 'Events, portraits, real-estate listings and product photos.' },
  { id: 11, name: 'Graphic Design', icon: '✏️', description: 'Logos, flyers, social media graphics and business cards.' },
  { id: 12, name: 'Writing & Translation', icon: '📝', description: 'Copywriting, proofreading, CVs and translation between languages.' },
  { id: 13, name: 'Automotive', icon: '🚗', description: 'Car washing and detailing, battery swaps and basic servicing.' },
  { id: 14, name: 'Event Help', icon: '🎉', description: 'Set-up and pack-down, waiting staff, bartending and party help.' },
  { id: 15, name: 'Cooking', icon: '🍳', description: 'Meal prep, private chefs, catering for small events and baking.' },
  { id: 16, name: 'Education', icon: '🎓', description: 'Tutoring, music lessons, language coaching and exam preparation.' },
];

export const DEFAULT_CATEGORY_ICON = '📋';

export function categoryIcon(id: number): string {
  return CATEGORIES.find((c) => c.id === id)?.icon ?? DEFAULT_CATEGORY_ICON;
}

export async function getCategories(): Promise<Category[]> {
  const categories = await request<Category[]>('/api/categories');
  return categories.map((c) => ({ ...c, icon: categoryIcon(c.id) }));
}

export function useCategories() {
  return useQuery({
    queryKey: ['categories'],
    queryFn: getCategories,
    placeholderData: CATEGORIES,
    staleTime: 60 * 60 * 1000,
  });
}
