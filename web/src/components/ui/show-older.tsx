import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';

type PagedQuery = {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError: boolean;
  fetchNextPage: () => Promise<unknown>;
};

/** Under a list answered a page at a time: loads the next (older) page, and says so when it could not. */
export function ShowOlder({ query, what, className }: { query: PagedQuery; what: string; className?: string }) {
  return (
    <>
      {query.hasNextPage && (
        <div className={cn('flex justify-center', className)}>
          <Button variant="outline" loading={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
            Show older {what}
          </Button>
        </div>
      )}
      {query.isFetchNextPageError && <Alert>We couldn't load older {what}. Please try again.</Alert>}
    </>
  );
}
