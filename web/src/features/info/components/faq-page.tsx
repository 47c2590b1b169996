import { Link } from 'react-router';

import { ContentPage } from '@/components/layouts/content-page';
import { generalFaq, posterFaq, taskerFaq } from '@/features/info/components/faq-content';
import { FaqList } from '@/features/info/components/faq-list';

export function FaqPage() {
  return (
    <ContentPage title="Frequently Asked Questions" eyebrow="FAQ" intro="Quick answers about posting tasks, making offers, payments and safety on Taskhub.">
      <h2 id="general">General</h2>
      <FaqList items={generalFaq} />
      <h2 id="posters">For posters</h2>
      <FaqList items={posterFaq} />
      <h2 id="taskers">For taskers</h2>
      <FaqList items={taskerFaq} />
      <p className="mt-10">
        Still stuck? Visit the <Link to="/help">Help Center</Link> or <Link to="/contact">contact our support team</Link>.
      </p>
    </ContentPage>
  );
}
