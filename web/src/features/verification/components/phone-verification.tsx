import { Smartphone } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';

import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { useStartPhoneVerification, type CodeSent } from '@/features/verification/api/start-phone-verification';
import { useVerifyPhone } from '@/features/verification/api/verify-phone';
import { useAuth } from '@/lib/auth/use-auth';
import { ApiError } from '@/lib/http';
import { toast } from '@/lib/toast';

const secondsUntil = (at: string | null) => (at ? Math.max(0, Math.ceil((new Date(at).getTime() - Date.now()) / 1000)) : 0);

/** Seconds until `at`, counting down once a second (0 once it has passed). */
function useSecondsUntil(at: string | null) {
  const [seconds, setSeconds] = useState(() => secondsUntil(at));
  useEffect(() => {
    setSeconds(secondsUntil(at));
    if (!at) return;
    const timer = window.setInterval(() => setSeconds(secondsUntil(at)), 1000);
    return () => window.clearInterval(timer);
  }, [at]);
  return seconds;
}

function problem(error: unknown, field: string): { field?: string; alert?: string } {
  if (!(error instanceof ApiError)) return { alert: 'Something went wrong. Please try again.' };
  if (error.fields[field]) return { field: error.fields[field] };
  if (error.status === 429) {
    return field === 'code'
      ? { alert: 'Too many tries with this code. Ask for a new one.' }
      : { alert: "You've asked for too many codes. Please wait a while before trying again." };
  }
  return { alert: error.message };
}

/** Verifying a mobile number: enter it, get a 6-digit code by text, enter the code. */
export function PhoneVerification() {
  const { profile } = useAuth();
  const start = useStartPhoneVerification();
  const verify = useVerifyPhone();
  const [phone, setPhone] = useState(profile?.phone ?? '');
  const [code, setCode] = useState('');
  const [sent, setSent] = useState<CodeSent | null>(null);
  const [changing, setChanging] = useState(false);
  const [errors, setErrors] = useState<{ phone?: string; code?: string; alert?: string }>({});
  const resendIn = useSecondsUntil(sent?.resend_at ?? null);

  const send = async (event?: FormEvent) => {
    event?.preventDefault();
    setErrors({});
    if (!phone.trim()) return setErrors({ phone: 'Please enter your mobile number' });
    try {
      setSent(await start.mutateAsync(phone));
      setCode('');
    } catch (error) {
      const found = problem(error, 'phone');
      setErrors(found.field ? { phone: found.field } : { alert: found.alert });
    }
  };

  const confirm = async (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    if (!/^\d{6}$/.test(code.trim())) return setErrors({ code: 'Enter the 6-digit code from the text' });
    try {
      await verify.mutateAsync(code.trim());
      setSent(null);
      setChanging(false);
      toast({ title: 'Phone verified', description: 'Your mobile number is verified.', variant: 'success' });
    } catch (error) {
      const found = problem(error, 'code');
      setErrors(found.field ? { code: found.field } : { alert: found.alert });
    }
  };

  if (profile?.phone_verified && !changing && !sent) {
    return (
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="flex items-center gap-2 text-sm text-slate-700">
          <Smartphone aria-hidden className="h-5 w-5 text-emerald-700" />
          <span>
            <span className="font-medium text-emerald-800">Mobile verified</span> · {profile.phone}
          </span>
        </p>
        <Button variant="outline" size="sm" onClick={() => setChanging(true)}>
          Change number
        </Button>
      </div>
    );
  }

  if (sent) {
    return (
      <form onSubmit={confirm} noValidate className="space-y-4">
        <p className="text-sm text-slate-700">
          We texted a 6-digit code to <span className="font-medium">{sent.phone}</span>. It expires in 10 minutes.
        </p>
        {errors.alert && <Alert>{errors.alert}</Alert>}
        <TextField
          label="Verification code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          value={code}
          onChange={(event) => setCode(event.target.value)}
          error={errors.code}
          className="max-w-[12rem] tracking-widest"
        />
        <div className="flex flex-wrap items-center gap-2">
          <Button type="submit" loading={verify.isPending}>
            Verify number
          </Button>
          <Button type="button" variant="outline" disabled={resendIn > 0 || start.isPending} onClick={() => void send()}>
            {resendIn > 0 ? `Resend code in ${resendIn}s` : 'Resend code'}
          </Button>
          <Button type="button" variant="ghost" onClick={() => setSent(null)}>
            Use a different number
          </Button>
        </div>
      </form>
    );
  }

  return (
    <form onSubmit={send} noValidate className="space-y-4">
      <p className="text-sm text-slate-600">
        A verified mobile number shows as a badge on your offers and tasks. We'll text you a code; your number is never shown to others.
      </p>
      {errors.alert && <Alert>{errors.alert}</Alert>}
      <div className="flex flex-wrap items-end gap-3">
        <TextField
          label="Mobile number"
          type="tel"
          autoComplete="tel"
          placeholder="0412 345 678"
          value={phone}
          onChange={(event) => setPhone(event.target.value)}
          error={errors.phone}
          className="min-w-[14rem]"
        />
        <Button type="submit" loading={start.isPending}>
          Send code
        </Button>
        {changing && (
          <Button type="button" variant="ghost" onClick={() => setChanging(false)}>
            Cancel
          </Button>
        )}
      </div>
    </form>
  );
}
