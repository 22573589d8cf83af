// The fuzz suite: every write route (API and screen forms, see test/fuzz/targets.ts) and the
// list GETs driven with generated hostile requests over real HTTP, on every test dialect, with
// the invariants of test/fuzz/invariants.ts checked after each case. Every /api write is also
// sent bodies carrying a field no route declares: each must be a 400 naming it, changing nothing.
//
// Quick by default (a fixed seed, FUZZ_RUNS = 8 cases per target, half as many for the scoped
// editor's second pass); `npm run test:fuzz` runs 1000 per target. Replay a failure with the seed (and path) it prints:
//   FUZZ_SEED=… FUZZ_RUNS=… [FUZZ_PATH=…] npx vitest run test/fuzz.test.ts -t '<test name>'
// FUZZ_STATS=1 prints the status codes seen per target.
import fc from 'fast-check';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIALECTS, OWNER_PASSWORD } from './database.ts';
import { type TestClient, useTestServer } from './server.ts';
import { createTestUser, TEST_PASSWORD } from './users.ts';
import { Ref, type FuzzCase } from './fuzz/arbitraries.ts';
import {
  BODY_LIMIT_BYTES,
  changedCounts,
  countsAndViolations,
  KNOWN,
  leakIn,
  prototypePolluted,
  snapshot,
} from './fuzz/invariants.ts';
import { SELF, TARGETS, VICTIMS, type Actor, type FuzzTarget } from './fuzz/targets.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const RUNS = Number(process.env.FUZZ_RUNS ?? 8);
const PATH = process.env.FUZZ_PATH;
const STATS = process.env.FUZZ_STATS === '1';
const FOREIGN_ORIGIN = 'http://evil.example';
const LOGIN_EMAIL = 'login-user@example.com';

/** JSON for messages: long strings shortened, Refs named. */
function brief(value: unknown): string {
  return JSON.stringify(value, (_key, v) => {
    if (typeof v === 'string' && v.length > 120) return `<${v.length} chars: ${JSON.stringify(v.slice(0, 40))}…>`;
    if (v instanceof Ref) return v.toString();
    return v;
  });
}

/** Fields no /api route declares, in the spellings a client might try. */
const UNKNOWN_FIELDS = ['expires_at', 'is_active', 'created_by', 'passwordHash', 'unknownField', '__proto__'];

/**
 * The target's cases as same-origin JSON objects (its generated body when that is one, else {})
 * with one field no route declares; a real row for `:id`.
 */
function withUnknownField(target: FuzzTarget): fc.Arbitrary<FuzzCase & { unknownField: string }> {
  return fc
    .tuple(
      target.body,
      fc.constantFrom(...UNKNOWN_FIELDS),
      fc.constantFrom<unknown>(false, 1, 'x', null, {}, '2030-01-01T00:00:00Z'),
    )
    .map(([c, key, value]) => {
      const generated = c.api?.type === 'json' ? c.api.value : undefined;
      const usable =
        generated !== null &&
        typeof generated === 'object' &&
        !Array.isArray(generated) &&
        JSON.stringify(generated).length < 100_000;
      const body: Record<string, unknown> = usable ? { ...(generated as Record<string, unknown>) } : {};
      Object.defineProperty(body, key, { value, enumerable: true, writable: true, configurable: true });
      const id = c.id && 'real' in c.id ? c.id : { real: 0 };
      return { id, origin: 'same' as const, api: { type: 'json' as const, value: body }, unknownField: key };
    });
}

describe.each(TEST_DIALECTS)('fuzz on %s', (dialect) => {
  const { server, db, client } = useTestServer(dialect, {
    env: { API_RATE_LIMIT_PER_MINUTE: '10000000', API_RATE_LIMIT_PER_HOUR: '100000000' },
  });
  const anyDb = () => db() as unknown as Kysely<any>;
  const clients = {} as Record<Exclude<Actor, 'anonymous'>, TestClient>;
  const ids = {} as Record<Exclude<Actor, 'anonymous'>, number>;
  let pwHash: string;
  let victimSerial = 0;
  const stats = new Map<string, Map<number, number>>();

  async function signIn(id: number): Promise<TestClient> {
    const row = await db().selectFrom('users').select('email').where('id', '=', id).executeTakeFirstOrThrow();
    const c = client();
    await c.login(row.email, id === ids.owner ? OWNER_PASSWORD : TEST_PASSWORD);
    return c;
  }

  async function ensureVictims() {
    const victims = await db().selectFrom('users').select('id').where('email', 'like', 'victim-%').execute();
    for (let i = victims.length; i < 3; i += 1) {
      victimSerial += 1;
      await createTestUser(db(), {
        role: victimSerial % 2 ? 'viewer' : 'editor',
        email: `victim-${dialect}-${Date.now().toString(36)}-${victimSerial}@example.com`,
      });
    }
  }

  beforeAll(async () => {
    ids.owner = (
      await db().selectFrom('users').select('id').where('email', '=', 'owner@example.com').executeTakeFirstOrThrow()
    ).id;
    const vult = (await db().selectFrom('companies').select('id').where('name', '=', 'Vult').executeTakeFirstOrThrow())
      .id;
    ids.editor = (await createTestUser(db(), { role: 'editor', companyId: vult })).id;
    const pw = await createTestUser(db(), { role: 'viewer' });
    ids.pwuser = pw.id;
    pwHash = (await db().selectFrom('users').select('passwordHash').where('id', '=', pw.id).executeTakeFirstOrThrow())
      .passwordHash;
    await createTestUser(db(), { role: 'viewer', email: LOGIN_EMAIL });
    await ensureVictims();
    // Open system errors for the Resolve targets.
    await db()
      .insertInto('systemErrors')
      .values(
        Array.from({ length: 30 }, (_, i) => ({
          errorType: 'FuzzError',
          message: `fuzz ${i}`,
          endpoint: `/fuzz/${i}`,
          method: 'GET',
          fingerprint: `fuzz-${dialect}-${i}`,
          firstOccurrence: new Date().toISOString(),
          lastOccurrence: new Date().toISOString(),
        })),
      )
      .execute();
    clients.owner = await signIn(ids.owner);
    clients.editor = await signIn(ids.editor);
    clients.pwuser = await signIn(ids.pwuser);
    // The settings row exists before the fuzzing (its first write also creates it: two entries).
    for (const c of Object.values(clients)) expect((await c.get('/api/user-settings')).status).toBe(200);
  });

  afterAll(() => {
    if (!STATS) return;
    for (const [name, counts] of stats)
      console.log(
        `${dialect} ${name}: ${[...counts]
          .sort(([a], [b]) => a - b)
          .map(([s, n]) => `${s}×${n}`)
          .join(' ')}`,
      );
  });

  /** Real ids for `:id` and form ids, read when the case runs. */
  async function idsFor(table: string, actor: Actor): Promise<number[]> {
    if (table === SELF) return actor === 'anonymous' ? [] : [ids[actor]];
    if (table === VICTIMS)
      return (
        await db().selectFrom('users').select('id').where('email', 'like', 'victim-%').orderBy('id').execute()
      ).map((r) => r.id);
    return (await anyDb().selectFrom(table).select('id').orderBy('id').execute()).map((r: { id: number }) => r.id);
  }

  async function resolver(target: FuzzTarget, actor: Actor) {
    const cache = new Map<string, number[]>();
    const pool = async (table: string) => {
      if (!cache.has(table)) cache.set(table, await idsFor(table, actor));
      return cache.get(table)!;
    };
    const pick = async (table: string, n: number) => {
      const rows = await pool(table);
      return rows.length ? rows[n % rows.length] : 999_999;
    };
    const deep = async (value: unknown): Promise<unknown> => {
      if (value instanceof Ref) return pick(value.table, value.pick);
      if (Array.isArray(value)) return Promise.all(value.map(deep));
      if (value && typeof value === 'object') {
        const out: Record<string, unknown> = {};
        for (const key of Object.keys(value))
          Object.defineProperty(out, key, {
            value: await deep((value as Record<string, unknown>)[key]),
            enumerable: true,
            writable: true,
            configurable: true,
          });
        return out;
      }
      return value;
    };
    return { pick, deep, table: target.idFrom };
  }

  const formText = (v: unknown): string =>
    v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);

  async function buildRequest(
    target: FuzzTarget,
    actor: Actor,
    c: FuzzCase,
  ): Promise<{ url: string; init: RequestInit }> {
    const r = await resolver(target, actor);
    let url = target.path;
    if (url.includes(':id')) {
      const id = c.id ?? { real: 0 };
      url = url.replace(':id', 'real' in id ? String(await r.pick(target.idFrom!, id.real)) : id.odd);
    }
    if (c.query) url += `?${c.query}`;
    const headers = new Headers();
    if (c.origin === 'same') headers.set('Origin', server().baseUrl);
    if (c.origin === 'foreign') headers.set('Origin', FOREIGN_ORIGIN);
    let body: string | undefined;
    if (c.api?.type === 'json') {
      headers.set('Content-Type', 'application/json');
      body = JSON.stringify(await r.deep(c.api.value));
    } else if (c.api?.type === 'raw') {
      if (c.api.contentType) headers.set('Content-Type', c.api.contentType);
      body = c.api.text;
    } else if (c.form) {
      headers.set('Content-Type', 'application/x-www-form-urlencoded');
      const params = new URLSearchParams();
      for (const [name, value] of c.form) {
        const resolved = await r.deep(value);
        params.append(name, formText(resolved));
      }
      body = params.toString();
    }
    return { url, init: { method: target.method, headers, body } };
  }

  async function runCase(target: FuzzTarget, actor: Actor, c: FuzzCase & { unknownField?: string }, name: string) {
    if (target.signIn) await db().deleteFrom('loginAttempts').execute();
    if (target.idFrom === VICTIMS) await ensureVictims();
    const sender = actor === 'anonymous' ? client() : clients[actor];
    const { url, init } = await buildRequest(target, actor, c);
    const before = await snapshot(anyDb());
    // The case decides the Origin header itself (none, ours or a foreign one).
    const response = await sender.request(url, { ...init, sameOrigin: false });
    const text = await response.text();
    const { counts: after, problems: broken } = await countsAndViolations(anyDb(), dialect);
    const counts = stats.get(name) ?? new Map<number, number>();
    counts.set(response.status, (counts.get(response.status) ?? 0) + 1);
    stats.set(name, counts);

    const changes = changedCounts(before, after);
    const where = `${init.method} ${url.length > 200 ? `${url.slice(0, 200)}…` : url} → ${response.status} ${text.slice(0, 300).replace(/\s+/g, ' ')}`;
    const fail = (message: string) => {
      throw new Error(`${message}\n  request: ${where}\n  changes: ${changes.join('; ') || 'none'}`);
    };
    if (response.status >= 500) fail('5xx answer');
    // A field the route does not declare: 400 Invalid data naming it (and, below, nothing changed).
    if (c.unknownField !== undefined) {
      let errors: { field: string; message: string }[] = [];
      try {
        errors = JSON.parse(text).errors ?? [];
      } catch {
        // not JSON: fails below
      }
      // 'Unknown field', or the schema's own words ('Unknown setting: …').
      if (response.status !== 400 || !errors.some((e) => e.field === c.unknownField && /^Unknown /.test(e.message)))
        fail(`an unknown field ${JSON.stringify(c.unknownField)} must be a 400 naming it`);
    }
    const leak = leakIn(text);
    if (leak)
      fail(
        `response leaks internals (${leak}): …${text.slice(Math.max(0, text.search(leak) - 100), text.search(leak) + 200)}…`,
      );
    if (target.method !== 'GET' && c.origin === 'foreign' && response.status !== 403)
      fail('a foreign Origin must be refused with 403');
    if (target.method !== 'GET' && c.origin === 'none' && KNOWN.ORIGIN_REQUIRED && response.status !== 403)
      fail('a post with neither Origin nor Referer must be refused with 403');
    const size = typeof init.body === 'string' ? Buffer.byteLength(init.body) : 0;
    if (size > BODY_LIMIT_BYTES && KNOWN.BODY_LIMIT && c.origin === 'same' && !target.file && response.status !== 413)
      fail(`a body of ${size} bytes must be refused with 413`);
    if (
      size > BODY_LIMIT_BYTES &&
      target.kind === 'api' &&
      target.method === 'POST' &&
      c.api?.type === 'raw' &&
      (response.status < 400 || response.status >= 500)
    ) {
      fail(`a ${size}-byte create body must be refused (413, or 400; 403 before reading it)`);
    }
    const formId = c.form?.find(([k]) => k === 'id')?.[1];
    const formIntent = c.form?.find(([k]) => k === 'intent')?.[1];
    if (
      KNOWN.STRICT_FORM_IDS &&
      typeof formId === 'string' &&
      !/^[1-9][0-9]*$/.test(formId) &&
      formIntent !== 'create' &&
      response.status < 400
    ) {
      fail(`a form id ${JSON.stringify(formId)} must name no row`);
    }
    const audit = after.auditLogs - before.auditLogs;
    const versions = after.dataVersions - after.baselineVersions - (before.dataVersions - before.baselineVersions);
    // Failed sign-ins are audited by design (an event, no version): the one change allowed.
    const refusedChanges = target.signIn && audit === 1 ? changes.filter((c) => !c.startsWith('auditLogs:')) : changes;
    if (response.status >= 400 && refusedChanges.length) fail('a refused request changed data');
    if (response.status < 400) {
      if (target.signIn || target.event ? versions !== 0 : versions !== audit)
        fail(`audit entries (${audit}) and versions (${versions}) do not match`);
      if (target.audit === 'none' && changes.length) fail('a read changed data');
      const rows = target.rowsPerRecord ?? 1;
      if (target.audit === 'one' && (audit < 1 || audit > rows))
        fail(
          rows === 1
            ? `an accepted write must leave exactly one audit entry, left ${audit}`
            : `an accepted write must leave one audit entry per row written (1 to ${rows}), left ${audit}`,
        );
      if (target.audit === 'atMostOne' && (audit < 0 || audit > rows))
        fail(`an accepted request left ${audit} audit entries`);
      if (audit === 0 && changes.length) fail('rows changed without an audit entry');
    }
    if (broken.length) fail(`invariants broken: ${broken.join('; ')}`);
    const polluted = prototypePolluted();
    if (polluted) fail(polluted);

    // Keep the fuzzing users usable: a changed own password (or e-mail) is put back.
    if (actor === 'pwuser' && response.status < 400) {
      await db()
        .updateTable('users')
        .set({ passwordHash: pwHash, isTemporaryPassword: false, passwordChangeRequired: false, isActive: true })
        .where('id', '=', ids.pwuser)
        .execute();
      clients.pwuser = await signIn(ids.pwuser);
    }
  }

  // Every /api write: a body with a field the route does not declare is refused.
  for (const target of TARGETS.filter((t) => t.kind === 'api' && t.method !== 'GET' && !t.file)) {
    const actor = target.actors.find((a) => a !== 'editor')!;
    const name = `${target.method} ${target.path} (api) as ${actor}: an unknown field`;
    const runs = Math.max(3, Math.ceil(RUNS / 3));
    it(
      name,
      async () => {
        const details = await fc.check(
          fc.asyncProperty(withUnknownField(target), async (c) => runCase(target, actor, c, name)),
          { seed: SEED, numRuns: runs, ...(PATH ? { path: PATH, endOnFailure: true } : {}) },
        );
        if (details.failed) {
          const error =
            details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
          throw new Error(
            `${name}: failed after ${details.numRuns} cases\n${error}\n  counterexample: ${brief(details.counterexample)}\n  replay: FUZZ_SEED=${details.seed} FUZZ_RUNS=${RUNS} FUZZ_PATH=${details.counterexamplePath} npx vitest run test/fuzz.test.ts -t '${name}'`,
          );
        }
      },
      runs * 4000 + 60_000,
    );
  }

  for (const target of TARGETS) {
    for (const actor of target.actors) {
      const name = `${target.method} ${target.path} (${target.kind}) as ${actor}`;
      // The company-scoped editor's pass is a second look at routes the owner's pass covers.
      const runs = actor === 'editor' ? Math.ceil(RUNS / 2) : RUNS;
      it(
        name,
        async () => {
          const details = await fc.check(
            fc.asyncProperty(target.body, async (c) => runCase(target, actor, c, name)),
            { seed: SEED, numRuns: runs, ...(PATH ? { path: PATH, endOnFailure: true } : {}) },
          );
          if (details.failed) {
            const error =
              details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
            throw new Error(
              `${name}: failed after ${details.numRuns} cases (shrunk ${details.numShrinks} times)\n${error}\n` +
                `  counterexample: ${brief(details.counterexample)}\n` +
                `  replay: FUZZ_SEED=${details.seed} FUZZ_RUNS=${RUNS} FUZZ_PATH=${details.counterexamplePath} npx vitest run test/fuzz.test.ts -t '${name}'`,
            );
          }
        },
        runs * 4000 + 60_000,
      );
    }
  }
});
