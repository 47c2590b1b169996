import { Link } from 'react-router';

import { ContentPage } from '@/components/layouts/content-page';

export const LEGAL_DATE = 'May 1, 2023';

export function TermsPage() {
  return (
    <ContentPage title="Terms of Service" eyebrow="Legal" updated={LEGAL_DATE} intro="The agreement between you and Taskhub when you use our website and services.">
      <h2>1. Who we are</h2>
      <p>Taskhub operates an online marketplace that connects people who need tasks done ("posters") with people who perform them ("taskers"). Taskhub is not a party to the agreement between a poster and a tasker and does not employ taskers.</p>
      <h2>2. Your account</h2>
      <ul>
        <li>You must be at least 18 years old and give accurate information when you sign up.</li>
        <li>You are responsible for keeping your password secure and for everything done with your account.</li>
        <li>One person may hold one account, which can be used both to post tasks and to make offers.</li>
      </ul>
      <h2>3. Posting tasks and making offers</h2>
      <p>Posters must describe tasks honestly and lawfully, with a budget of at least $5. Taskers must only offer on tasks they are qualified, licensed and insured to perform. When a poster accepts an offer and pays, a binding agreement is formed between the poster and the tasker for that task.</p>
      <h2>4. Payments and fees</h2>
      <ul>
        <li>Posters pay the agreed amount when accepting an offer. Taskhub holds these funds until the poster releases them.</li>
        <li>A 10% service fee applies to each paid task and is deducted from the tasker's payout.</li>
        <li>Released payouts are transferred to the tasker within 3-5 business days.</li>
        <li>You must not arrange payment outside Taskhub for a task found on Taskhub.</li>
      </ul>
      <h2>5. Cancellations and refunds</h2>
      <p>Open tasks can be cancelled at any time. After assignment, a task may be cancelled by agreement, and held funds are refunded to the poster according to the progress of the work. Disputes can be raised with support before payment is released.</p>
      <h2>6. Conduct</h2>
      <p>You agree to follow our <Link to="/guidelines">Community Guidelines</Link>. We may suspend or close accounts that breach these terms or put other members at risk.</p>
      <h2>7. Liability</h2>
      <p>To the extent permitted by law, including the Australian Consumer Law, Taskhub is not liable for the quality or outcome of tasks performed by members. Nothing in these terms excludes rights you have under law that cannot be excluded.</p>
      <h2>8. Changes</h2>
      <p>We may update these terms. We'll tell you about material changes by email or on the site before they take effect.</p>
      <h2>9. Contact</h2>
      <p>Questions about these terms? <Link to="/contact">Contact us</Link>.</p>
    </ContentPage>
  );
}
