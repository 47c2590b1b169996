import type { FaqItem } from '@/features/info/components/faq-list';

export const generalFaq: FaqItem[] = [
  { q: 'What is Taskhub?', a: 'Taskhub is a marketplace for local services. People post the jobs they need done — cleaning, furniture assembly, repairs, moving, gardening and more — and local taskers make offers to do them.' },
  { q: 'How much does it cost?', a: 'Posting a task and browsing are free. When a task is paid, a 10% service fee applies. The total you see is the task amount; the fee is shown separately and comes out of the tasker’s payout.' },
  { q: 'Where does Taskhub operate?', a: 'Taskhub is available across Australia. Location suggestions and searches cover Australian suburbs and postcodes.' },
  { q: 'Can I be both a poster and a tasker?', a: 'Yes. One account can post tasks and make offers. Switch on tasker features at any time from the Become a Tasker page.' },
  { q: 'How do I contact support?', a: 'Use the form on our Contact page, which also lists our email address. We answer Monday-Friday 9am-6pm EST, usually within one business day.' },
];

export const posterFaq: FaqItem[] = [
  { q: 'How do I post a task?', a: 'Choose Post a Task, describe the job, add the location, set a budget (at least $5) and a due date, then review and post. It takes about two minutes.' },
  { q: 'How do I choose the right tasker?', a: 'Compare offers by price, message, rating, reviews, completed tasks and verification badges. Ask questions on the task before you accept.' },
  { q: 'When do I pay?', a: 'You pay when you accept an offer. Taskhub holds the money securely and only releases it to the tasker when you confirm the task is complete. Only you can release the payment.' },
  { q: 'What if something goes wrong?', a: 'Talk to your tasker through the task’s private messages first. If you can’t resolve it, contact support before releasing payment and we’ll help — held funds can be refunded under our cancellation rules.' },
  { q: 'Can I cancel a task?', a: 'You can cancel an open task at any time at no cost. Once a tasker is assigned, cancellations follow the refund rules in our Terms of Service.' },
];

export const taskerFaq: FaqItem[] = [
  { q: 'How do I start earning?', a: 'Sign up as a tasker (or switch on tasker features), add your skills and a photo, then browse open tasks and make offers.' },
  { q: 'How much can I earn?', a: 'Taskers typically earn $25–45 per hour. At the average of $35/hour, 20 hours a week comes to about $2,800 a month before the 10% service fee.' },
  { q: 'When do I get paid?', a: 'After you finish, request payment. When the poster releases it, the amount minus the 10% service fee is transferred to you. Payouts take 3-5 business days to reach your bank.' },
  { q: 'Do I need insurance or licences?', a: 'Some work, such as electrical, plumbing and gas, legally requires a licence in Australia. Only offer on tasks you are qualified and insured to do.' },
  { q: 'How do reviews work?', a: 'After a task is completed, poster and tasker review each other. Reviews are public and help you win future work.' },
];
