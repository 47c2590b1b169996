import { useEffect, useRef, type FormEvent } from 'react';

import { Button } from '@/components/ui/button';
import { TextAreaField, TextField } from '@/components/ui/field';
import { settingsInputSchema, useUpdateProfile, type SettingsInput } from '@/features/settings/api/update-profile';
import type { Profile } from '@/lib/auth/types';
import { useAuth } from '@/lib/auth/use-auth';
import { formatMemberSince } from '@/lib/format';
import { ApiError } from '@/lib/http';
import { toast } from '@/lib/toast';
import { useForm } from '@/lib/use-form';
import { validate } from '@/lib/validation';

const fromProfile = (profile: Profile | null): SettingsInput => ({
  first_name: profile?.first_name ?? '',
  last_name: profile?.last_name ?? '',
  // The API's display_name is the computed name; custom_display_name is the one the user chose.
  display_name: (profile && 'custom_display_name' in profile ? profile.custom_display_name : profile?.display_name) ?? '',
  phone: profile?.phone ?? '',
  location: profile?.location ?? '',
  bio: profile?.bio ?? '',
});

export function SettingsForm() {
  const { user, profile } = useAuth();
  const update = useUpdateProfile();
  const { values, errors, setField, setErrors, setValues } = useForm<SettingsInput>(fromProfile(profile));
  const loadedFor = useRef<string | null>(profile ? profile.id : null);

  useEffect(() => {
    if (profile && loadedFor.current !== profile.id) {
      loadedFor.current = profile.id;
      setValues(fromProfile(profile));
    }
  }, [profile, setValues]);

  // Verifying a number (beside this form) stores it in E.164: show that, so saving keeps it verified.
  const verifiedPhone = profile?.phone_verified ? profile.phone : null;
  useEffect(() => {
    if (verifiedPhone) setField('phone', verifiedPhone);
  }, [verifiedPhone, setField]);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validate<keyof SettingsInput>(settingsInputSchema, values);
    setErrors(found);
    if (Object.keys(found).length) return;
    try {
      const saved = await update.mutateAsync(values);
      setValues(fromProfile(saved));
      toast({ title: 'Settings updated', description: 'Your account settings have been updated successfully.', variant: 'success' });
    } catch (error) {
      if (error instanceof ApiError && Object.keys(error.fields).length) setErrors(error.fields);
      toast({
        title: 'Failed to update settings',
        description: 'An error occurred while updating your settings. Please try again.',
        variant: 'error',
      });
    }
  };

  const field = (key: keyof SettingsInput) => ({
    value: values[key],
    onChange: (event: { target: { value: string } }) => setField(key, event.target.value),
    error: errors[key],
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5">
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="First name" autoComplete="given-name" {...field('first_name')} />
        <TextField label="Last name" autoComplete="family-name" {...field('last_name')} />
      </div>
      <TextField label="Display name" hint="Shown on your profile and tasks instead of your full name." {...field('display_name')} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="Phone" type="tel" autoComplete="tel" {...field('phone')} />
        <TextField label="Location" autoComplete="address-level2" placeholder="e.g. Fitzroy, VIC" {...field('location')} />
      </div>
      <TextAreaField label="Bio" {...field('bio')} />
      <dl className="grid gap-4 rounded-xl bg-slate-50 p-4 text-sm sm:grid-cols-2">
        <div>
          <dt className="font-medium text-slate-500">Email</dt>
          <dd className="mt-1 break-all text-slate-900">{user?.email}</dd>
        </div>
        <div>
          <dt className="font-medium text-slate-500">Member since</dt>
          <dd className="mt-1 text-slate-900">{formatMemberSince(profile?.member_since ?? user?.created_at)}</dd>
        </div>
      </dl>
      <Button type="submit" loading={update.isPending}>
        Save changes
      </Button>
    </form>
  );
}
