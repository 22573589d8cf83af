// POST /api/ai/chat {message, context?, history?} → {response, context}. Answers
// from the books within the asker's permissions and company scope: through the language model's
// tools when OPENAI_API_KEY is set, else offline. A model failure is a 503 'Chat failed: …'.
// A question is an analysis: one at a time per user, 429 while another of theirs runs.
import { apiRoute, readJson } from '../platform/api/api.server.ts';
import { allow } from '../platform/screen/route-access.ts';
import { answerChat, ChatRequest } from '../features/ai/ai-chat.server.ts';
import { oneAnalysisAtATime } from '../features/ai/analysis-limit.server.ts';

export const { loader, action, access } = apiRoute({
  POST: {
    allow: allow.to('analytics'),
    body: ChatRequest,
    run: async ({ request, context, ctx }) => {
      const input = await readJson(request);
      return oneAnalysisAtATime(ctx, () => answerChat(ctx, context.config.openai, input, { signal: request.signal }));
    },
  },
});
