// The authorization matrix (docs/security.md): every route of the manifest × every actor answers the
// status the permission rules give, on every test database. Refused writes change nothing
// (the target row, the audit trail and the versions stay as they were); another company's row
// is a 404 to a company-scoped actor. Every /api answer, allowed or refused, is checked against
// the schema the OpenAPI document gives its operation and status (contract.ts).
import type { Kysely } from 'kysely';
import type { Area } from '../../app/platform/lib/permissions.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { OWNER_PASSWORD, TEST_DIALECTS } from '../database.ts';
import { TEST_ENCRYPTION_KEY, TestClient, useTestServer } from '../server.ts';
import { newTotpSecret, sealTotpSecret, totpCode } from '../../app/features/auth/two-factor-codes.server.ts';
import { createTestUser, TEST_PASSWORD } from '../users.ts';
import {
  ACTOR_NAMES,
  createActor,
  grants,
  hiddenFrom,
  isolated,
  type Actor,
  type ActorName,
  type ActorSetup,
} from './actors.ts';
import { createBackupNow } from '../../app/features/backups/backups.server.ts';
import { backupSettingsFrom } from '../../app/platform/config.server.ts';
import { systemActor } from '../../app/platform/context.ts';
import { notify } from '../../app/features/notifications/notifications.server.ts';
import { apiPathOf, planFor, rowSnapshot, sampleRecord, type Fixtures, type Plan } from './cases.ts';
import { companyNamed } from '../../app/platform/resources/define.ts';
import { findResource } from '../../app/features/resources.ts';
import { buildManifest, loadBuild, type ManifestEntry } from './manifest.ts';
import { noEngine } from '../context.ts';
import { ApiContract } from './contract.ts';

interface Expected {
  status: number;
  /** Where a redirect must point. */
  location?: RegExp;
}

const SIGN_IN = /^\/login(\?|$)/;
const CHANGE_PASSWORD = /^\/change-password$/;

/** Which companies a company screen belongs to: a scoped user of another company gets 404. */
const COMPANY_SCREENS: Record<string, (company: { name: string; type: string }) => boolean> = {
  '/mobile-metrics': (c) => c.type === 'mobile',
  '/fintech-metrics': (c) => c.type === 'fintech',
  '/one-network-data': (c) => c.name === 'One Network',
  '/one-network-subscription-metrics': (c) => c.name === 'One Network',
  '/vult-financial-services': (c) => c.name === 'Vult',
  '/vult-subscriber-metrics': (c) => c.name === 'Vult',
};

/** The area of the table a whole-table export downloads (`/api/export/<table>/csv`), as the permission rules gate it. */
function exportArea(path: string): Area {
  const table = path.split('/')[3];
  if (table === 'users') return 'users';
  if (table === 'companies' || table === 'departments') return 'reference';
  if (table.startsWith('api_integration_')) return 'integrations';
  if (['expense_categories', 'budgets', 'actual_expenses', 'revenue_projections', 'actual_revenue'].includes(table))
    return 'financial';
  return 'subscriber';
}

/** Outcomes of the routes anyone may call, by who calls. */
function publicOutcome(entry: ManifestEntry, actor: Actor): Expected {
  const signedIn = actor.session !== 'none';
  // The message files: the same for everybody, whoever asks.
  if (entry.routeId === 'routes/i18n.$file') return { status: 200 };
  switch (entry.name) {
    case 'GET /':
      return actor.session === 'mustChangePassword' ? { status: 302, location: CHANGE_PASSWORD } : { status: 200 };
    case 'GET /login':
      return signedIn ? { status: 302 } : { status: 200 };
    case 'POST /login [login]':
      return { status: 302 };
    case 'POST /logout':
      return { status: 302 };
    case 'POST /api/auth/login':
    case 'POST /api/auth/logout':
      return { status: 200 };
    // Without a challenge waiting, the second step is not open: back to the password (the page),
    // or 401 (the API); a signed-in visitor goes on where they were headed.
    case 'GET /login/two-factor':
    case 'POST /login/two-factor [verify]':
      return { status: 302 };
    case 'POST /api/auth/two-factor':
      return { status: 200 };
  }
  throw new Error(`no expected outcome for the public route ${entry.name}`);
}

function expectedOutcome(
  entry: ManifestEntry,
  actor: Actor,
  plan: Plan,
  companies: Map<number, { name: string; type: string }>,
  companyA: number,
): Expected {
  const { rule } = entry;
  if (rule.kind === 'none') return { status: 404 };
  if (rule.kind === 'redirect') return { status: 302 };
  if (rule.kind === 'public') return publicOutcome(entry, actor);
  if (actor.session === 'none') return entry.kind === 'api' ? { status: 401 } : { status: 302, location: SIGN_IN };
  if (actor.session === 'mustChangePassword') {
    if (entry.kind === 'api' && !entry.path.startsWith('/api/auth/')) return { status: 403 };
    if (entry.kind === 'page' && entry.path !== '/change-password') return { status: 302, location: CHANGE_PASSWORD };
  }
  const permitted =
    (rule.kind === 'signedIn' ||
      (rule.kind === 'owner' && actor.role === 'owner') ||
      (rule.kind === 'area' && grants(actor, rule.area, rule.action)) ||
      (rule.kind === 'self' && (rule.or ? grants(actor, rule.or.area, rule.or.action) : true))) &&
    // A whole-table export also needs the right to read the table: one may back up only what one may read.
    (!entry.path.startsWith('/api/export/') || grants(actor, exportArea(entry.path), 'read'));
  // A company's own screen does not exist for a user limited to another company.
  const belongs = entry.screen && COMPANY_SCREENS[entry.screen.path];
  if (belongs && actor.companyId !== null && !belongs(companies.get(actor.companyId)!)) return { status: 404 };
  if (!permitted) {
    // Installation-wide routes and screens do not exist for an admin of one company (404); an
    // installation-wide action on a screen they do open is refused there (403).
    const hidden =
      (rule.kind === 'area' &&
        hiddenFrom(actor, rule.area) &&
        (entry.kind === 'api' || !entry.screen || hiddenFrom(actor, entry.screen.area))) ||
      (rule.kind === 'owner' && !!entry.screen && hiddenFrom(actor, entry.screen.area));
    return { status: hidden ? 404 : 403 };
  }
  // What the whole group shares (departments, integration sources and endpoints) is read-only to a scoped user.
  if (entry.groupWide && entry.method !== 'GET' && actor.companyId !== null) return { status: 403 };
  // Rows that all belong to a named company (One Network's records) do not exist for a user of another.
  const named = entry.resource ? companyNamed(findResource(entry.resource)!) : null;
  if (named && actor.companyId !== null && companies.get(actor.companyId)?.name !== named) return { status: 404 };
  if (
    plan.target &&
    entry.companyScoped &&
    actor.companyId !== null &&
    actor.companyId !== (plan.targetCompany ?? companyA)
  )
    return { status: 404 };
  return { status: plan.success };
}

async function send(actor: Actor, entry: ManifestEntry, plan: Plan): Promise<Response> {
  const origin = { Origin: actor.client.baseUrl };
  if (entry.method === 'GET') return actor.client.get(plan.url);
  if (plan.form) return actor.client.postForm(plan.url, plan.form);
  if (plan.csv !== undefined)
    return actor.client.request(plan.url, {
      method: entry.method,
      body: plan.csv,
      headers: { ...origin, 'Content-Type': 'text/csv' },
    });
  return actor.client.request(plan.url, { method: entry.method, json: plan.body ?? {}, headers: origin });
}

describe.each(TEST_DIALECTS)('authorization matrix on %s', (dialect) => {
  const { server, db } = useTestServer(dialect, {
    env: { API_RATE_LIMIT_PER_MINUTE: '1000000', API_RATE_LIMIT_PER_HOUR: '10000000' },
  });
  const anyDb = () => db() as unknown as Kysely<any>;
  let entries: ManifestEntry[];
  let fixtures: Fixtures;
  let setup: ActorSetup;
  const actors = {} as Record<ActorName, Actor>;
  const companies = new Map<number, { name: string; type: string }>();

  const count = async (table: string) =>
    Number(
      (
        (await anyDb()
          .selectFrom(table)
          .select((eb: any) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()) as { n: unknown }
      ).n,
    );

  beforeAll(async () => {
    const manifest = buildManifest(await loadBuild());
    expect(manifest.problems).toEqual([]);
    entries = manifest.entries;
    for (const c of await db().selectFrom('companies').select(['id', 'name', 'type']).execute()) companies.set(c.id, c);
    const byName = (name: string) => [...companies.entries()].find(([, c]) => c.name === name)!;
    const [aId, a] = byName('One Network');
    const [bId, b] = byName('Vult');
    setup = { baseUrl: server().baseUrl, db: db(), otherCompanyId: bId };
    // The fixtures' rows are made by the installation's owner; the matrix's owner is another.
    const owner = new TestClient(setup.baseUrl);
    await owner.login('owner@example.com', OWNER_PASSWORD);
    const department = await db()
      .selectFrom('departments')
      .select('id')
      .where('name', '=', 'Finance')
      .executeTakeFirstOrThrow();
    const categoryOf: Record<number, number> = {};
    for (const companyId of [aId, bId]) {
      const response = await owner.post(
        '/api/expense-categories',
        { companyId, departmentId: department.id, name: `Matrix category ${companyId}` },
        { headers: { Origin: setup.baseUrl } },
      );
      expect(response.status).toBe(201);
      categoryOf[companyId] = (await response.json()).id;
    }
    const loginUser = await createTestUser(db(), { role: 'viewer' });
    const source = await owner.post(
      '/api/api-integration-sources',
      { name: 'Matrix source', baseUrl: 'https://api.example.com' },
      { headers: { Origin: setup.baseUrl } },
    );
    expect(source.status).toBe(201);
    const sourceId = (await source.json()).id as number;
    fixtures = {
      sourceId,
      db: db(),
      companyA: { id: aId, type: a.type },
      companyB: { id: bId, type: b.type },
      departmentId: department.id,
      categoryOf,
      loginUser: { email: loginUser.email, password: TEST_PASSWORD },
      createRow: async (resource, companyId = aId) => {
        const response = await owner.post(apiPathOf(resource), sampleRecord(resource, fixtures, companyId), {
          headers: { Origin: setup.baseUrl },
        });
        if (response.status !== 201)
          throw new Error(`creating a ${resource} row failed: ${response.status} ${await response.text()}`);
        return (await response.json()).id;
      },
      createUser: async (companyId) => (await createTestUser(db(), { role: 'viewer', companyId })).id,
      ownImport: async (userId) =>
        (
          await db()
            .insertInto('imports')
            .values({
              userId,
              actorLabel: 'matrix',
              resource: 'departments',
              fileName: 'matrix.csv',
              fileHash: '0'.repeat(64),
              fileSize: 6,
              phase: 'check',
              status: 'checked',
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id,
      secondStep: async () => {
        const user = await createTestUser(db(), { role: 'viewer' });
        const secret = newTotpSecret();
        const sealed = sealTotpSecret(secret, user.id, TEST_ENCRYPTION_KEY);
        const now = new Date().toISOString();
        await db()
          .insertInto('userTwoFactor')
          .values({
            userId: user.id,
            secretSealed: sealed.value,
            keyId: sealed.keyId,
            enabledAt: now,
            createdAt: now,
            updatedAt: now,
          })
          .execute();
        const response = await fetch(`${setup.baseUrl}/api/auth/login`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Origin: setup.baseUrl },
          body: JSON.stringify({ email: user.email, password: TEST_PASSWORD }),
        });
        const { challenge } = (await response.json()) as { challenge: string };
        return { challenge, code: totpCode(secret) };
      },
      giveTwoFactor: async (userId) => {
        const now = new Date().toISOString();
        await db()
          .insertInto('userTwoFactor')
          .values({
            userId,
            secretSealed: 'never-opened',
            keyId: 'none',
            enabledAt: now,
            createdAt: now,
            updatedAt: now,
          })
          .execute();
      },
      createBackup: async (madeBy = null) => {
        const system = { db: db(), actor: systemActor('cli'), meta: {}, runtime: noEngine() };
        const settings = backupSettingsFrom({ DATA_DIR: server().database.dataDir });
        const { id } = await createBackupNow(system, settings, { tables: ['departments'] });
        if (madeBy !== null)
          await db().updateTable('backups').set({ createdBy: madeBy }).where('id', '=', id).execute();
        return id;
      },
      createNotification: async (userId) => {
        const system = { db: db(), actor: systemActor('cli'), meta: {}, runtime: noEngine() };
        const row = await notify(system, {
          category: 'system',
          title: 'Matrix notification',
          message: 'For the matrix',
          to: userId === null ? {} : { userId },
        });
        return row!.id;
      },
    };
    for (const name of ACTOR_NAMES) actors[name] = await createActor(setup, name);
  });

  it('the manifest describes every route, and every entry has a matrix case', () => {
    expect(entries.length).toBeGreaterThan(100);
    const names = entries.map((e) => e.name);
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
  });

  it(
    'every route answers every actor as the permission rules say, and refused writes change nothing',
    { timeout: 600_000 },
    async () => {
      const failures: string[] = [];
      const contract = new ApiContract();
      let cases = 0;
      // MATRIX_ONLY=regex narrows the run to some entries while debugging.
      const only = process.env.MATRIX_ONLY ? new RegExp(process.env.MATRIX_ONLY) : null;
      const prepare = async (entry: ManifestEntry, name: ActorName) => {
        const shared = actors[name];
        const plan = await planFor(entry, shared, fixtures);
        const actor = plan.changesActor ? await createActor(setup, name) : isolated(shared);
        return { plan, actor, expected: expectedOutcome(entry, actor, plan, companies, fixtures.companyA.id) };
      };
      const check = async (
        entry: ManifestEntry,
        { name, plan, actor, expected }: { name: ActorName; plan: Plan; actor: Actor; expected: Expected },
      ) => {
        const write = entry.method !== 'GET';
        const before =
          write && expected.status >= 400
            ? {
                audit: await count('auditLogs'),
                versions: await count('dataVersions'),
                row: plan.target ? await rowSnapshot(db(), plan.target) : null,
              }
            : null;
        const response = await send(actor, entry, plan);
        cases += 1;
        const location = response.headers.get('Location') ?? '';
        if (response.status !== expected.status || (expected.location && !expected.location.test(location))) {
          const body = (await response.text()).slice(0, 200).replace(/\s+/g, ' ');
          failures.push(
            `${entry.name} as ${name}: expected ${expected.status}${expected.location ? ` → ${expected.location}` : ''}, got ${response.status}${location ? ` → ${location}` : ''} ${body}`,
          );
          return;
        }
        if (entry.kind === 'api' && entry.rule.kind !== 'none') {
          const problem = await contract.problem(entry.method, entry.path, response);
          if (problem) failures.push(`${entry.name} as ${name}: ${problem}`);
        } else await response.body?.cancel();
        if (before) {
          const after = {
            audit: await count('auditLogs'),
            versions: await count('dataVersions'),
            row: plan.target ? await rowSnapshot(db(), plan.target) : null,
          };
          if (JSON.stringify(after) !== JSON.stringify(before))
            failures.push(`${entry.name} as ${name}: refused (${response.status}) but the database changed`);
        }
      };
      for (const entry of entries.filter((e) => !only || only.test(e.name))) {
        // One record per month: the samples of a company-metrics table take a month each, so the
        // rows earlier entries left there are cleared (the table holds 132 months per company).
        const def = entry.resource ? findResource(entry.resource) : undefined;
        // (One Network's monthly records are months of another table's rows: those are cleared.)
        if (def?.unique?.some((rule) => rule.conflict))
          await anyDb()
            .deleteFrom(def.pivot?.source.table ?? def.table)
            .execute();
        // A read changes nothing: every actor's is sent at once (their plans made one by one,
        // since a plan may add rows). A write is checked alone, with the database before and after.
        if (entry.method === 'GET') {
          const planned = [];
          for (const name of ACTOR_NAMES) planned.push({ name, ...(await prepare(entry, name)) });
          await Promise.all(planned.map((one) => check(entry, one)));
        } else for (const name of ACTOR_NAMES) await check(entry, { name, ...(await prepare(entry, name)) });
      }
      console.log(`[matrix] ${dialect}: ${entries.length} routes × ${ACTOR_NAMES.length} actors = ${cases} cases`);
      expect(failures).toEqual([]);
      // Every operation of the document answered a permitted call, checked against its schema.
      if (!only) expect(contract.uncheckedSuccesses()).toEqual([]);
    },
  );

  it('restoring needs the rights the data carries: never the backups flag alone, never an admin of one company, accounts only an owner', async () => {
    const settings = backupSettingsFrom({ DATA_DIR: server().database.dataDir });
    const system = { db: db(), actor: systemActor('cli'), meta: {}, runtime: noEngine() };
    const expected: Record<string, Partial<Record<ActorName, number>>> = {
      departments: { backupsViewer: 403, scopedAdmin: 404, admin: 200, owner: 200 },
      users: { backupsViewer: 403, scopedAdmin: 404, admin: 403, owner: 200 },
    };
    const failures: string[] = [];
    for (const [table, outcomes] of Object.entries(expected)) {
      const { id } = await createBackupNow(system, settings, { tables: [table] });
      for (const [name, status] of Object.entries(outcomes) as [ActorName, number][]) {
        const before = { audit: await count('auditLogs'), users: await count('users') };
        for (const body of [{}, { overwrite: true, skipAuditLogs: true }]) {
          if (status === 200 && 'overwrite' in body) continue;
          const response = await isolated(actors[name]).client.post(`/api/backups/${id}/restore`, body, {
            headers: { Origin: server().baseUrl },
          });
          if (response.status !== status)
            failures.push(
              `${table} as ${name} ${JSON.stringify(body)}: expected ${status}, got ${response.status} ${await response.text()}`,
            );
        }
        // A refused restore leaves no trace; an allowed one leaves its audit entry.
        const after = { audit: await count('auditLogs'), users: await count('users') };
        const audited = status === 200 ? before.audit + 1 : before.audit;
        if (after.audit !== audited || after.users !== before.users)
          failures.push(
            `${table} as ${name}: audit ${before.audit} → ${after.audit}, users ${before.users} → ${after.users}`,
          );
      }
    }
    expect(failures).toEqual([]);
  });

  it('writes cannot point at another company’s rows (a category, a company, a user’s company)', async () => {
    const f = fixtures;
    const a = f.companyA.id;
    const editor = actors.scopedEditor;
    const admin = actors.scopedAdmin;
    const attempts: { actor: Actor; path: string; body: Record<string, unknown>; table: string }[] = [
      {
        actor: editor,
        path: '/api/budgets',
        body: { ...sampleRecord('budgets', f, f.companyB.id), categoryId: f.categoryOf[a] },
        table: 'budgets',
      },
      {
        actor: editor,
        path: '/api/actual-expenses',
        body: { ...sampleRecord('actual-expenses', f, f.companyB.id), categoryId: f.categoryOf[a] },
        table: 'actualExpenses',
      },
      {
        actor: editor,
        path: '/api/actual-revenue',
        body: sampleRecord('actual-revenues', f, a),
        table: 'actualRevenue',
      },
      {
        actor: editor,
        path: '/api/revenue-projections',
        body: sampleRecord('revenue-projections', f, a),
        table: 'revenueProjections',
      },
      {
        actor: editor,
        path: '/api/subscriber-metrics',
        body: sampleRecord('subscriber-metrics', f, a),
        table: 'subscriberMetrics',
      },
      {
        actor: admin,
        path: '/api/expense-categories',
        body: sampleRecord('expense-categories', f, a),
        table: 'expenseCategories',
      },
      {
        actor: admin,
        path: '/api/users',
        body: {
          username: 'crosscompany',
          email: 'cross-company@example.com',
          password: 'Created-Password-1',
          role: 'viewer',
          companyId: a,
        },
        table: 'users',
      },
    ];
    for (const { actor, path, body, table } of attempts) {
      const before = { rows: await count(table), audit: await count('auditLogs') };
      const response = await isolated(actor).client.post(path, body, { headers: { Origin: server().baseUrl } });
      expect([400, 403, 404], `${path}: ${response.status} ${await response.clone().text()}`).toContain(
        response.status,
      );
      expect({ rows: await count(table), audit: await count('auditLogs') }, path).toEqual(before);
    }
    // Moving an own row to another company's category is refused the same way.
    const own = await f.createRow('budgets', f.companyB.id);
    const before = await rowSnapshot(db(), { table: 'budgets', id: own });
    const moved = await isolated(editor).client.request(`/api/budgets/${own}`, {
      method: 'PUT',
      json: { categoryId: f.categoryOf[a] },
      headers: { Origin: server().baseUrl },
    });
    expect([400, 404]).toContain(moved.status);
    expect(await rowSnapshot(db(), { table: 'budgets', id: own })).toBe(before);
  });
});
