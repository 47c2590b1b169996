import { Link } from 'react-router';

import { ContentPage } from '@/components/layouts/content-page';

export function TrustPage() {
  return (
    <ContentPage title="Trust & Safety" eyebrow="Your safety" intro="How Taskhub protects your money, your information and you — and what you can do to stay safe.">
      <h2>Payment protection</h2>
      <p>
        When a poster accepts an offer, they pay through our card payment provider and Taskhub holds the money. It is
        only released to the tasker when the poster confirms the task is complete. Only the poster can release payment.
        Payments made outside Taskhub are not protected.
      </p>
      <h2>Verification</h2>
      <ul>
        <li>Every account confirms its email address before it can sign in.</li>
        <li>Profiles show which checks a member has passed: email, phone, identity and payment method.</li>
        <li>Taskers who pass our checks carry the <strong>Taskhub Verified</strong> badge.</li>
      </ul>
      <h2>Reviews you can rely on</h2>
      <p>Only the poster and the assigned tasker of a completed task can review each other, and each only once.</p>
      <h2>Your data</h2>
      <p>
        Passwords are stored with modern one-way hashing, sessions expire quickly and are refreshed securely, and your
        phone number and email are never shown on your public profile. Read our <Link to="/privacy">Privacy Policy</Link>.
      </p>
      <h2>Reporting a problem</h2>
      <p>
        If something doesn't feel right — a suspicious offer, a request to pay outside Taskhub, or unsafe behaviour —
        report it from the task page or <Link to="/contact">contact us</Link>. In an emergency, call 000 first.
      </p>
      <p>
        See also our <Link to="/safety">safety tips</Link> and <Link to="/guidelines">Community Guidelines</Link>.
      </p>
    </ContentPage>
  );
}
