import { Button } from '@/components/ui/button';
import { useIdentities } from '@/features/settings/api/get-identities';
import { useUnlinkIdentity } from '@/features/settings/api/unlink-identity';
import { errorMessage } from '@/lib/http';
import { toast } from '@/lib/toast';

/** The sign-in providers linked to the account, each with Unlink (refused for the last way in). */
export function LinkedAccounts() {
  const { data, isPending, isError } = useIdentities();
  const unlink = useUnlinkIdentity();

  if (isPending) return <p className="text-sm text-slate-600">Loading linked accounts…</p>;
  if (isError) return <p className="text-sm text-red-700">Linked accounts could not be loaded.</p>;

  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-600">
        {data.has_password ? 'You sign in with your password' : 'You have no password yet'}
        {data.items.length ? ' and with the accounts below.' : '.'} Signing in with Google, Facebook or Apple links it here when it uses
        your confirmed email address.
      </p>
      {data.items.length > 0 && (
        <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200">
          {data.items.map((identity) => (
            <li key={identity.provider} className="flex flex-wrap items-center justify-between gap-3 p-3">
              <div>
                <p className="font-medium text-slate-900">{identity.name}</p>
                {identity.email && <p className="text-sm text-slate-600">{identity.email}</p>}
              </div>
              <Button
                variant="outline"
                size="sm"
                aria-label={`Unlink ${identity.name}`}
                loading={unlink.isPending && unlink.variables === identity.provider}
                onClick={async () => {
                  try {
                    await unlink.mutateAsync(identity.provider);
                    toast({ title: `${identity.name} unlinked`, description: 'It no longer signs you in to Taskhub.', variant: 'success' });
                  } catch (error) {
                    toast({ title: 'Could not unlink', description: errorMessage(error, 'Please try again.'), variant: 'error' });
                  }
                }}
              >
                Unlink
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
