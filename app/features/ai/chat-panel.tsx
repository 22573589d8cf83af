// The AI Chat tab: the session's conversation as the server keeps it, a question
// form and Clear. Without JavaScript the form posts and the page comes back with the answer; with
// it the question goes to /api/ai/chat/stream and the answer is written in as it streams. Sending
// is blocked while the message is blank or a reply is pending.
import { Form, useNavigation } from '@remix-run/react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { SUGGESTED } from './ai-chat-questions.ts';
import type { Toast } from '../../platform/lib/toast.ts';
import type { ChatTurn } from './ai-conversation.server.ts';
import { inputClass } from '../../ui/form.tsx';
import { ToastView } from '../../ui/toast.tsx';
import { useReader } from '../../platform/i18n/i18n-context.tsx';
import type { Translate } from '../../platform/i18n/messages.ts';
import { apiRefusal, refusalWords } from '../../platform/i18n/api-refusal.ts';
import type { Reader } from '../../platform/i18n/refusal-words.ts';

/** The welcome; its example is a question the offline mode understands, as it is asked. */
const welcome = (t: Translate) =>
  t(
    'Hello! I can answer questions about your expenses, revenue, budgets, anomalies and predictions. Ask me, for example, "{question}"',
    {
      question: SUGGESTED.ourSpend,
    },
  );

/** A failure already worded for the reader. */
class ChatFailure extends Error {}

const BUTTON = 'rounded-md bg-blue-700 px-3 py-2 text-sm font-medium text-white hover:bg-blue-800 disabled:opacity-60';

/** Reads the answer stream: {"delta"} pieces, then {"done"} or {"error"}. */
async function streamAnswer(words: Reader, message: string, onDelta: (text: string) => void): Promise<void> {
  const { t } = words;
  const response = await fetch('/api/ai/chat/stream', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/x-ndjson' },
    body: JSON.stringify({ message }),
  });
  if (!response.ok || !response.body) {
    throw new ChatFailure(t('Chat failed: {reason}', { reason: refusalWords(words, await apiRefusal(response)) }));
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf('\n')) >= 0) {
      const event = JSON.parse(buffer.slice(0, end)) as { delta?: string; done?: boolean; error?: string };
      buffer = buffer.slice(end + 1);
      if (event.error) throw new ChatFailure(event.error);
      if (event.delta) onDelta(event.delta);
      if (event.done) return;
    }
  }
  throw new ChatFailure(t('Chat failed: the answer was cut off'));
}

export function ChatPanel({
  turns,
  cleared,
  mode,
  scopeCompany,
}: {
  turns: ChatTurn[];
  cleared: boolean;
  mode: 'model' | 'offline';
  /** The one company a user limited to it may ask about. */
  scopeCompany: string | null;
}) {
  const reader = useReader();
  const { t } = reader;
  const navigation = useNavigation();
  const [live, setLive] = useState<ChatTurn[]>([]);
  const [message, setMessage] = useState('');
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<Toast | null>(null);
  // Until hydrated the form is a plain post: a blank message is refused by `required` and the server.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const log = useRef<HTMLOListElement>(null);
  // The server's conversation replaces what this page added once it is loaded again (Clear, a post).
  useEffect(() => setLive([]), [turns]);
  useEffect(() => {
    log.current?.lastElementChild?.scrollIntoView?.({ block: 'nearest' });
  }, [live]);

  const busy = pending || navigation.state === 'submitting';
  const shown = [...turns, ...live];

  async function send(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const question = message.trim();
    if (!question || busy) return;
    const now = new Date().toISOString();
    setFailure(null);
    setPending(true);
    setMessage('');
    setLive((l) => [
      ...l,
      { type: 'user', content: question, timestamp: now },
      { type: 'assistant', content: '', timestamp: now },
    ]);
    try {
      await streamAnswer(reader, question, (delta) =>
        setLive((l) => {
          const last = l[l.length - 1];
          return [...l.slice(0, -1), { ...last, content: last.content + delta }];
        }),
      );
    } catch (error) {
      setLive((l) => l.slice(0, -2));
      setMessage(question);
      setFailure({
        type: 'error',
        title: t('Error'),
        description: error instanceof ChatFailure ? error.message : t('Chat failed: the answer could not be read'),
      });
    } finally {
      setPending(false);
    }
  }

  return (
    <div className="space-y-4">
      <ol
        ref={log}
        className="max-h-[32rem] space-y-3 overflow-y-auto rounded-lg border border-slate-200 bg-white p-4"
        aria-label={t('Conversation')}
        aria-live="polite"
        aria-busy={busy}
        data-testid="chat-log"
      >
        <li className="text-sm text-slate-700">
          {cleared ? t('Chat cleared. Ask me about expenses, revenue, budgets, anomalies or predictions.') : welcome(t)}
        </li>
        {shown.map((turn, i) => (
          <li
            key={i}
            className={`whitespace-pre-wrap rounded-md p-3 text-sm ${turn.type === 'user' ? 'ml-8 bg-blue-50 text-slate-900' : 'mr-8 bg-slate-50 text-slate-800'}`}
            data-testid={`chat-${turn.type}`}
          >
            <span className="sr-only">{turn.type === 'user' ? t('You:') : t('Assistant:')} </span>
            {turn.content ? (
              // The conversation as stored, each answer in the words it was given in.
              <span translate="no">{turn.content}</span>
            ) : busy && i === shown.length - 1 ? (
              t('Thinking…')
            ) : (
              ''
            )}
          </li>
        ))}
      </ol>
      <Form method="post" className="space-y-2" aria-label={t('Ask a question')} onSubmit={send}>
        <input type="hidden" name="intent" value="chat" />
        <label htmlFor="chat-message" className="block text-sm font-medium text-slate-700">
          {t('Your question')}
        </label>
        <textarea
          id="chat-message"
          name="message"
          required
          rows={2}
          maxLength={2000}
          className={inputClass}
          placeholder={t('Ask about expenses, budgets, anomalies or predictions')}
          value={message}
          onChange={(e) => setMessage(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              e.currentTarget.form?.requestSubmit();
            }
          }}
        />
        <div className="flex gap-2">
          <button type="submit" className={BUTTON} disabled={busy || (hydrated && !message.trim())}>
            {busy ? t('Sending…') : t('Send')}
          </button>
          <button
            type="submit"
            form="chat-clear"
            name="intent"
            value="clear"
            className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-800 hover:bg-slate-50 disabled:opacity-60"
            disabled={busy}
          >
            {t('Clear')}
          </button>
        </div>
      </Form>
      <Form method="post" id="chat-clear" />
      <p className="text-xs text-slate-600">
        {mode === 'model'
          ? t('Answers are written by the language model from the books you may see; amounts are in US dollars.')
          : t('Offline mode: answers come straight from the books you may see; amounts are in US dollars.')}
        {scopeCompany ? <> {t('Only {company} is included.', { company: scopeCompany })}</> : null}
      </p>
      {failure ? <ToastView toast={failure} /> : null}
    </div>
  );
}
