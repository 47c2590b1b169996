import { AnimatePresence, m } from 'framer-motion';
import { forwardRef, useState } from 'react';
import { Link, useLocation } from 'react-router';

import { RemovedText } from '@/components/moderation/removed-text';
import { ReportAction } from '@/components/moderation/report-action';
import { Avatar } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';
import { inputClasses } from '@/components/ui/field';
import { useAnswerQuestion } from '@/features/questions/api/answer-question';
import { fromLocation } from '@/lib/auth/redirect';
import { initialsOf, relativeTime, type Question } from '@/lib/marketplace';
import { lazyOnMount } from '@/lib/when-idle';

/** Only signed-in taskers ask, and the form brings zod: it loads when shown. */
const AskQuestionForm = lazyOnMount(() =>
  import('@/features/questions/components/ask-question-form').then((module) => module.AskQuestionForm),
);

function AnswerForm({ taskId, question }: { taskId: string; question: Question }) {
  const [body, setBody] = useState('');
  const answer = useAnswerQuestion(taskId);
  return (
    <form
      className="mt-2 flex gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        if (body.trim()) answer.mutate({ questionId: question.id, body: body.trim() }, { onSuccess: () => setBody('') });
      }}
    >
      <label className="sr-only" htmlFor={`answer-${question.id}`}>
        Your answer
      </label>
      <input id={`answer-${question.id}`} value={body} onChange={(e) => setBody(e.target.value)} placeholder="Write an answer" className={inputClasses(false)} />
      <Button type="submit" size="sm" loading={answer.isPending} className="h-auto">
        Answer
      </Button>
    </form>
  );
}

/** Public questions and the poster's answers; new questions arrive live. */
export const QuestionsSection = forwardRef<HTMLTextAreaElement, { taskId: string; questions: Question[]; userId: string | null; isPoster: boolean }>(
  function QuestionsSection({ taskId, questions, userId, isPoster }, ref) {
    const location = useLocation();
    return (
      <section aria-labelledby="questions-heading" className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
        <h2 id="questions-heading" className="text-lg font-semibold text-slate-900">
          Questions <span className="text-slate-500">({questions.length})</span>
        </h2>
        {!questions.length && <p className="mt-3 text-sm text-slate-600">No questions yet.</p>}
        <ul className="mt-4 space-y-4">
          <AnimatePresence initial={false}>
            {questions.map((q) => (
              <m.li key={q.id} layout initial={{ opacity: 0, y: 8 }} animate={{ opacity: 1, y: 0 }} className="flex gap-3">
                <Avatar src={q.asker.avatar_url} initials={initialsOf(q.asker.name)} alt="" size="sm" />
                <div className="min-w-0 flex-1">
                  <p className="text-sm">
                    <span className="font-semibold text-slate-900">{q.asker.name}</span>{' '}
                    <span className="text-slate-500">· {relativeTime(q.created_at)}</span>
                    {!q.removed && q.asker.id !== userId && <ReportAction target={{ type: 'question', id: q.id }} />}
                  </p>
                  <p className="text-sm text-slate-800">{q.removed ? <RemovedText text={q.body} /> : q.body}</p>
                  {q.answer ? (
                    <p className="mt-2 rounded-lg bg-slate-50 p-3 text-sm text-slate-800">
                      <span className="font-semibold">Poster's answer: </span>
                      {q.answer}
                    </p>
                  ) : isPoster ? (
                    <AnswerForm taskId={taskId} question={q} />
                  ) : null}
                </div>
              </m.li>
            ))}
          </AnimatePresence>
        </ul>
        {!isPoster &&
          (userId ? (
            <AskQuestionForm ref={ref} taskId={taskId} />
          ) : (
            <p className="mt-4 text-sm text-slate-600">
              <Link to="/login" state={fromLocation(location)} className="font-semibold text-brand-700 hover:underline">
                Sign in
              </Link>{' '}
              to ask the poster a question.
            </p>
          ))}
      </section>
    );
  },
);
