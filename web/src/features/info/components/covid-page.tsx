import { Link } from 'react-router';

import { ContentPage } from '@/components/layouts/content-page';

export function CovidPage() {
  return (
    <ContentPage title="COVID-19 Information" eyebrow="Health & safety" intro="How to keep tasks safe for everyone when COVID-19 or other illnesses are circulating.">
      <h2>Stay home if you're unwell</h2>
      <p>
        If you have cold or flu symptoms, or have tested positive, don't attend a task in person. Message the other
        person through Taskhub to reschedule — cancelling an open task or rescheduling for illness will never count
        against your reviews.
      </p>
      <h2>Good hygiene on the job</h2>
      <ul>
        <li>Wash or sanitise your hands before and after the task.</li>
        <li>Open windows or work outdoors where practical, and keep a comfortable distance.</li>
        <li>Wear a mask if the other person asks or if local public-health orders require it.</li>
        <li>Bring your own tools and water where you can.</li>
      </ul>
      <h2>Contact-free options</h2>
      <p>
        Many tasks — deliveries, gardening, exterior painting — can be done without meeting in person. Mention this in
        your task description or offer, and use task messages to arrange drop-offs.
      </p>
      <h2>Follow local advice</h2>
      <p>
        Rules differ between states and change over time. Always follow the current advice of your state or territory
        health department. Questions? <Link to="/contact">Contact us</Link>.
      </p>
    </ContentPage>
  );
}
