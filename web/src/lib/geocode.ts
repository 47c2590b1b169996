import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';

import { request } from '@/lib/http';
import { queryKeys } from '@/lib/query-keys';

export type LocationSuggestion = { display_name: string; lat?: number | string; lon?: number | string };

/** A suggestion the user picked: the name shown, with usable coordinates. */
export type PickedPlace = { label: string; lat: number; lon: number };

export function placeOf(suggestion: LocationSuggestion): PickedPlace | null {
  const lat = Number(suggestion.lat);
  const lon = Number(suggestion.lon);
  if (suggestion.lat === undefined || suggestion.lon === undefined || !Number.isFinite(lat) || !Number.isFinite(lon)) return null;
  return { label: suggestion.display_name, lat, lon };
}

/** Spec §4/§9: suggestions start at 2 characters, at most 5. */
export const MIN_LOCATION_QUERY = 2;
export const MAX_LOCATION_SUGGESTIONS = 5;

/** Any failure gives an empty list, as the spec asks. */
export async function searchLocations(query: string, signal?: AbortSignal): Promise<LocationSuggestion[]> {
  const q = query.trim();
  if (q.length < MIN_LOCATION_QUERY) return [];
  try {
    const results = await request<LocationSuggestion[]>(`/api/geocode?q=${encodeURIComponent(q)}`, { signal });
    return Array.isArray(results) ? results.slice(0, MAX_LOCATION_SUGGESTIONS) : [];
  } catch {
    return [];
  }
}

function useDebounced<T>(value: T, delayMs: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}

export function useLocationSuggestions(query: string, enabled = true) {
  const debounced = useDebounced(query.trim(), 250);
  return useQuery({
    queryKey: queryKeys.geocode(debounced),
    queryFn: ({ signal }) => searchLocations(debounced, signal),
    enabled: enabled && debounced.length >= MIN_LOCATION_QUERY,
    staleTime: 10 * 60 * 1000,
    placeholderData: keepPreviousData,
  });
}
