import { ContactForm } from '@/features/contact/components/contact-form';
import { ContactPage } from '@/features/info/components/contact-page';

export function ContactRoute() {
  return <ContactPage form={<ContactForm />} />;
}
