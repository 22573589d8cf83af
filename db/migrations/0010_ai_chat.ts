// The AI chat's conversations: the screen keeps each sign-in session's conversation on
// the server, so the chat works as a plain form post and survives a reload; 'Clear' deletes it,
// and the nightly ai-insights job drops the conversations of sessions that have ended. Insights
// written by the language model are marked as narrated.
import { sql, type Kysely } from 'kysely';
import type { DialectHelpers } from '../dialect.ts';

export async function up(db: Kysely<any>, d: DialectHelpers): Promise<void> {
  await db.schema
    .createTable('ai_chat_messages')
    .addColumn('id', 'integer', d.id)
    .addColumn('session_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('type', 'varchar(10)', (c) => c.notNull().check(sql.raw(`type in ('user', 'assistant')`)))
    .addColumn('content', 'text', (c) => c.notNull())
    // The conversation's context after this message (the company and topic follow-ups refer to).
    .addColumn('company_id', 'integer', (c) => c.references('companies.id').onDelete('set null'))
    .addColumn('topic', 'varchar(40)')
    .addColumn('created_at', d.instant, (c) => c.notNull().defaultTo(d.now))
    .execute();
  await db.schema
    .createIndex('ai_chat_messages_session_idx')
    .on('ai_chat_messages')
    .columns(['session_id', 'id'])
    .execute();
  await db.schema
    .alterTable('ai_insights')
    .addColumn('narrated', d.boolean, (c) => c.notNull().defaultTo(d.false))
    .execute();
}
