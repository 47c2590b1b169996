import { useParams, useSearchParams } from 'react-router';

import { FirstAlertOffer } from '@/features/alerts/components/first-alert-offer';
import { ProfileView } from '@/features/profiles/components/profile-view';
import { useAuth } from '@/lib/auth/use-auth';

export function ProfileRoute() {
  const { userId } = useParams();
  const [params] = useSearchParams();
  const { profile } = useAuth();
  // Just became a tasker: offer a first alert built from their skills.
  const newTasker = params.get('tasker') === 'new' && profile?.is_tasker && profile.id === userId;
  return (
    <>
      {newTasker && (
        <div className="mx-auto max-w-5xl px-4 pt-6 sm:px-6">
          <FirstAlertOffer skills={profile.skills ?? []} location={profile.location} />
        </div>
      )}
      <ProfileView key={userId} userId={userId ?? ''} />
    </>
  );
}
