import { ContentPage } from '@/components/layouts/content-page';
import { LEGAL_DATE } from '@/features/info/components/terms-page';

export function CookiesPage() {
  return (
    <ContentPage title="Cookie Policy" eyebrow="Legal" updated={LEGAL_DATE} intro="How Taskhub uses cookies and similar browser storage.">
      <h2>What we store</h2>
      <p>Taskhub keeps the minimum in your browser needed to work:</p>
      <ul>
        <li><strong>Session storage:</strong> your sign-in session (access and refresh tokens) is kept in your browser's local storage so you stay signed in between visits. Signing out removes it.</li>
        <li><strong>Preferences:</strong> small settings, such as a profile picture chosen during sign-up that is waiting to be uploaded.</li>
        <li><strong>Payment provider:</strong> during checkout our payment provider may set its own cookies to prevent fraud.</li>
      </ul>
      <h2>What we don't do</h2>
      <p>We don't use advertising cookies and we don't sell browsing data.</p>
      <h2>Your choices</h2>
      <p>You can clear cookies and site data in your browser settings at any time. If you block storage entirely, you will need to sign in on each visit.</p>
    </ContentPage>
  );
}
