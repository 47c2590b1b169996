import { useId } from 'react';

import { Avatar } from '@/components/ui/avatar';
import { Spinner } from '@/components/ui/spinner';
import { useUploadAvatar } from '@/features/settings/api/upload-avatar';
import { useAuth } from '@/lib/auth/use-auth';
import { errorMessage } from '@/lib/http';
import { toast } from '@/lib/toast';
import { getInitials } from '@/lib/user-names';

export function AvatarUploader() {
  const id = useId();
  const { user, profile } = useAuth();
  const upload = useUploadAvatar();

  return (
    <div className="flex flex-wrap items-center gap-4">
      <Avatar src={profile?.avatar_url} initials={getInitials(profile, user?.email)} alt="Your profile picture" size="xl" />
      <div className="space-y-1">
        <label
          htmlFor={id}
          className="inline-flex cursor-pointer items-center gap-2 rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm font-semibold text-slate-800 focus-within:ring-2 focus-within:ring-brand-500 hover:bg-slate-50"
        >
          {upload.isPending && <Spinner size="sm" />}
          {profile?.avatar_url ? 'Change profile picture' : 'Upload profile picture'}
          <input
            id={id}
            type="file"
            accept="image/*"
            className="sr-only"
            disabled={upload.isPending}
            onChange={async (event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              if (!file) return;
              try {
                await upload.mutateAsync(file);
                toast({ title: 'Avatar uploaded', description: 'Your profile picture has been uploaded successfully.', variant: 'success' });
              } catch (error) {
                toast({
                  title: 'Upload failed',
                  description: errorMessage(error, 'Failed to upload profile picture. Please try again.'),
                  variant: 'error',
                });
              }
            }}
          />
        </label>
        <p className="text-xs text-slate-500">JPG, PNG, GIF or WebP, up to 5 MB. A clear face photo builds trust.</p>
      </div>
    </div>
  );
}
