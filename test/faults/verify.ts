// After a fault run: the database held to the clients' journal. Every acknowledged write is
// there with its values, its audit entry and its version; a write whose answer never came is
// either wholly there or wholly absent; nothing is there that no client wrote.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.ts';
import { LOAD_TABLES, type JournalEntry, type LoadTable } from './load.ts';

type State = number | 'absent';

export interface JournalVerdict {
  /** Writes journalled, and how many were acknowledged. */
  writes: number;
  acknowledged: number;
  unknown: number;
  /** Rows whose state no sequence of the journalled writes explains (a lost or a phantom write). */
  lost: string[];
  /** Rows in the database that no client wrote. */
  unexplained: string[];
  /** Rows whose audit entries or versions do not match the writes that reached them. */
  auditProblems: string[];
}

/** Kysely's names of the load's tables. */
const TABLE_OF = { actual_expenses: 'actualExpenses', budgets: 'budgets' } as const satisfies Record<LoadTable, string>;

/** The states a row may be in after its writes: an unknown write may or may not have happened. */
function possibleStates(entries: JournalEntry[]): Set<State> {
  let states = new Set<State>(['absent']);
  for (const e of entries) {
    if (e.outcome === 'refused') continue;
    const after: State = e.op === 'delete' ? 'absent' : Math.round(e.amount! * 100);
    states = e.outcome === 'ok' ? new Set([after]) : new Set([...states, after]);
  }
  return states;
}

export async function verifyJournal(db: Kysely<Database>, journal: JournalEntry[]): Promise<JournalVerdict> {
  const verdict: JournalVerdict = {
    writes: journal.length,
    acknowledged: journal.filter((e) => e.outcome === 'ok').length,
    unknown: journal.filter((e) => e.outcome === 'unknown').length,
    lost: [],
    unexplained: [],
    auditProblems: [],
  };
  for (const table of Object.keys(LOAD_TABLES) as LoadTable[]) {
    const found = await verifyTable(
      db,
      table,
      journal.filter((e) => e.table === table),
    );
    verdict.lost.push(...found.lost);
    verdict.unexplained.push(...found.unexplained);
    verdict.auditProblems.push(...found.auditProblems);
  }
  return verdict;
}

/** One table's rows held to its writes (a key's writes are all to one table). */
async function verifyTable(db: Kysely<Database>, table: LoadTable, journal: JournalEntry[]) {
  const byKey = new Map<string, JournalEntry[]>();
  for (const e of journal) byKey.set(e.key, [...(byKey.get(e.key) ?? []), e]);

  const rows = await db
    .selectFrom(TABLE_OF[table])
    .select(['id', 'description', 'amountCents'])
    .where('description', 'like', 'fault-%')
    .execute();
  const stored = new Map(rows.map((r) => [r.description!, r]));

  const lost: string[] = [];
  for (const [key, entries] of byKey) {
    const row = stored.get(key);
    const state: State = row ? Number(row.amountCents) : 'absent';
    const states = possibleStates(entries);
    if (!states.has(state)) lost.push(`${key}: stored ${state}, expected one of ${[...states].join(', ')}`);
  }
  const unexplained = [...stored.keys()].filter((key) => !byKey.has(key));

  // Audit entries and versions, per row and action, against the writes that may have reached it.
  const ids = new Map<number, string>();
  for (const row of rows) ids.set(row.id, row.description!);
  for (const e of journal) if (e.id !== null) ids.set(e.id, e.key);
  const recordIds = [...ids.keys()];
  const counted = async (trail: 'auditLogs' | 'dataVersions') => {
    const found = new Map<string, number>();
    for (let i = 0; i < recordIds.length; i += 1000) {
      const slice = recordIds.slice(i, i + 1000);
      const counts = await db
        .selectFrom(trail)
        .select(['recordId', 'action', (eb) => eb.fn.countAll<number>().as('n')])
        .where('tableName', '=', table)
        .where('recordId', 'in', slice)
        .groupBy(['recordId', 'action'])
        .execute();
      for (const c of counts) found.set(`${c.recordId}:${c.action}`, Number(c.n));
    }
    return found;
  };
  const audit = await counted('auditLogs');
  const versions = await counted('dataVersions');

  const auditProblems: string[] = [];
  for (const [id, key] of ids) {
    const entries = (byKey.get(key) ?? []).filter((e) => e.outcome !== 'refused');
    const acked = (op: JournalEntry['op']) => entries.some((e) => e.op === op && e.outcome === 'ok');
    const n = (action: string) => audit.get(`${id}:${action}`) ?? 0;
    const problem = (text: string) => auditProblems.push(`${key} (#${id}): ${text}`);
    // A row that is there was created once and not deleted; one that is gone was deleted as
    // often as it was created (zero times when its unanswered create never happened).
    const created = n('create');
    if (stored.has(key) ? created !== 1 : created > 1) problem(`${created} create audit entries`);
    if (stored.has(key) ? n('delete') !== 0 : n('delete') !== created) problem(`${n('delete')} delete audit entries`);
    if (acked('create') && created !== 1) problem('an acknowledged create without its audit entry');
    if (acked('delete') && n('delete') !== 1) problem('an acknowledged delete without its audit entry');
    const updates = entries.filter((e) => e.op === 'update');
    const ackedUpdates = updates.filter((e) => e.outcome === 'ok').length;
    if (n('update') < ackedUpdates || n('update') > updates.length)
      problem(`${n('update')} update audit entries for ${ackedUpdates} acknowledged of ${updates.length}`);
    // Each audit entry has its version, written in the same transaction.
    for (const action of ['create', 'update', 'delete'])
      if ((versions.get(`${id}:${action}`) ?? 0) !== n(action))
        problem(`${versions.get(`${id}:${action}`) ?? 0} ${action} versions for ${n(action)} audit entries`);
  }

  const where = (key: string) => `${table} ${key}`;
  return { lost: lost.map(where), unexplained: unexplained.map(where), auditProblems: auditProblems.map(where) };
}
