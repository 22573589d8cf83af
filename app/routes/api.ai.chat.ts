// POST /api/ai/chat {message, context?, history?} → {response, context} (spec 3 §7 AI). Answers
// from the books within the asker's permissions and company scope: through the language model's
// tools when OPENAI_API_KEY is set, else offline. A model failure is a 503 'Chat failed: …'.
import { apiRoute, readJson } from '../http/api.server.ts';
import { allow } from '../http/route-access.ts';
import { answerChat } from '../services/ai-chat.server.ts';

export const { loader, action, access } = apiRoute({
  POST: { allow: allow.to('analytics'), run: async ({ request, context, ctx }) => answerChat(ctx, context.config.openai, await readJson(request), { signal: request.signal }) },
});
