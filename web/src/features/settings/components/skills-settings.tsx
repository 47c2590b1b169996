import { useEffect, useState } from 'react';

import { SkillsEditor } from '@/components/skills/skills-editor';
import { Button } from '@/components/ui/button';
import { useUpdateProfile } from '@/features/settings/api/update-profile';
import type { Skill } from '@/lib/auth/types';
import { useAuth } from '@/lib/auth/use-auth';
import { errorMessage } from '@/lib/http';
import { toast } from '@/lib/toast';

/** Taskers keep the skills they chose at sign-up up to date here. */
export function SkillsSettings() {
  const { profile } = useAuth();
  const update = useUpdateProfile();
  const [skills, setSkills] = useState<Skill[]>(profile?.skills ?? []);
  const [error, setError] = useState<string | undefined>();

  useEffect(() => {
    setSkills(profile?.skills ?? []);
  }, [profile?.id, profile?.skills]);

  const save = async () => {
    if (skills.length === 0) {
      setError('Please add at least one skill');
      return;
    }
    try {
      await update.mutateAsync({ skills });
      toast({ title: 'Profile updated successfully', description: 'Your profile information has been updated.', variant: 'success' });
    } catch (cause) {
      toast({ title: 'Profile update failed', description: errorMessage(cause, 'Something went wrong. Please try again.'), variant: 'error' });
    }
  };

  return (
    <div className="space-y-4">
      <SkillsEditor
        skills={skills}
        onChange={(next) => {
          setSkills(next);
          setError(undefined);
        }}
        error={error}
      />
      <Button onClick={save} loading={update.isPending}>
        Save skills
      </Button>
    </div>
  );
}
