import { useMutation } from '@tanstack/react-query';
import { z } from '@/lib/zod';

import { request } from '@/lib/http';
import { EMAIL_PATTERN } from '@/lib/validation';

export const REPORT_REASONS = [
  'Spam or scam',
  'Inappropriate or offensive content',
  'Asking for payment outside Taskhub',
  'Illegal or unsafe task',
  'Something else',
] as const;

export const reportInputSchema = z.object({
  reason: z.enum(REPORT_REASONS, { message: 'Please choose a reason' }),
  details: z.string().trim().min(10, 'Please tell us a little more (at least 10 characters)').max(2000),
  name: z.string().trim().min(1, 'Name is required'),
  email: z.string().trim().min(1, 'Email is required').regex(EMAIL_PATTERN, 'Email is invalid'),
});
export type ReportInput = z.infer<typeof reportInputSchema>;

/** Reports reach the trust and safety team through the contact endpoint, tagged with the task. */
export function reportTask(taskId: string, taskTitle: string, input: ReportInput) {
  return request<void>('/api/contact', {
    method: 'POST',
    body: {
      name: input.name,
      email: input.email,
      subject: `Report: task ${taskId} — ${input.reason}`,
      message: `Task: ${taskTitle}\nLink: ${window.location.origin}/task/${taskId}\nReason: ${input.reason}\n\n${input.details}`,
    },
  });
}

export function useReportTask(taskId: string, taskTitle: string) {
  return useMutation({ mutationFn: (input: ReportInput) => reportTask(taskId, taskTitle, input) });
}
