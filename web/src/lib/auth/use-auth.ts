import { useAtomValue } from 'jotai';

import { authLoadingAtom, profileAtom, sessionAtom, userAtom } from '@/lib/auth/session';

export function useAuth() {
  const session = useAtomValue(sessionAtom);
  const user = useAtomValue(userAtom);
  const profile = useAtomValue(profileAtom);
  const loading = useAtomValue(authLoadingAtom);
  return { session, user, profile, loading, isSignedIn: Boolean(session) };
}
