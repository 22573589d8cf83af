// Names that must be unique stay unique when many requests race, on every test dialect: the
// database holds the rule the services check (case-insensitive after NFKC, app/platform/lib/names.ts),
// so of 8 creates at once whose names differ only in case exactly one is stored, and the others
// get the answer a create after it gets. PostgreSQL is where the race shows (SQLite runs one
// write transaction at a time).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { ownerId, userContext } from '../../../test/context.ts';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../../../test/database.ts';
import { createTestUser } from '../../../test/users.ts';
import { companies, departments, expenseCategories } from '../../features/resources.ts';
import { apiIntegrationSources } from '../../features/integrations/resources.ts';
import type { ResourceDef } from './define.ts';
import type { Db, ServiceContext } from '../context.ts';
import { DomainError } from '../errors.ts';
import { updateOwnProfile, USERNAME_TAKEN as PROFILE_USERNAME_TAKEN } from '../../features/settings/profile.server.ts';
import { createRecord, updateRecord } from './resources.server.ts';
import { createUser, USERNAME_TAKEN } from '../../features/users/users.server.ts';

const AT_ONCE = 8;
const ROUNDS = 20;

/** Eight spellings of one name that differ only in case (and surrounding spaces, which are trimmed). */
function spellings(name: string): string[] {
  const flip = (s: string, every: number) =>
    [...s].map((ch, i) => (i % every === 0 ? ch.toUpperCase() : ch.toLowerCase())).join('');
  return [
    name,
    name.toUpperCase(),
    name.toLowerCase(),
    flip(name, 2),
    flip(name, 3),
    ` ${name.toUpperCase()} `,
    flip(name.toUpperCase(), 4),
    `${name.toLowerCase()} `,
  ];
}

/** Each outcome of calls started at once: the value, or the domain error (anything else fails the test). */
async function together<T>(
  calls: (() => Promise<T>)[],
): Promise<({ ok: true; value: T } | { ok: false; error: DomainError })[]> {
  const results = await Promise.allSettled(calls.map((call) => call()));
  return results.map((result) => {
    if (result.status === 'fulfilled') return { ok: true, value: result.value };
    expect(result.reason, String(result.reason?.stack ?? result.reason)).toBeInstanceOf(DomainError);
    return { ok: false, error: result.reason as DomainError };
  });
}

describe.each(TEST_DIALECTS)('unique names under concurrent writes on %s', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  let ctx: ServiceContext;
  let companyId: number;
  const tag = `${dialect}-${Math.random().toString(36).slice(2, 7)}`;

  const countByKey = async (table: string, column: string, name: string, scope?: { column: string; value: number }) => {
    let q = (db as any)
      .selectFrom(table)
      .select((eb: any) => eb.fn.countAll().as('n'))
      .where(sql`lower(${sql.ref(column)})`, '=', name.trim().toLowerCase());
    if (scope) q = q.where(scope.column, '=', scope.value);
    return Number((await q.executeTakeFirstOrThrow()).n);
  };

  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    db = database.db;
    ctx = await userContext(db, await ownerId(db));
    companyId = (await createRecord(ctx, companies, { name: `Unique ${tag}`, type: 'marketing' })).id;
  });
  afterAll(() => database?.destroy());

  /** The answer a create of a taken name gets when nothing races it. */
  async function sequentialRefusal(def: ResourceDef, record: (name: string) => Record<string, unknown>, name: string) {
    await createRecord(ctx, def, record(name));
    const error = await createRecord(ctx, def, record(name.toUpperCase())).then(
      () => null,
      (e: unknown) => e as DomainError,
    );
    expect(error).toBeInstanceOf(DomainError);
    return { status: error!.status, message: error!.message, errors: error!.errors };
  }

  const cases: {
    label: string;
    def: () => ResourceDef;
    record: (name: string) => Record<string, unknown>;
    table: string;
    scoped?: boolean;
  }[] = [
    {
      label: 'API integration sources',
      def: () => apiIntegrationSources,
      record: (name) => ({ name, baseUrl: 'https://api.example.com' }),
      table: 'apiIntegrationSources',
    },
    { label: 'departments', def: () => departments, record: (name) => ({ name }), table: 'departments' },
    {
      label: 'expense categories of one company',
      def: () => expenseCategories,
      record: (name) => ({ companyId, name }),
      table: 'expenseCategories',
      scoped: true,
    },
    { label: 'companies', def: () => companies, record: (name) => ({ name, type: 'fintech' }), table: 'companies' },
  ];

  for (const { label, def, record, table, scoped } of cases) {
    it(
      `${label}: of ${AT_ONCE} creates at once whose names differ in case, one is stored and the others are refused as after it, ${ROUNDS} times`,
      { timeout: 120_000 },
      async () => {
        const expected = await sequentialRefusal(def(), record, `Taken ${label} ${tag}`);
        for (let round = 0; round < ROUNDS; round++) {
          const name = `Race ${label} ${tag} ${round}`;
          const outcomes = await together(
            spellings(name).map((spelling) => () => createRecord(ctx, def(), record(spelling))),
          );
          expect(
            outcomes.filter((o) => o.ok),
            `round ${round}`,
          ).toHaveLength(1);
          for (const o of outcomes)
            if (!o.ok)
              expect(
                { status: o.error.status, message: o.error.message, errors: o.error.errors },
                `round ${round}`,
              ).toEqual(expected);
          expect(
            await countByKey(table, 'name', name, scoped ? { column: 'companyId', value: companyId } : undefined),
          ).toBe(1);
        }
      },
    );
  }

  it(`a category name stays free in another company`, async () => {
    const other = (await createRecord(ctx, companies, { name: `Other ${tag}`, type: 'fintech' })).id;
    await createRecord(ctx, expenseCategories, { companyId, name: `Shared ${tag}` });
    expect((await createRecord(ctx, expenseCategories, { companyId: other, name: `SHARED ${tag}` })).name).toBe(
      `SHARED ${tag}`,
    );
  });

  it(
    'renames racing to the same name in another case: one is applied, the other refused as after it',
    { timeout: 60_000 },
    async () => {
      for (let round = 0; round < 5; round++) {
        const rows = await Promise.all(
          [0, 1, 2, 3].map((i) => createRecord(ctx, departments, { name: `Before ${tag} ${round} ${i}` })),
        );
        const name = `Renamed ${tag} ${round}`;
        const outcomes = await together(
          rows.map((row, i) => () => updateRecord(ctx, departments, row.id, { name: spellings(name)[i] })),
        );
        expect(outcomes.filter((o) => o.ok)).toHaveLength(1);
        for (const o of outcomes)
          if (!o.ok)
            expect(o.error.errors).toEqual([{ field: 'name', message: 'A department with this name already exists' }]);
        expect(await countByKey('departments', 'name', name)).toBe(1);
      }
    },
  );

  it(
    `users: of ${AT_ONCE} creates at once whose usernames differ in case, one is stored and the others get the 409`,
    { timeout: 120_000 },
    async () => {
      for (let round = 0; round < 5; round++) {
        const username = `racer_${tag}_${round}`;
        const outcomes = await together(
          spellings(username).map(
            (spelling, i) => () =>
              createUser(ctx, {
                username: spelling,
                email: `racer-${tag}-${round}-${i}@example.com`,
                password: 'Racing-Password-1',
                role: 'viewer',
              }),
          ),
        );
        expect(outcomes.filter((o) => o.ok)).toHaveLength(1);
        for (const o of outcomes)
          if (!o.ok)
            expect({ status: o.error.status, message: o.error.message, errors: o.error.errors }).toEqual({
              status: 409,
              message: USERNAME_TAKEN,
              errors: [{ field: 'username', message: USERNAME_TAKEN }],
            });
        expect(await countByKey('users', 'username', username)).toBe(1);
      }
    },
  );

  it(
    'users: two people taking one username in their profiles at once: one gets it, the other the 409',
    { timeout: 60_000 },
    async () => {
      for (let round = 0; round < 5; round++) {
        const people = await Promise.all([0, 1].map(() => createTestUser(db, { role: 'viewer' })));
        const contexts = await Promise.all(people.map((p) => userContext(db, p.id)));
        const username = `profile_${tag}_${round}`;
        const outcomes = await together(
          people.map(
            (p, i) => () =>
              updateOwnProfile(contexts[i], { username: i ? username.toUpperCase() : username, email: p.email }),
          ),
        );
        expect(outcomes.filter((o) => o.ok)).toHaveLength(1);
        const refused = outcomes.find((o) => !o.ok);
        expect(refused && !refused.ok && refused.error.status).toBe(409);
        expect(refused && !refused.ok && refused.error.errors).toEqual([
          { field: 'username', message: PROFILE_USERNAME_TAKEN },
        ]);
      }
    },
  );
});
