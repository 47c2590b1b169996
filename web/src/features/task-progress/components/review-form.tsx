import { Star } from 'lucide-react';
import { useState } from 'react';

import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { TextAreaField } from '@/components/ui/field';
import { useTaskReviews } from '@/features/task-progress/api/get-task-reviews';
import { reviewInputSchema, usePostReview } from '@/features/task-progress/api/post-review';
import { useAuth } from '@/lib/auth/use-auth';
import { errorMessage } from '@/lib/http';

/** The review form, or what the viewer already wrote: each party reviews a task once. */
export function ReviewForm({ taskId, otherName }: { taskId: string; otherName: string }) {
  const { user } = useAuth();
  const reviews = useTaskReviews(taskId);
  if (reviews.isPending) return null;
  const mine = reviews.data?.find((review) => review.reviewer_id === user?.id);
  if (mine) {
    return (
      <Alert tone="success" title="You reviewed this task">
        {mine.rating} star{mine.rating === 1 ? '' : 's'} — your review of {otherName} is posted. Reviews show once both of you have
        written one, or after 14 days.
      </Alert>
    );
  }
  return <ReviewFormFields taskId={taskId} otherName={otherName} />;
}

function ReviewFormFields({ taskId, otherName }: { taskId: string; otherName: string }) {
  const [rating, setRating] = useState(0);
  const [body, setBody] = useState('');
  const [error, setError] = useState<string>();
  const review = usePostReview(taskId);
  if (review.isSuccess) return <Alert tone="success">Thanks — your review of {otherName} is posted.</Alert>;
  return (
    <form
      noValidate
      className="space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        const parsed = reviewInputSchema.safeParse({ rating, body });
        if (!parsed.success) return setError(parsed.error.issues[0].message);
        review.mutate(parsed.data);
      }}
    >
      <h3 className="font-semibold text-slate-900">Review {otherName}</h3>
      {/* Native radios: Tab reaches the group, arrow keys change the rating. */}
      <div role="radiogroup" aria-label="Rating" className="flex gap-1">
        {[1, 2, 3, 4, 5].map((n) => (
          <label key={n} className="relative rounded p-0.5 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500">
            <input
              type="radio"
              name={`rating-${taskId}`}
              value={n}
              checked={rating === n}
              aria-label={`${n} star${n === 1 ? '' : 's'}`}
              onChange={() => {
                setRating(n);
                setError(undefined);
              }}
              className="absolute inset-0 h-full w-full cursor-pointer appearance-none rounded opacity-0"
            />
            <Star aria-hidden className={`h-7 w-7 ${n <= rating ? 'fill-amber-400 text-amber-400' : 'text-slate-300'}`} />
          </label>
        ))}
      </div>
      <TextAreaField label="Your review" value={body} onChange={(e) => { setBody(e.target.value); setError(undefined); }} />
      {(error || review.isError) && <Alert>{error ?? errorMessage(review.error, 'Your review could not be posted.')}</Alert>}
      <Button type="submit" loading={review.isPending}>
        Post review
      </Button>
    </form>
  );
}
