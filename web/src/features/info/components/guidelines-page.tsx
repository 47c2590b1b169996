import { Link } from 'react-router';

import { ContentPage } from '@/components/layouts/content-page';
import { LEGAL_DATE } from '@/features/info/components/terms-page';

export function GuidelinesPage() {
  return (
    <ContentPage title="Community Guidelines" eyebrow="Legal" updated={LEGAL_DATE} intro="The standards every Taskhub member agrees to, so everyone can work together with confidence.">
      <h2>Be respectful</h2>
      <p>Treat others with courtesy. Harassment, discrimination, threats and hate speech are not tolerated.</p>
      <h2>Be honest</h2>
      <ul>
        <li>Describe tasks accurately, including anything that affects safety or effort.</li>
        <li>Only claim skills, licences and experience you actually have.</li>
        <li>Leave reviews that reflect what really happened.</li>
      </ul>
      <h2>Keep it on Taskhub</h2>
      <p>Communicate and pay through Taskhub. Off-platform payments are not protected and attempts to avoid fees may lead to account suspension.</p>
      <h2>Prohibited tasks</h2>
      <ul>
        <li>Anything illegal, or that requires a licence the tasker doesn't hold.</li>
        <li>Tasks involving weapons, drugs, adult services or academic cheating.</li>
        <li>Requests for personal information, account credentials or money transfers.</li>
      </ul>
      <h2>Enforcement</h2>
      <p>We may remove content, cancel tasks or suspend accounts that break these guidelines. Report problems via the task page or <Link to="/contact">contact us</Link>.</p>
    </ContentPage>
  );
}
