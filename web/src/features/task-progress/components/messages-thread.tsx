import { AnimatePresence, m } from 'framer-motion';
import { ImagePlus, X } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';

import { RemovedText } from '@/components/moderation/removed-text';
import { ReportAction } from '@/components/moderation/report-action';
import { Button } from '@/components/ui/button';
import { inputClasses } from '@/components/ui/field';
import { markRead, type TaskMessage, useMessages, useReadMark } from '@/features/task-progress/api/get-messages';
import { useSendMessage } from '@/features/task-progress/api/send-message';
import { MessagePhoto } from '@/features/task-progress/components/message-photo';
import { ApiError, errorMessage } from '@/lib/http';
import { relativeTime } from '@/lib/marketplace';
import type { Typing } from '@/lib/realtime/types';
import { sendTyping, useOnline, useTypingFrames } from '@/lib/realtime/use-presence';

/** A typing indicator goes away this long after the last `typing` frame (or with the message). */
const TYPING_SHOWN_MS = 5_000;

const senderOf = (msg: TaskMessage) => msg.sender?.id ?? msg.sender_id;

/** "typing…" while the other party's typing frames keep coming; gone after 5 s or with their message. */
function useOtherTyping(taskId: string, userId: string, messages: TaskMessage[]): boolean {
  const [until, setUntil] = useState(0);
  const onTyping = useCallback(
    (typing: Typing) => {
      if (typing.task_id === taskId && typing.user_id !== userId) setUntil(Date.now() + TYPING_SHOWN_MS);
    },
    [taskId, userId],
  );
  useTypingFrames(onTyping);
  const last = messages[messages.length - 1];
  const lastFromOther = last && senderOf(last) !== userId ? last.id : null;
  useEffect(() => {
    if (lastFromOther) setUntil(0);
  }, [lastFromOther]);
  useEffect(() => {
    if (!until) return;
    const timer = setTimeout(() => setUntil(0), Math.max(0, until - Date.now()));
    return () => clearTimeout(timer);
  }, [until]);
  return until > 0;
}

/** Marks the other party's newest message read while this tab shows it. */
function useMarkRead(taskId: string, userId: string, messages: TaskMessage[]) {
  const marked = useRef<string | null>(null);
  const newest = [...messages].reverse().find((msg) => senderOf(msg) !== userId)?.id ?? null;
  useEffect(() => {
    const mark = () => {
      if (!newest || document.visibilityState !== 'visible' || (marked.current && marked.current >= newest)) return;
      marked.current = newest;
      markRead(taskId, newest).catch(() => {
        marked.current = null;
      });
    };
    mark();
    document.addEventListener('visibilitychange', mark);
    return () => document.removeEventListener('visibilitychange', mark);
  }, [taskId, newest]);
}

/** "Online" while the other party has the app open anywhere, else when they were last seen (nothing when either shares no online status). */
function OnlineNote({ userId }: { userId: string | null }) {
  const status = useOnline(userId);
  if (!status || (!status.online && !status.last_seen)) return null;
  return (
    <p data-testid="online-note" className="flex items-center gap-1.5 text-xs text-slate-600">
      {status.online ? (
        <>
          <span aria-hidden className="inline-block h-2 w-2 rounded-full bg-emerald-500" />
          Online
        </>
      ) : (
        `Last seen ${relativeTime(status.last_seen ?? '')}`
      )}
    </p>
  );
}

const clock = (at: string) => new Date(at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

export function MessagesThread({ taskId, userId, otherId = null }: { taskId: string; userId: string; otherId?: string | null }) {
  const { data = [], isError, error } = useMessages(taskId, true);
  const send = useSendMessage(taskId);
  const [body, setBody] = useState('');
  const [photo, setPhoto] = useState<File | null>(null);
  const [photoProblem, setPhotoProblem] = useState<string | null>(null);
  const end = useRef<HTMLDivElement>(null);
  const otherTyping = useOtherTyping(taskId, userId, data);
  const readMark = useReadMark(taskId);
  useMarkRead(taskId, userId, data);
  // Message ids are UUIDv7: in time order as strings too.
  const seenId = readMark ? [...data].reverse().find((msg) => senderOf(msg) === userId && msg.id <= readMark.up_to)?.id : undefined;
  useEffect(() => {
    if (data.length) end.current?.scrollIntoView?.({ block: 'nearest' });
  }, [data.length]);

  return (
    <div>
      <div className="flex items-baseline justify-between gap-2">
        <h3 className="font-semibold text-slate-900">Messages</h3>
        <OnlineNote userId={otherId} />
      </div>
      <div className="mt-3 max-h-80 space-y-2 overflow-y-auto rounded-xl bg-slate-50 p-3" aria-live="polite" aria-label="Messages">
        {isError && (
          <p className="text-sm text-red-700">
            {error instanceof ApiError && error.status === 404 ? 'Messaging is not available for this task yet.' : errorMessage(error, 'Messages could not be loaded.')}
          </p>
        )}
        {!isError && !data.length && <p className="text-sm text-slate-500">No messages yet. Say hello and agree the details.</p>}
        <AnimatePresence initial={false}>
          {data.map((msg) => {
            const mine = senderOf(msg) === userId;
            return (
              <m.div key={msg.id} initial={{ opacity: 0, y: 8 }} animate={{ opacity: 1, y: 0 }} className={`flex ${mine ? 'justify-end' : 'justify-start'}`}>
                <div className={`max-w-[80%] rounded-2xl px-3 py-2 text-sm ${mine ? 'bg-brand-700 text-white' : 'bg-white text-slate-800 shadow-sm'}`}>
                  {!mine && msg.sender?.name && <p className="text-xs font-semibold">{msg.sender.name}</p>}
                  {msg.removed ? (
                    <p className="whitespace-pre-line">
                      <RemovedText text={msg.body} />
                    </p>
                  ) : (
                    msg.body && <p className="whitespace-pre-line">{msg.body}</p>
                  )}
                  {msg.photo && !msg.removed && <MessagePhoto photo={msg.photo} from={mine ? 'you' : (msg.sender?.name ?? 'the other party')} />}
                  <p className={`mt-0.5 text-[11px] ${mine ? 'text-white/90' : 'text-slate-500'}`}>{relativeTime(msg.created_at)}</p>
                  {!mine && !msg.removed && <ReportAction target={{ type: 'message', id: msg.id }} />}
                  {msg.id === seenId && readMark && <p className="mt-0.5 text-right text-[11px] text-white/90">Seen {clock(readMark.at)}</p>}
                </div>
              </m.div>
            );
          })}
        </AnimatePresence>
        {otherTyping && (
          <p className="text-sm italic text-slate-500" role="status">
            typing…
          </p>
        )}
        <div ref={end} />
      </div>
      <form
        className="mt-3 flex gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          const done = () => {
            setBody('');
            setPhoto(null);
          };
          if (photo) send.mutate({ body, file: photo }, { onSuccess: done });
          else if (body.trim()) send.mutate(body.trim(), { onSuccess: done });
        }}
      >
        <label
          htmlFor="message-photo"
          title="Attach a photo"
          className="inline-flex h-10 w-10 shrink-0 cursor-pointer items-center justify-center rounded-lg border border-slate-300 text-slate-700 focus-within:ring-2 focus-within:ring-brand-200 hover:bg-slate-50"
        >
          <ImagePlus aria-hidden className="h-5 w-5" />
          <span className="sr-only">Attach a photo</span>
          <input
            id="message-photo"
            type="file"
            accept="image/jpeg,image/png,image/gif,image/webp"
            className="sr-only"
            onChange={(event) => {
              const file = event.target.files?.[0] ?? null;
              event.target.value = '';
              const problem = file && (!file.type.startsWith('image/') ? 'Please choose an image file.' : file.size > 10 * 1024 * 1024 ? 'Photos must be 10 MB or smaller.' : null);
              setPhotoProblem(problem);
              setPhoto(problem ? null : file);
            }}
          />
        </label>
        <label htmlFor="message-body" className="sr-only">
          Message
        </label>
        <input
          id="message-body"
          value={body}
          onChange={(e) => {
            setBody(e.target.value);
            if (e.target.value.trim()) sendTyping(taskId);
          }}
          placeholder="Write a message"
          className={inputClasses(false)}
        />
        <Button type="submit" loading={send.isPending}>
          Send
        </Button>
      </form>
      {photo && (
        <p className="mt-1 flex items-center gap-2 text-sm text-slate-700">
          Photo: <span className="truncate">{photo.name}</span>
          <button type="button" onClick={() => setPhoto(null)} aria-label="Remove the photo" className="rounded p-1 hover:bg-slate-100">
            <X aria-hidden className="h-4 w-4" />
          </button>
        </p>
      )}
      {photoProblem && <p className="mt-1 text-sm text-red-600">{photoProblem}</p>}
      {send.isError && <p className="mt-1 text-sm text-red-600">{errorMessage(send.error, 'Your message could not be sent.')}</p>}
    </div>
  );
}
