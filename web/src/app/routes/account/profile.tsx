import { useParams } from 'react-router';

import { ProfileView } from '@/features/profiles/components/profile-view';

export function ProfileRoute() {
  const { userId } = useParams();
  return <ProfileView key={userId} userId={userId ?? ''} />;
}
