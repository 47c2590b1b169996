import { Link } from 'react-router';

import { ContentPage } from '@/components/layouts/content-page';
import { LEGAL_DATE } from '@/features/info/components/terms-page';

export function PrivacyPage() {
  return (
    <ContentPage title="Privacy Policy" eyebrow="Legal" updated={LEGAL_DATE} intro="What we collect, why we collect it and the choices you have.">
      <h2>Information we collect</h2>
      <ul>
        <li><strong>Account details:</strong> name, email address, password (stored only as a secure hash), and optionally your company name, phone, location, bio, skills and profile picture.</li>
        <li><strong>Marketplace activity:</strong> tasks you post, offers, questions, messages and reviews.</li>
        <li><strong>Payments:</strong> amounts and status. Card details are handled by our payment provider and never stored by Taskhub.</li>
        <li><strong>Technical data:</strong> basic logs needed to keep the service secure and working.</li>
      </ul>
      <h2>How we use it</h2>
      <p>To run the marketplace, process payments, send you account and task emails, keep the community safe, and improve Taskhub. We do not sell your personal information.</p>
      <h2>What others can see</h2>
      <p>Your public profile shows your name, picture, location, bio, skills, ratings and reviews. Your email address and phone number are never shown publicly. Offer amounts are visible only to the poster and the tasker who made the offer.</p>
      <h2>Sharing</h2>
      <p>We share information only with service providers that help us operate (such as payments, email and hosting), when required by law, or to protect members from harm.</p>
      <h2>Your choices</h2>
      <ul>
        <li>Update your details at any time in <Link to="/settings">Account Settings</Link>.</li>
        <li>Ask for a copy of your data, or for your account to be deleted, through our <Link to="/contact">contact form</Link>.</li>
        <li>Manage cookies as described in our <Link to="/cookies">Cookie Policy</Link>.</li>
      </ul>
      <h2>Security and retention</h2>
      <p>We use encryption in transit, hashed passwords and short-lived access tokens. We keep data only as long as needed for the purposes above or as required by law.</p>
    </ContentPage>
  );
}
