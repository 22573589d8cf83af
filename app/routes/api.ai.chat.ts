// POST /api/ai/chat {message, context?, history?} → {response, context} (spec 3 §7 AI). Answers
// from the books within the asker's permissions and company scope (offline mode; the language
// model layer of issue 17 comes on top of the same services).
import { apiRoute, readJson } from '../http/api.server.ts';
import { allow } from '../http/route-access.ts';
import { answerOffline } from '../services/ai-chat.server.ts';

export const { loader, action, access } = apiRoute({
  POST: { allow: allow.to('analytics'), run: async ({ request, ctx }) => answerOffline(ctx, await readJson(request)) },
});
