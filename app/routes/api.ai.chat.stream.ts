// POST /api/ai/chat/stream {message}: the AI Chat screen's question in the signed-in session's
// conversation (kept on the server), answered as a stream of newline-delimited JSON events:
// {"delta": text}… then {"done": true, "context": …} or {"error": "Chat failed: …"}. Refusals
// and bad input are plain JSON errors before the stream starts, and so is the 429 of a question
// asked while another analysis of the user's runs (one at a time, until the last event). The
// conversation is the screen's: its answers and failures are in the reader's language.
import { apiRoute, readJson } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { askInConversation, chatFailureText, StreamQuestion } from '../features/ai/ai-conversation.server.ts';
import { readerWording } from '../features/ai/wording.server.ts';
import { requestI18n } from '../features/shell/index.server.ts';
import { holdAnalysisLease } from '../features/ai/analysis-limit.server.ts';
import type { ChatStreamEvent } from '../features/ai/answers.ts';
import { fieldErrorsFromZod, invalid, isDomainError } from '../platform/errors.ts';
import { asReader } from '../platform/i18n/refusal-words.ts';

export const { loader, action, access } = apiRoute({
  POST: {
    allow: allow.to('analytics'),
    body: StreamQuestion,
    run: async ({ request, context, ctx, auth }) => {
      const parsed = StreamQuestion.safeParse(await readJson(request));
      if (!parsed.success) throw invalid(fieldErrorsFromZod(parsed.error.issues));
      const lease = await holdAnalysisLease(ctx);
      const i18n = requestI18n(request, auth);
      const encoder = new TextEncoder();
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          const send = (event: ChatStreamEvent) => controller.enqueue(encoder.encode(`${JSON.stringify(event)}\n`));
          try {
            const conversation = await askInConversation(ctx, context.config.openai, parsed.data.message, {
              onDelta: (delta) => send({ delta }),
              signal: request.signal,
              wording: readerWording(i18n),
            });
            // Released before the last event: the next question may follow it at once.
            await lease.release();
            send({ done: true, context: conversation.context });
          } catch (error) {
            await lease.release();
            if (!isDomainError(error)) console.error('AI chat stream failed:', error);
            send({ error: chatFailureText(asReader(i18n), error) });
          }
          controller.close();
        },
      });
      // no-transform: the compression middleware leaves the stream alone, so each piece is sent at once.
      return new Response(body, {
        headers: {
          'Content-Type': 'application/x-ndjson; charset=utf-8',
          'Cache-Control': 'no-store, no-transform',
          'X-Accel-Buffering': 'no',
        },
      });
    },
  },
});
