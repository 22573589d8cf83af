// Credentials bound to their origin, on every test dialect: the origin stored and sealed in as
// associated data (a row moved to another origin in the database no longer opens), a source
// moved to another origin deactivating its credentials with an audit entry each, credentials
// sealed before origins were bound (the migration's backfill, first use and rotate-key re-seal
// them), and a backup from before migration 0018 restoring with the origin filled in.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownerId, userContext } from '../../../test/context.ts';
import { createPreparedDatabase, TEST_DIALECTS, type TestDatabase } from '../../../test/database.ts';
import { bindCredentialOrigins } from '../../../db/migrations/0018_credential_origin.ts';
import { apiIntegrationSources } from './resources.ts';
import { restoreBackup } from '../backups/backup-restore.server.ts';
import { backupFilePath, createBackupNow } from '../backups/backups.server.ts';
import { backupSettingsFrom } from '../../platform/config.server.ts';
import type { Db, ServiceContext } from '../../platform/context.ts';
import {
  addCredential,
  CredentialUnusable,
  openCredentials,
  rotateCredentialKey,
} from './integration-credentials.server.ts';
import { createRecord, updateRecord } from '../../platform/resources/resource-writes.server.ts';
import { openSecret, sealSecret } from '../../platform/secret-box.server.ts';

const KEY = 'e7'.repeat(32);
const NEXT = 'f8'.repeat(32);
const settings = { keys: [KEY] };

describe.each(TEST_DIALECTS)('integration credentials on %s', (dialect) => {
  let database: TestDatabase;
  let db: Db;
  let owner: ServiceContext;
  let serial = 0;

  beforeAll(async () => {
    database = await createPreparedDatabase(dialect);
    db = database.db;
    owner = await userContext(db, await ownerId(db));
  });
  afterAll(async () => {
    await database?.destroy();
  });

  async function source(baseUrl: string, credentials: Record<string, string> = {}) {
    const row = await createRecord(owner, apiIntegrationSources, {
      name: `Bound ${dialect} ${++serial}`,
      baseUrl,
      authType: 'bearer',
    });
    for (const [credentialKey, credentialValue] of Object.entries(credentials))
      await addCredential(owner, settings, { sourceId: row.id, credentialKey, credentialValue });
    return row.id;
  }
  const stored = (sourceId: number) =>
    db.selectFrom('apiIntegrationCredentials').selectAll().where('sourceId', '=', sourceId).orderBy('id').execute();

  it('stores the origin and seals it in: the value opens for that origin only, a row moved in the database does not', async () => {
    const sourceId = await source('https://API.Bank.example:443/v1/', { token: 'bound-token' });
    const [row] = await stored(sourceId);
    expect(row).toMatchObject({ origin: 'https://api.bank.example', sealVersion: 2 });
    expect((await openCredentials(db, settings, sourceId, 'https://api.bank.example')).get('token')).toBe(
      'bound-token',
    );
    // Another origin reads none of them.
    expect((await openCredentials(db, settings, sourceId, 'http://api.bank.example')).size).toBe(0);
    // Moved to another origin in the database (the column and the source's base URL): it no longer opens.
    await db
      .updateTable('apiIntegrationSources')
      .set({ baseUrl: 'https://collector.example' })
      .where('id', '=', sourceId)
      .execute();
    await db
      .updateTable('apiIntegrationCredentials')
      .set({ origin: 'https://collector.example' })
      .where('id', '=', row.id)
      .execute();
    await expect(openCredentials(db, settings, sourceId, 'https://collector.example')).rejects.toThrow(
      CredentialUnusable,
    );
    await expect(openCredentials(db, settings, sourceId, 'https://collector.example')).rejects.toThrow(
      `The credential "token" (#${row.id}) does not open for https://collector.example`,
    );
    // Nor does it as a value sealed without associated data (a downgraded seal version).
    await db.updateTable('apiIntegrationCredentials').set({ sealVersion: 1 }).where('id', '=', row.id).execute();
    await expect(openCredentials(db, settings, sourceId, 'https://collector.example')).rejects.toThrow(
      CredentialUnusable,
    );
  });

  it('a source moved to another origin deactivates its credentials in the same write, each audited without its value', async () => {
    const sourceId = await source('https://ledger.example/api', { token: 'ledger-token', refresh: 'ledger-refresh' });
    const rows = await stored(sourceId);
    // Another path on the same origin keeps them.
    await updateRecord(owner, apiIntegrationSources, sourceId, { baseUrl: 'https://ledger.example/api/v2' });
    expect((await stored(sourceId)).map((r) => r.isActive)).toEqual([true, true]);
    await updateRecord(
      owner,
      apiIntegrationSources,
      sourceId,
      { baseUrl: 'https://ledger.example:8443/api/v2' },
      { reason: 'new port' },
    );
    expect((await stored(sourceId)).map((r) => r.isActive)).toEqual([false, false]);
    const audit = await db
      .selectFrom('auditLogs')
      .select(['recordId', 'action', 'changes', 'reason', 'oldData', 'newData', 'userId'])
      .where('tableName', '=', 'api_integration_credentials')
      .where('action', '=', 'update')
      .where(
        'recordId',
        'in',
        rows.map((r) => r.id),
      )
      .orderBy('recordId')
      .execute();
    expect(audit.map((a) => a.recordId)).toEqual(rows.map((r) => r.id));
    for (const entry of audit) {
      expect(entry.userId).toBe(owner.actor.kind === 'user' ? owner.actor.user.id : null);
      expect(entry.reason).toBe(
        "The source's origin changed from https://ledger.example to https://ledger.example:8443: the credential must be entered again",
      );
      expect(typeof entry.changes === 'string' ? JSON.parse(entry.changes) : entry.changes).toEqual({
        isActive: { old: true, new: false },
      });
      const text = JSON.stringify(entry);
      for (const row of rows) expect(text).not.toContain(row.credentialValue);
      expect(text).not.toContain('ledger-token');
    }
    expect((await openCredentials(db, settings, sourceId, 'https://ledger.example:8443')).size).toBe(0);
    // Entered again, for the new origin.
    await addCredential(owner, settings, { sourceId, credentialKey: 'token', credentialValue: 'ledger-token-2' });
    expect((await openCredentials(db, settings, sourceId, 'https://ledger.example:8443')).get('token')).toBe(
      'ledger-token-2',
    );
    // A failed source update (a taken name) deactivates nothing.
    const other = await source('https://other.example');
    const taken = (
      await db.selectFrom('apiIntegrationSources').select('name').where('id', '=', other).executeTakeFirstOrThrow()
    ).name;
    await expect(
      updateRecord(owner, apiIntegrationSources, sourceId, { name: taken, baseUrl: 'https://elsewhere.example' }),
    ).rejects.toMatchObject({ kind: 'invalid' });
    expect((await stored(sourceId)).filter((r) => r.isActive)).toHaveLength(1);
  });

  it('credentials sealed before origins were bound: the migration records the origin, first use and rotate-key re-seal them with it', async () => {
    const sourceId = await source('http://legacy.example:8080/feed');
    const legacy = async (credentialKey: string, plain: string) => {
      const sealed = sealSecret(plain, KEY);
      return (
        await db
          .insertInto('apiIntegrationCredentials')
          .values({
            sourceId,
            credentialKey,
            credentialValue: sealed.value,
            keyId: sealed.keyId,
            isActive: true,
            origin: null,
            sealVersion: 1,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    };
    const first = await legacy('token', 'legacy-token');
    const second = await legacy('other', 'legacy-other');
    await bindCredentialOrigins(db);
    const byId = async (id: number) =>
      db.selectFrom('apiIntegrationCredentials').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(await byId(first)).toMatchObject({ origin: 'http://legacy.example:8080', sealVersion: 1 });
    const before = (await byId(first)).credentialValue;
    // First use opens it without associated data and re-seals it with its origin.
    expect((await openCredentials(db, settings, sourceId, 'http://legacy.example:8080')).get('token')).toBe(
      'legacy-token',
    );
    const after = await byId(first);
    expect(after.sealVersion).toBe(2);
    expect(after.credentialValue).not.toBe(before);
    expect(openSecret({ value: after.credentialValue, keyId: after.keyId }, [KEY], 'http://legacy.example:8080')).toBe(
      'legacy-token',
    );
    expect(() => openSecret({ value: after.credentialValue, keyId: after.keyId }, [KEY])).toThrow();
    // rotate-key re-seals every credential under the new key, with its origin.
    await db.updateTable('apiIntegrationCredentials').set({ sealVersion: 1 }).where('id', '=', second).execute();
    await db
      .updateTable('apiIntegrationCredentials')
      .set({ credentialValue: sealSecret('legacy-other', KEY).value })
      .where('id', '=', second)
      .execute();
    const rotation = await rotateCredentialKey(db, { keys: [NEXT, KEY] });
    // The row moved in the database by the first test does not open: left as it is, named.
    expect(rotation.unusable).toEqual([
      (
        await db
          .selectFrom('apiIntegrationCredentials')
          .select('id')
          .where('origin', '=', 'https://collector.example')
          .executeTakeFirstOrThrow()
      ).id,
    ]);
    for (const id of [first, second])
      expect(await byId(id)).toMatchObject({ sealVersion: 2, origin: 'http://legacy.example:8080' });
    const opened = await openCredentials(db, { keys: [NEXT] }, sourceId, 'http://legacy.example:8080');
    expect([opened.get('token'), opened.get('other')]).toEqual(['legacy-token', 'legacy-other']);
    await rotateCredentialKey(db, { keys: [KEY, NEXT] });
  });

  it("a backup from before credentials had an origin restores with its source's origin", async () => {
    const backupSettings = backupSettingsFrom({ DATA_DIR: database.dataDir });
    const sourceId = await source('https://restored.example/v3', { token: 'restored-token' });
    const backup = await createBackupNow(owner, backupSettings, { tables: ['apiIntegrationSources'] });
    const { fileName } = await db
      .selectFrom('backups')
      .select('fileName')
      .where('id', '=', backup.id)
      .executeTakeFirstOrThrow();
    const lines = zlib
      .gunzipSync(fs.readFileSync(backupFilePath(backupSettings, fileName!)))
      .toString()
      .trimEnd()
      .split('\n');
    // As migration 0017 wrote it: credentials without origin and seal version, sealed without associated data.
    const manifest = JSON.parse(lines[0]);
    manifest.schemaVersion = '0017_day_counts';
    const credentials = manifest.tables.find((t: { name: string }) => t.name === 'apiIntegrationCredentials');
    const columns: string[] = credentials.columns;
    const keep = columns.map((c, i) => (c === 'origin' || c === 'sealVersion' ? -1 : i)).filter((i) => i >= 0);
    credentials.columns = keep.map((i) => columns[i]);
    const out = [JSON.stringify(manifest)];
    let table = '';
    for (const line of lines.slice(1)) {
      const value = JSON.parse(line);
      if (!Array.isArray(value)) {
        table = value.table ?? table;
        out.push(line);
        continue;
      }
      if (table !== 'apiIntegrationCredentials') {
        out.push(line);
        continue;
      }
      const values = keep.map((i) => value[i]);
      if (value[columns.indexOf('sourceId')] === sourceId)
        values[credentials.columns.indexOf('credentialValue')] = sealSecret('restored-token', KEY).value;
      out.push(JSON.stringify(values));
    }
    const file = path.join(database.dataDir, 'before-0018.jsonl.gz');
    fs.writeFileSync(file, zlib.gzipSync(out.join('\n') + '\n'));
    await db.deleteFrom('apiIntegrationCredentials').where('sourceId', '=', sourceId).execute();
    await db.deleteFrom('apiIntegrationSources').where('id', '=', sourceId).execute();
    await restoreBackup(owner, backupSettings, { file }, { skipAuditLogs: true });
    const [row] = await stored(sourceId);
    expect(row).toMatchObject({ origin: 'https://restored.example', sealVersion: 1 });
    expect((await openCredentials(db, settings, sourceId, 'https://restored.example')).get('token')).toBe(
      'restored-token',
    );
    expect((await stored(sourceId))[0].sealVersion).toBe(2);
  });
});
