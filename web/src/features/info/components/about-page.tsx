import { Link } from 'react-router';

import { ContentPage } from '@/components/layouts/content-page';

export function AboutPage() {
  return (
    <ContentPage title="About Us" eyebrow="Taskhub" intro="We help neighbours help each other — and make it easy for skilled people to earn on their own terms.">
      <h2>Our story</h2>
      <p>
        Taskhub started with a simple frustration: finding someone reliable for a small job took longer than the job
        itself. Quotes went unanswered, tradespeople were booked for weeks, and paying a stranger upfront felt risky.
        We built a place where you describe the job once, hear back from local people who want to do it, and only
        release payment when it's done.
      </p>
      <h2>What we believe</h2>
      <ul>
        <li><strong>Fair for both sides.</strong> Posting is free, offering is free, and one clear 10% service fee applies only when a task is paid.</li>
        <li><strong>Trust is earned.</strong> Verifications, reviews from real completed tasks and payment protection let people work with confidence.</li>
        <li><strong>Local matters.</strong> Every task is done by someone in your community, and the money stays there too.</li>
        <li><strong>Live and transparent.</strong> Offers, questions and status changes appear the moment they happen — no refreshing, no guessing.</li>
      </ul>
      <h2>Taskhub in numbers</h2>
      <p>More than 5M tasks posted by customers, 95% satisfaction, and taskers earning $25–45 an hour on average.</p>
      <h2>Work with us</h2>
      <p>
        We're a small team of engineers, designers and support specialists. For careers, press or partnership
        enquiries, <Link to="/contact">get in touch</Link>.
      </p>
    </ContentPage>
  );
}
