import type { FormEvent } from 'react';

import { Button } from '@/components/ui/button';
import { TextAreaField, TextField } from '@/components/ui/field';
import { contactInputSchema, useSendContactMessage, type ContactInput } from '@/features/contact/api/send-contact-message';
import { errorMessage } from '@/lib/http';
import { toast } from '@/lib/toast';
import { useForm } from '@/lib/use-form';
import { validate } from '@/lib/validation';

const empty: ContactInput = { name: '', email: '', subject: '', message: '' };

export function ContactForm() {
  const send = useSendContactMessage();
  const { values, errors, setField, setErrors, reset } = useForm<ContactInput>(empty);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validate<keyof ContactInput>(contactInputSchema, values);
    setErrors(found);
    if (Object.keys(found).length) return;
    try {
      await send.mutateAsync(values);
      toast({ title: 'Message sent', description: "We'll get back to you as soon as possible.", variant: 'success' });
      reset();
    } catch (error) {
      toast({ title: 'Error', description: errorMessage(error, 'Something went wrong. Please try again.'), variant: 'error' });
    }
  };

  const field = (key: keyof ContactInput) => ({
    name: key,
    required: true,
    value: values[key],
    onChange: (event: { target: { value: string } }) => setField(key, event.target.value),
    error: errors[key],
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4 rounded-2xl bg-white p-6 ring-1 ring-slate-200">
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="Name" autoComplete="name" {...field('name')} />
        <TextField label="Email" type="email" autoComplete="email" {...field('email')} />
      </div>
      <TextField label="Subject" {...field('subject')} />
      <TextAreaField label="Message" rows={6} {...field('message')} />
      <Button type="submit" loading={send.isPending}>
        Send message
      </Button>
    </form>
  );
}
