import { Link } from 'react-router';

import { ContentPage } from '@/components/layouts/content-page';

export function SafetyPage() {
  return (
    <ContentPage title="Safety Tips" eyebrow="Stay safe" intro="Practical advice for posters and taskers before, during and after a task.">
      <h2>Before the task</h2>
      <ul>
        <li>Keep all communication and payment on Taskhub. Never pay or accept payment in cash or by bank transfer outside the platform.</li>
        <li>Check the other person's profile: reviews, completed tasks and verification badges.</li>
        <li>Agree on the scope, materials and timing in writing in the task messages.</li>
        <li>Don't share personal financial details, passwords or one-time codes with anyone.</li>
      </ul>
      <h2>During the task</h2>
      <ul>
        <li>Let a friend or family member know where you'll be and when you expect to finish.</li>
        <li>Use the right equipment and don't take on work you aren't licensed or insured to do (for example electrical or gas work).</li>
        <li>If you feel unsafe, leave. Your safety is more important than any task.</li>
      </ul>
      <h2>After the task</h2>
      <ul>
        <li>Posters: check the work before releasing payment. Taskers: request payment through Taskhub.</li>
        <li>Leave an honest review — it helps the whole community.</li>
      </ul>
      <h2>Red flags</h2>
      <ul>
        <li>Requests to move the conversation or payment off Taskhub.</li>
        <li>Offers that are far below or above every other offer without explanation.</li>
        <li>Pressure to decide immediately, or requests for unusual personal information.</li>
      </ul>
      <p>
        Report anything suspicious via the task page or <Link to="/contact">contact us</Link>. In an emergency, call 000.
      </p>
    </ContentPage>
  );
}
