import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';

import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Tabs } from '@/components/ui/tabs';
import { SkillsEditor } from '@/components/skills/skills-editor';
import type { AccountType } from '@/features/auth/api/signup';
import { useCompleteSocialSignup } from '@/features/auth/api/complete-social-sign-in';
import type { Skill } from '@/lib/auth/types';
import { ApiError, errorMessage } from '@/lib/http';
import { toast } from '@/lib/toast';

export type SocialSignup = { token: string; provider: string; email: string; name: string };

const providerNames: Record<string, string> = { google: 'Google', facebook: 'Facebook', apple: 'Apple', sandbox: 'Sandbox ID' };

/** The sign-up step after a provider vouched for a new person: customer or tasker (with skills). */
export function SocialSignupForm({ signup, initialType }: { signup: SocialSignup; initialType: AccountType }) {
  const navigate = useNavigate();
  const complete = useCompleteSocialSignup();
  const [accountType, setAccountType] = useState<AccountType>(initialType);
  const [skills, setSkills] = useState<Skill[]>([]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [terms, setTerms] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [mailedTo, setMailedTo] = useState<string | null>(null);
  const tasker = accountType === 'tasker';

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const found: Record<string, string> = {};
    if (tasker && !skills.length) found.skills = 'Please add at least one skill';
    if (!terms) found.terms = 'You must accept the terms and conditions';
    setErrors(found);
    if (Object.keys(found).length) return;
    try {
      const answer = await complete.mutateAsync({ token: signup.token, account_type: accountType, skills: tasker ? skills : [] });
      if ('confirmation_sent' in answer) {
        setMailedTo(answer.email);
        return;
      }
      toast({ title: 'Account created successfully', description: 'Welcome to Taskhub!', variant: 'success' });
      navigate(tasker ? '/tasks' : '/', { replace: true });
    } catch (error) {
      if (error instanceof ApiError && Object.keys(error.fields).length) setErrors(error.fields);
      setFailure(errorMessage(error, 'Something went wrong. Please try again.'));
    }
  };

  if (mailedTo) {
    return (
      <div role="status" className="space-y-3 text-sm text-slate-700">
        <p className="text-base font-semibold text-slate-900">Check your email</p>
        <p>
          {providerNames[signup.provider] ?? signup.provider} did not confirm that <strong>{mailedTo}</strong> is yours, so we sent a
          link to it. Open the link in this browser to finish creating your account; it works for 24 hours.
        </p>
      </div>
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5">
      <p className="rounded-lg bg-slate-50 p-3 text-sm text-slate-700">
        Signing up with {providerNames[signup.provider] ?? signup.provider} as{' '}
        <strong className="font-semibold text-slate-900">{signup.name || signup.email}</strong> ({signup.email}). Choose how you will use
        Taskhub.
      </p>
      {failure && (
        <Alert title="Signup failed">
          <p>{failure}</p>
        </Alert>
      )}
      <Tabs
        label="Account type"
        value={accountType}
        onChange={(value) => setAccountType(value as AccountType)}
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
      {tasker && <SkillsEditor skills={skills} onChange={setSkills} error={errors.skills} />}
      <div className="space-y-1">
        <label className="flex items-start gap-3 text-sm text-slate-700">
          <input
            type="checkbox"
            name="terms"
            checked={terms}
            onChange={(e) => setTerms(e.target.checked)}
            aria-invalid={errors.terms ? true : undefined}
            aria-describedby={errors.terms ? 'social-terms-error' : undefined}
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
          <p id="social-terms-error" className="text-sm text-red-600">
            {errors.terms}
          </p>
        )}
      </div>
      <Button type="submit" size="lg" className="w-full" loading={complete.isPending}>
        {tasker ? 'Create tasker account' : 'Create account'}
      </Button>
    </form>
  );
}
