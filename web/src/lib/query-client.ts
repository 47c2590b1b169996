import { QueryClient } from '@tanstack/react-query';

import { ApiError } from '@/lib/http';

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 60_000,
        retry: (failureCount, error) =>
          !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failureCount < 2,
      },
    },
  });
}

/** The app's one query client, reachable from non-React code (the socket client writes events into it). */
export const queryClient = createQueryClient();
