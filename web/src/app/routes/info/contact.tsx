import { ContactForm } from '@/features/contact/components/contact-form';
import { ContactPage } from '@/features/info/components/contact-page';
import { useSite } from '@/lib/site';

export function ContactRoute() {
  const site = useSite();
  return <ContactPage form={<ContactForm />} site={site.data} />;
}
