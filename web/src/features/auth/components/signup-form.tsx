import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';

import { Button } from '@/components/ui/button';
import { TextAreaField, TextField } from '@/components/ui/field';
import { PasswordField } from '@/components/ui/password-field';
import { Tabs } from '@/components/ui/tabs';
import { signupInputSchema, toSignupRequest, useSignup, type AccountType, type SignupInput } from '@/features/auth/api/signup';
import { AvatarPicker } from '@/features/auth/components/avatar-picker';
import { SkillsEditor } from '@/components/skills/skills-editor';
import { SocialButtons } from '@/features/auth/components/social-buttons';
import { ApiError, errorMessage } from '@/lib/http';
import { toast } from '@/lib/toast';
import { useForm } from '@/lib/use-form';
import { getInitials } from '@/lib/user-names';
import { validate } from '@/lib/validation';

type Field = Extract<keyof SignupInput, string>;

const initial: SignupInput = {
  account_type: 'customer',
  first_name: '',
  last_name: '',
  company_name: '',
  email: '',
  password: '',
  confirm_password: '',
  location: '',
  phone: '',
  bio: '',
  skills: [],
  terms: false,
};

export function SignupForm({ initialType = 'customer' }: { initialType?: AccountType }) {
  const navigate = useNavigate();
  const signup = useSignup();
  const { values, errors, setField, setErrors } = useForm<SignupInput>({ ...initial, account_type: initialType });
  const [avatarUrl, setAvatarUrl] = useState<string | null>(null);
  const tasker = values.account_type === 'tasker';

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validate<Field>(signupInputSchema, values);
    setErrors(found);
    if (Object.keys(found).length) {
      const first = Object.keys(found)[0];
      document.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
      return;
    }
    try {
      await signup.mutateAsync({ ...toSignupRequest(values), avatar_url: avatarUrl ?? undefined });
      toast({
        title: 'Account created successfully',
        description: 'Welcome to Taskhub! Please check your email to verify your account.',
        variant: 'success',
        duration: 8000,
      });
      navigate('/login', { state: { signedUpEmail: values.email.trim() } });
    } catch (error) {
      if (error instanceof ApiError && Object.keys(error.fields).length) setErrors(error.fields as typeof errors);
      toast({
        title: 'Signup failed',
        description: errorMessage(error, 'Something went wrong. Please try again.'),
        variant: 'error',
      });
    }
  };

  const text = (key: Field) => ({
    name: key,
    value: String(values[key] ?? ''),
    onChange: (event: { target: { value: string } }) => setField(key, event.target.value),
    error: errors[key],
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5">
      <Tabs
        label="Account type"
        value={values.account_type}
        onChange={(value) => setField('account_type', value)}
        items={[
          { value: 'customer', label: 'I need help' },
          { value: 'tasker', label: 'I want to provide services' },
        ]}
      >
        <p className="text-sm text-slate-600">
          {tasker
            ? 'Create a tasker account to browse local tasks, make offers and get paid securely through Taskhub.'
            : 'Create an account to post tasks for free and choose from offers by trusted local taskers.'}
        </p>
      </Tabs>

      <AvatarPicker onChange={setAvatarUrl} initials={getInitials(values, values.email)} />

      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="First name" autoComplete="given-name" {...text('first_name')} />
        <TextField label="Last name" autoComplete="family-name" {...text('last_name')} />
      </div>
      <TextField
        label={tasker ? 'Business or trading name' : 'Company name'}
        optional
        autoComplete="organization"
        {...text('company_name')}
      />
      <TextField label="Email" type="email" autoComplete="email" {...text('email')} />
      <div className="grid gap-4 sm:grid-cols-2">
        <PasswordField label="Password" autoComplete="new-password" hint="At least 6 characters." {...text('password')} />
        <PasswordField label="Confirm password" autoComplete="new-password" {...text('confirm_password')} />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label={tasker ? 'Where you work' : 'Location'} optional autoComplete="address-level2" placeholder="e.g. Newtown, NSW" {...text('location')} />
        <TextField label="Phone" optional type="tel" autoComplete="tel" {...text('phone')} />
      </div>
      <TextAreaField
        label={tasker ? 'About your services' : 'About you'}
        optional
        placeholder={tasker ? 'Your experience, tools and the areas you cover.' : 'A line or two so taskers know who they are helping.'}
        {...text('bio')}
      />

      {tasker && (
        <div>
          <SkillsEditor skills={values.skills} onChange={(skills) => setField('skills', skills)} error={errors.skills} />
          <input type="hidden" name="skills" />
        </div>
      )}

      <div className="space-y-1">
        <label className="flex items-start gap-3 text-sm text-slate-700">
          <input
            type="checkbox"
            name="terms"
            checked={values.terms}
            onChange={(e) => setField('terms', e.target.checked)}
            aria-invalid={errors.terms ? true : undefined}
            aria-describedby={errors.terms ? 'terms-error' : undefined}
            className="mt-0.5 h-5 w-5 rounded border-slate-300 accent-brand-700"
          />
          <span>
            I agree to the{' '}
            <Link to="/terms" className="font-medium text-brand-700 underline" target="_blank">
              Terms of Service
            </Link>{' '}
            and{' '}
            <Link to="/privacy" className="font-medium text-brand-700 underline" target="_blank">
              Privacy Policy
            </Link>
          </span>
        </label>
        {errors.terms && (
          <p id="terms-error" className="text-sm text-red-600">
            {errors.terms}
          </p>
        )}
      </div>

      <Button type="submit" size="lg" className="w-full" loading={signup.isPending}>
        {tasker ? 'Create tasker account' : 'Create account'}
      </Button>
      <SocialButtons />
      <p className="text-center text-sm text-slate-600">
        Already have an account?{' '}
        <Link to="/login" className="font-semibold text-brand-700 hover:underline">
          Sign in
        </Link>
      </p>
    </form>
  );
}
