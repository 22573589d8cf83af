// `finhub integrations` on every test database: list, sync (to a loopback remote; a failed run
// exits 1, a partial one names its skipped records) and rotate-key (credentials sealed under the previous key re-sealed under the new; one
// that does not open for its origin named, exit 1).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrationSettingsFrom } from '../../platform/config.server.ts';
import { systemActor } from '../../platform/context.ts';
import { addCredential, openCredentials } from './integration-credentials.server.ts';
import { createRecord } from '../../platform/resources/resource-writes.server.ts';
import { apiIntegrationEndpoints, apiIntegrationSources } from './resources.ts';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../../../test/database.ts';
import { startFakeRemoteApi, type FakeRemoteApi } from '../../../test/support/fake-remote-api.ts';
import { finhub } from '../../../cli/test-helpers.ts';
import { noEngine, userContext } from '../../../test/context.ts';
import { createTestUser } from '../../../test/users.ts';
import { openTotpSecret, totpCode } from '../auth/two-factor-codes.server.ts';
import { confirmTwoFactorSetup, startTwoFactorSetup } from '../auth/two-factor-state.server.ts';

describe.each(TEST_DIALECTS)('finhub integrations on %s', (dialect) => {
  let database: TestDatabase;
  let remote: FakeRemoteApi;
  let endpointId: number;
  let sourceId: number;
  const env = { ALLOW_PRIVATE_TARGETS: '1' };

  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    remote = await startFakeRemoteApi((request) =>
      request.headers.authorization === 'Bearer cli-token'
        ? { json: { data: [{ id: 'c1', name: `CLI ${dialect}` }] } }
        : { status: 401, json: {} },
    );
    const ctx = { db: database.db, actor: systemActor('cli'), meta: {}, runtime: noEngine() };
    sourceId = (
      await createRecord(ctx, apiIntegrationSources, {
        name: `CLI source ${dialect}`,
        baseUrl: `${remote.origin}/v1`,
        authType: 'bearer',
      })
    ).id;
    endpointId = (
      await createRecord(ctx, apiIntegrationEndpoints, {
        sourceId,
        name: 'CLI departments',
        endpoint: '/departments',
        targetTable: 'expense_categories',
        mappingConfig: JSON.stringify({ key: 'id', fields: { name: 'name', companyId: { constant: 1 } } }),
      })
    ).id;
    await addCredential(ctx, integrationSettingsFrom({ DATA_DIR: database.dataDir }), {
      sourceId,
      credentialKey: 'token',
      credentialValue: 'cli-token',
    });
  });
  afterAll(async () => {
    await remote?.close();
    await database?.destroy();
  });

  it('lists the endpoints', async () => {
    const run = await finhub(database, ['integrations', 'list'], env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      new RegExp(
        `${endpointId}\\s+CLI source ${dialect}\\s+CLI departments\\s+GET /departments\\s+inbound\\s+expense_categories\\s+manual\\s+active\\s+never`,
      ),
    );
  });

  it('syncs in this process; a failing run exits 1', async () => {
    const ok = await finhub(database, ['--json', 'integrations', 'sync', String(endpointId)], env);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ status: 'success', recordsCreated: 1 });
    expect(
      await database.db.selectFrom('expenseCategories').select('name').where('name', '=', `CLI ${dialect}`).execute(),
    ).toHaveLength(1);
    const again = await finhub(database, ['integrations', 'sync', String(endpointId)], env);
    // The same record again, as it is: unchanged, not updated.
    expect(again.stdout).toMatch(/: success \(1 processed, 0 created, 0 updated, 1 unchanged, 0 skipped\)/);
    // Without ALLOW_PRIVATE_TARGETS the loopback remote is refused: the run fails, exit 1.
    const refused = await finhub(database, ['integrations', 'sync', String(endpointId)]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/failed/);
    expect((await finhub(database, ['integrations', 'sync', '999999'], env)).code).toBe(1);
    expect((await finhub(database, ['integrations', 'sync', 'abc'], env)).code).toBe(2);
  });

  it('a run that skipped records is partial (exit 0) and names each skipped record with why', async () => {
    remote.handler = () => ({
      json: {
        data: [
          { id: 'p1', name: `Partial ${dialect}`, entity: 'Vult' },
          { id: 'p2', name: `Lost ${dialect}`, entity: 'Nowhere Ltd' },
        ],
      },
    });
    const ctx = { db: database.db, actor: systemActor('cli'), meta: {}, runtime: noEngine() };
    const id = (
      await createRecord(ctx, apiIntegrationEndpoints, {
        sourceId,
        name: 'CLI partial',
        endpoint: '/partial',
        targetTable: 'expense_categories',
        mappingConfig: JSON.stringify({ key: 'id', company: 'entity', fields: { name: 'name' } }),
      })
    ).id;
    const run = await finhub(database, ['integrations', 'sync', String(id)], env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/: partial \(2 processed, 1 created, 0 updated, 0 unchanged, 1 skipped\)/);
    expect(run.stdout).toContain('  skipped p2: company: no company named "Nowhere Ltd"');
    const vult = await database.db
      .selectFrom('companies')
      .select('id')
      .where('name', '=', 'Vult')
      .executeTakeFirstOrThrow();
    expect(
      await database.db
        .selectFrom('expenseCategories')
        .select('companyId')
        .where('name', '=', `Partial ${dialect}`)
        .execute(),
    ).toEqual([{ companyId: vult.id }]);
  });

  it('rotate-key re-seals the credentials and the two-factor secrets under a new ENCRYPTION_KEY', async () => {
    const old = integrationSettingsFrom({ DATA_DIR: database.dataDir }).keys[0];
    const next = 'e5'.repeat(32);
    // A user's second factor, sealed under the old key.
    const user = await createTestUser(database.db, { role: 'viewer' });
    const userCtx = await userContext(database.db, user.id);
    const { secret } = await startTwoFactorSetup(userCtx, [old]);
    await confirmTwoFactorSetup(userCtx, [old], { code: totpCode(secret) });
    const run = await finhub(database, ['integrations', 'rotate-key'], {
      ENCRYPTION_KEY: next,
      PREVIOUS_ENCRYPTION_KEY: old,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(
      '1 of 1 credential re-sealed under the current ENCRYPTION_KEY\ntwo-factor secrets: 1 re-sealed, 0 that open under neither key\n',
    );
    const sealed = await database.db
      .selectFrom('userTwoFactor')
      .select(['secretSealed', 'keyId'])
      .where('userId', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(openTotpSecret({ value: sealed.secretSealed, keyId: sealed.keyId }, user.id, [next])).toBe(secret);
    expect((await openCredentials(database.db, { keys: [next] }, sourceId, remote.origin)).get('token')).toBe(
      'cli-token',
    );
  });

  it('rotate-key names a credential that no longer opens for its origin and exits 1', async () => {
    const next = 'e5'.repeat(32);
    // Moved to another origin in the database: it was sealed for the remote's.
    await database.db
      .updateTable('apiIntegrationCredentials')
      .set({ origin: 'https://collector.example' })
      .where('sourceId', '=', sourceId)
      .execute();
    const id = (
      await database.db
        .selectFrom('apiIntegrationCredentials')
        .select('id')
        .where('sourceId', '=', sourceId)
        .executeTakeFirstOrThrow()
    ).id;
    const run = await finhub(database, ['integrations', 'rotate-key'], {
      ENCRYPTION_KEY: 'f6'.repeat(32),
      PREVIOUS_ENCRYPTION_KEY: next,
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      `0 of 1 credential re-sealed under the current ENCRYPTION_KEY\n1 do not open for the origin they are bound to (altered or moved; ids ${id}): they are never used, enter them again`,
    );
  });
});
