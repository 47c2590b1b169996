import { useState, type FormEvent, type Ref } from 'react';

import { Button } from '@/components/ui/button';
import { inputClasses } from '@/components/ui/field';
import { useAskQuestion } from '@/features/questions/api/ask-question';
import { questionInputSchema } from '@/features/questions/api/question-input';
import { errorMessage } from '@/lib/http';

/** A public question to the poster; `ref` is the text area, which "Ask a question" focuses. */
export function AskQuestionForm({ taskId, ref }: { taskId: string; ref?: Ref<HTMLTextAreaElement> }) {
  const [body, setBody] = useState('');
  const [error, setError] = useState<string>();
  const ask = useAskQuestion(taskId);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = questionInputSchema.safeParse({ body });
    if (!parsed.success) return setError(parsed.error.issues[0].message);
    ask.mutate(parsed.data.body, { onSuccess: () => setBody('') });
  };
  return (
    <form onSubmit={submit} className="mt-5 space-y-2" noValidate>
      <label htmlFor="ask-question" className="text-sm font-medium text-slate-800">
        Ask a question
      </label>
      <textarea
        id="ask-question"
        ref={ref}
        value={body}
        onChange={(e) => {
          setBody(e.target.value);
          setError(undefined);
        }}
        placeholder="Questions are public; don't share contact details."
        className={inputClasses(Boolean(error), 'min-h-20')}
      />
      {(error || ask.isError) && <p className="text-sm text-red-600">{error ?? errorMessage(ask.error, 'Could not post your question.')}</p>}
      <Button type="submit" size="sm" loading={ask.isPending}>
        Post question
      </Button>
    </form>
  );
}
