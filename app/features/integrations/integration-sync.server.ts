// The sync engine (docs/decisions.md): one sync log per run, a job per run.
// Inbound: GET the remote JSON page by page with the source's auth, map each record with the
// endpoint's mappingConfig, validate it with the target resource's own rules and upsert it
// through the audited write helpers as the 'integration' actor, matching on the record's
// external key (a second run updates the row the first made). Outbound: send the target table's
// rows changed since the last successful run, in batches. A bad record is skipped and logged, and
// a run that skipped any ends 'partial' (the admins are told); a failed request, an unusable
// mapping or a missing credential fails the run and tells the admins. Names are looked up within
// the company the endpoint files into, or the one the record names: a name several companies use
// (every company has a 'Cloud Hosting' category) or no company has skips the record.
// Every request, redirect and page link stays on the source's origin, the one its credentials
// were entered for (docs/security.md). A run holds a lease on its log, claimed in one transaction with
// the endpoint's row locked: a job delivered again while its first delivery still runs (in this
// process or another) leaves the run to it, and a second run of the same endpoint fails cleanly.
import crypto from 'node:crypto';
import { CronExpressionParser } from 'cron-parser';
import { z } from 'zod';
import { RESOURCE_LIST } from '../resources.ts';
import {
  companyColumnOf,
  companyCopiedFrom,
  companyNamed,
  referencedResource,
  type ResourceDef,
} from '../../platform/resources/define.ts';
import {
  parseInboundMapping,
  parseOutboundMapping,
  valueAt,
  type FieldRuleConfig,
  type InboundMappingConfig,
} from './integration-mapping.ts';
import { endpointPathError } from './resources.ts';
import { dialectOf } from '../../../db/dialect.ts';
import { camelCase, nameKey } from '../../platform/lib/names.ts';
import { MAX_ID } from '../../platform/lib/query.ts';
import type { IntegrationSettings } from '../../platform/config.server.ts';
import { inTransaction, requirePermission, systemActor, type Db, type ServiceContext } from '../../platform/context.ts';
import { invalid, isDomainError, notFound } from '../../platform/errors.ts';
import { credentialsOffOrigin, CredentialUnusable, openCredentials } from './integration-credentials.server.ts';
import {
  assertOnOrigin,
  OriginRefused,
  originOf,
  requestJson,
  SyncHttpError,
  type RequestOptions,
} from './integration-http.server.ts';
import { integrationSyncFailed, integrationSyncPartial } from '../notifications/index.server.ts';
import { dynamic, toApiRow } from '../../platform/resources/resource-rows.server.ts';
import { createRecord, updateRecordIfChanged } from '../../platform/resources/resource-writes.server.ts';
import { SecretKeyMissing } from '../../platform/secret-box.server.ts';
import type { SyncStatus } from '../../../db/types.ts';
import type { SyncLog } from './answers.ts';
import { REASONS } from '../../platform/audit-reasons.ts';
import { msg } from '../../platform/i18n/messages.ts';
import { PLAIN_ENGLISH } from '../../platform/i18n/english-icu.server.ts';
import type { Locale } from '../../platform/i18n/locales.ts';
import {
  english,
  ENGLISH,
  marked,
  otherReaders,
  phrased,
  readerWords,
  parsedWords,
  storedWords,
  wordsIn,
  type OtherWords,
  type PhraseValue,
  type Reader,
} from '../../platform/i18n/refusal-words.ts';
import { nounInText as placedNoun } from '../../platform/resources/noun.ts';

export type { SyncLog };

/** Errors kept in a log's syncData. */
const KEPT_ERRORS = 20;

class SyncFailure extends Error {}

function resourceOfTable(table: string): ResourceDef | undefined {
  const camel = camelCase(table);
  return RESOURCE_LIST.find((def) => def.table === camel);
}

// ---------------------------------------------------------------------------------------------
// Starting a run

/** POST /api/api-integration-sync/{id}: the old client sends its user id; the run is the signed-in user's whatever it says. */
export const SyncRequest = z.strictObject({
  userId: z
    .number({ error: 'userId must be a user id' })
    .int({ message: 'userId must be a user id' })
    .positive({ message: 'userId must be a user id' })
    .max(MAX_ID, { message: 'userId must be a user id' })
    .optional(),
});

/**
 * POST /api/api-integration-sync/{endpointId}, 'Sync Now' and the schedule: a running log now,
 * the run by the integration-sync job. Without a reachable job engine the run happens in this
 * process in the background (the log tells how it ended).
 */
export async function requestSync(
  ctx: ServiceContext,
  settings: IntegrationSettings,
  endpointId: number,
): Promise<SyncLog> {
  const logId = await openRun(ctx, endpointId);
  // The answer describes the run as started: a fast worker may finish it before we could read it back.
  const started = await getSyncLog(ctx, logId);
  try {
    await ctx.runtime.jobs.enqueue('integration-sync', { logId }, { singletonKey: `integration-sync-${logId}` });
  } catch (error) {
    console.error(`[integrations] no job engine (${(error as Error).message}): sync #${logId} runs in this process`);
    void runSync(ctx, settings, logId).catch((failure: unknown) =>
      console.error(`[integrations] sync #${logId} failed: ${(failure as Error).message}`),
    );
  }
  return started;
}

/** `finhub integrations sync`: the run in this process, to its end. */
export async function syncNow(
  ctx: ServiceContext,
  settings: IntegrationSettings,
  endpointId: number,
): Promise<SyncLog> {
  return runSync(ctx, settings, await openRun(ctx, endpointId));
}

/** Checks the endpoint can run and writes its running log. */
async function openRun(ctx: ServiceContext, endpointId: number): Promise<number> {
  // An endpoint serves every company's books: a user limited to one company only reads it.
  requirePermission(ctx, 'integrations', 'create', { groupWide: true });
  const endpoint = await ctx.db
    .selectFrom('apiIntegrationEndpoints as e')
    .innerJoin('apiIntegrationSources as s', 's.id', 'e.sourceId')
    .select(['e.id', 'e.isActive', 's.isActive as sourceActive'])
    .where('e.id', '=', endpointId)
    .executeTakeFirst();
  if (!endpoint) throw notFound();
  if (!endpoint.isActive) throw invalid([{ field: 'endpointId', message: msg('This endpoint is inactive') }]);
  if (!endpoint.sourceActive)
    throw invalid([{ field: 'endpointId', message: msg('The source of this endpoint is inactive') }]);
  const log = await ctx.db
    .insertInto('apiIntegrationSyncLogs')
    .values({
      endpointId,
      status: 'running',
      startedAt: new Date().toISOString(),
      triggeredBy: ctx.actor.kind === 'user' ? ctx.actor.user.id : null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return log.id;
}

// ---------------------------------------------------------------------------------------------
// A run

interface Tally {
  processed: number;
  created: number;
  updated: number;
  unchanged: number;
  skipped: number;
  failed: number;
  requests: number;
  responseMs: number;
  errors: KeptError[];
  /** The readers of other languages, for the kept errors' words. */
  readers: readonly Reader[];
}

/** A skipped record's reason as the log keeps it: the English, and its words in each other language. */
interface KeptError {
  record: string;
  message: string;
  words?: OtherWords;
  recordWords?: OtherWords;
}

function authHeaders(authType: string, credentials: Map<string, string>): Record<string, string> {
  const first = () => [...credentials.values()][0];
  const need = (value: string | undefined, what: string) => {
    if (!value) throw phrased((m) => new SyncFailure(m), msg('The source has no {what} credential'), { what });
    return value;
  };
  switch (authType) {
    case 'bearer':
      return {
        Authorization: `Bearer ${need(credentials.get('token') ?? credentials.get('bearer_token') ?? first(), 'bearer token')}`,
      };
    case 'oauth2':
      return { Authorization: `Bearer ${need(credentials.get('access_token') ?? first(), 'access_token')}` };
    case 'api_key': {
      // The credential's key names the header: X-API-Key → its value.
      const [header, value] = [...credentials.entries()][0] ?? [];
      return { [need(header, 'API key')]: value! };
    }
    case 'basic': {
      const user = need(credentials.get('username'), 'username');
      const password = need(credentials.get('password'), 'password');
      return { Authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` };
    }
    default:
      return {};
  }
}

/**
 * The endpoint's URL: its path after the base URL. An absolute address (refused since endpoints
 * are checked as paths, but older rows may hold one) is taken as it is, and must then be on the
 * source's origin like every request.
 */
function endpointUrl(base: string, path: string): string {
  if (endpointPathError(path) && URL.canParse(path.trim())) return new URL(path.trim()).href;
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

interface Named {
  id: number;
  name: string;
  /** The company a company-scoped row (an expense category) belongs to; null for shared ones. */
  companyId: number | null;
}

interface Lookups {
  /** Name key → every row of that name, per lookup table. */
  byName: Record<LookupTable, Map<string, Named[]>>;
  companyName: Map<number, string>;
}

type LookupTable = 'companies' | 'departments' | 'expenseCategories';
/** A record naming no row of a lookup table. */
const NOT_FOUND: Record<LookupTable, string> = {
  companies: msg('{field}: no company named {name}'),
  departments: msg('{field}: no department named {name}'),
  expenseCategories: msg('{field}: no expense category named {name}'),
};
/** A record naming rows of a lookup table that share the name. */
const AMBIGUOUS: Record<LookupTable, string> = {
  companies: msg('{field}: {name} is ambiguous: {count} companies have that name'),
  departments: msg('{field}: {name} is ambiguous: {count} departments have that name'),
  expenseCategories: msg('{field}: {name} is ambiguous: {count} expense categories have that name'),
};

/** A field's label inside a sentence ('category'), for any reader. */
const labelInText = (label: string) =>
  marked(new Error(label.toLowerCase()), (r) =>
    r.locale === 'en' ? label.toLowerCase() : placedNoun(r.t(label), r.locale, true),
  );

/** Names → rows for the lookups, read once per run. */
async function lookupTables(db: Db): Promise<Lookups> {
  const group = (rows: Named[]) => {
    const map = new Map<string, Named[]>();
    for (const row of rows) map.set(nameKey(row.name), [...(map.get(nameKey(row.name)) ?? []), row]);
    return map;
  };
  const companies = await db.selectFrom('companies').select(['id', 'name']).orderBy('name').execute();
  const departments = await db.selectFrom('departments').select(['id', 'name']).execute();
  const categories = await db.selectFrom('expenseCategories').select(['id', 'name', 'companyId']).execute();
  return {
    byName: {
      companies: group(companies.map((r) => ({ ...r, companyId: r.id }))),
      departments: group(departments.map((r) => ({ ...r, companyId: null }))),
      expenseCategories: group(categories),
    },
    companyName: new Map(companies.map((r) => [r.id, r.name])),
  };
}

/** A record the sync leaves out, with the reason the log shows. */
class Skip extends Error {}

/** A record skipped, for `message` with `values` (its words for every reader: refusal-words.ts). */
const skip = (message: string, values: Record<string, PhraseValue>) => phrased((m) => new Skip(m), message, values);

const quoted = (raw: unknown) => `"${String(raw).slice(0, 80)}"`;

/**
 * The row a name stands for. Company-scoped rows are looked for in `company` when the endpoint
 * or the record names one; without, a name more than one company uses is ambiguous.
 */
function lookup(lookups: Lookups, table: LookupTable, raw: unknown, company: number | null, field: string): number {
  const all = lookups.byName[table].get(nameKey(String(raw))) ?? [];
  const scoped = table === 'expenseCategories' && company !== null;
  const rows = scoped ? all.filter((r) => r.companyId === company) : all;
  if (rows.length === 1) return rows[0].id;
  if (rows.length === 0) {
    const named = { field, name: quoted(raw) };
    throw scoped
      ? skip(msg('{field}: no expense category named {name} in {company}'), {
          ...named,
          company: lookups.companyName.get(company!) ?? `company #${company}`,
        })
      : skip(NOT_FOUND[table], named);
  }
  const owners = [
    ...new Set(
      rows
        .map((r) => (r.companyId === null ? null : (lookups.companyName.get(r.companyId) ?? `#${r.companyId}`)))
        .filter((n) => n !== null),
    ),
  ].sort();
  if (table === 'expenseCategories' && owners.length > 1) {
    throw skip(
      msg(
        "{field}: {name} is ambiguous: {count} companies have an expense category of that name ({owners}); set the endpoint's company or map the record's company",
      ),
      { field, name: quoted(raw), count: owners.length, owners: owners.join(', ') },
    );
  }
  throw skip(AMBIGUOUS[table], { field, name: quoted(raw), count: rows.length });
}

/** The company a record names (a company's name, or its id), by the mapping's `company` path. */
function companyOfRecord(lookups: Lookups, raw: unknown): number | null {
  if (raw === undefined || raw === null || raw === '') return null;
  if (typeof raw === 'number' || /^\d+$/.test(String(raw).trim())) {
    const id = Number(raw);
    if (!lookups.companyName.has(id)) throw skip(msg('company: no company #{id}'), { id: String(raw).slice(0, 20) });
    return id;
  }
  return lookup(lookups, 'companies', raw, null, 'company');
}

function applyRule(
  rule: FieldRuleConfig,
  record: unknown,
  lookups: Lookups,
  field: string,
  company: number | null,
): unknown {
  if (rule.path === undefined) return rule.constant;
  const raw = valueAt(record, rule.path);
  if (raw === undefined || raw === null || raw === '') return null;
  if (rule.lookup) return lookup(lookups, rule.lookup, raw, company, field);
  switch (rule.transform) {
    case 'number':
    case 'cents': {
      const n = typeof raw === 'number' ? raw : Number(String(raw).replace(/[,\s]/g, ''));
      if (!Number.isFinite(n))
        throw skip(msg('{field}: "{value}" is not a number'), { field, value: String(raw).slice(0, 40) });
      return rule.transform === 'cents' ? Math.round(n) / 100 : n;
    }
    case 'date': {
      const d = new Date(String(raw));
      if (Number.isNaN(d.getTime()))
        throw skip(msg('{field}: "{value}" is not a date'), { field, value: String(raw).slice(0, 40) });
      return /^\d{4}-\d{2}-\d{2}/.test(String(raw)) ? String(raw).slice(0, 10) : d.toISOString().slice(0, 10);
    }
    case 'text':
      return String(raw);
    case 'boolean':
      return raw === true || raw === 1 || raw === 'true' || raw === '1' || raw === 'yes';
    default:
      return raw;
  }
}

/** An error in a log's words for a reader: a refusal's field errors each after its field. */
function describeError(error: unknown, reader: Reader = ENGLISH): string {
  if (isDomainError(error) && error.errors?.length)
    return error.errors.map((e) => `${e.field}: ${readerWords(e, e.message, reader)}`).join('; ');
  return readerWords(error as Error, (error as Error).message, reader);
}

async function upsert(
  ctx: ServiceContext,
  def: ResourceDef,
  endpointId: number,
  key: string,
  value: Record<string, unknown>,
): Promise<'created' | 'updated' | 'unchanged'> {
  const link = await ctx.db
    .selectFrom('apiIntegrationRecords')
    .select(['id', 'recordId'])
    .where('endpointId', '=', endpointId)
    .where('externalKey', '=', key)
    .executeTakeFirst();
  if (link) {
    try {
      return await inTransaction(ctx.db, async (trx) => {
        const { changed } = await updateRecordIfChanged({ ...ctx, db: trx }, def, link.recordId, value, {
          reason: REASONS.integrationSync,
        });
        await trx
          .updateTable('apiIntegrationRecords')
          .set({ syncedAt: new Date().toISOString() })
          .where('id', '=', link.id)
          .execute();
        return changed ? 'updated' : 'unchanged';
      });
    } catch (error) {
      // The row it made was deleted since: make it again.
      if (!isDomainError(error) || error.kind !== 'notFound') throw error;
    }
  }
  await inTransaction(ctx.db, async (trx) => {
    const row = await createRecord({ ...ctx, db: trx }, def, value, { reason: REASONS.integrationSync });
    if (link)
      await trx
        .updateTable('apiIntegrationRecords')
        .set({ recordId: row.id, syncedAt: new Date().toISOString() })
        .where('id', '=', link.id)
        .execute();
    else
      await trx
        .insertInto('apiIntegrationRecords')
        .values({ endpointId, externalKey: key, targetTable: def.table, recordId: row.id })
        .execute();
  });
  return 'created';
}

function pageUrl(base: string, mapping: InboundMappingConfig, page: number): string {
  const p = mapping.pagination;
  if (!p || p.type === 'next') return base;
  const url = new URL(base);
  if (p.type === 'page') {
    url.searchParams.set(p.param, String((p.start ?? 1) + page));
    if (p.sizeParam && p.size) url.searchParams.set(p.sizeParam, String(p.size));
  } else {
    url.searchParams.set(p.param, String(page * p.size));
    if (p.limitParam) url.searchParams.set(p.limitParam, String(p.size));
  }
  return url.href;
}

/**
 * A record's row. Its company is the endpoint's, or the one the record names (the mapping's
 * `company` path, or its `companyId` field); when both name one they must agree. Names are looked
 * up within that company, and the row must land in it: a `companyId` column takes it when not
 * mapped, a row whose company comes from a reference (an expense's category) must be that
 * company's, and a table of one named company (Vult's figures) takes no other.
 */
async function mapRecord(
  ctx: ServiceContext,
  def: ResourceDef,
  record: unknown,
  mapping: InboundMappingConfig,
  lookups: Lookups,
  endpointCompany: number | null,
): Promise<Record<string, unknown>> {
  const nameOf = (id: number) => lookups.companyName.get(id) ?? `company #${id}`;
  const named = mapping.company === undefined ? null : companyOfRecord(lookups, valueAt(record, mapping.company));
  if (named !== null && endpointCompany !== null && named !== endpointCompany) {
    throw skip(msg('company: the record names {named} but this endpoint files into {company}'), {
      named: nameOf(named),
      company: nameOf(endpointCompany),
    });
  }
  let company = endpointCompany ?? named;
  const value: Record<string, unknown> = {};
  // The company field first: the names after it are looked up within it.
  const rules = Object.entries(mapping.fields).sort(
    ([a], [b]) => Number(b === 'companyId') - Number(a === 'companyId'),
  );
  for (const [field, rule] of rules) {
    value[field] = applyRule(rule, record, lookups, field, company);
    if (field === 'companyId' && value.companyId !== null && value.companyId !== undefined) {
      const mapped = Number(value.companyId);
      if (company !== null && mapped !== company) {
        const names = { named: nameOf(mapped), company: nameOf(company) };
        throw endpointCompany !== null
          ? skip(msg('companyId: the record names {named} but this endpoint files into {company}'), names)
          : skip(msg('companyId: the record names {named} but its company is {company}'), names);
      }
      company = mapped;
    }
  }
  if (company === null) return value;
  const copiedFrom = companyCopiedFrom(def);
  const onlyCompany = companyNamed(def);
  if (copiedFrom) {
    const ref = value[copiedFrom];
    const field = def.fields.find((f) => f.name === copiedFrom)!;
    if (ref !== null && ref !== undefined && Number.isSafeInteger(Number(ref))) {
      const target = referencedResource(field);
      const row = await dynamic(ctx.db)
        .selectFrom(target.table)
        .select('companyId')
        .where('id', '=', Number(ref))
        .executeTakeFirst();
      if (row && Number(row.companyId) !== company) {
        throw skip(msg('{field}: {noun} #{id} belongs to {owner}, not {company}'), {
          field: copiedFrom,
          noun: labelInText(field.label),
          id: String(Number(ref)),
          owner: nameOf(Number(row.companyId)),
          company: nameOf(company),
        });
      }
    }
  } else if (onlyCompany) {
    if (nameKey(nameOf(company)) !== nameKey(onlyCompany))
      throw skip(msg('company: {table} belong to {only}, not {company}'), {
        // A title is a catalog message: its words are the reader's.
        table: new Error(def.title),
        only: onlyCompany,
        company: nameOf(company),
      });
  } else if (companyColumnOf(def) === 'companyId' && (value.companyId === undefined || value.companyId === null)) {
    value.companyId = company;
  }
  return value;
}

async function pullInbound(
  ctx: ServiceContext,
  options: RequestOptions,
  url: string,
  def: ResourceDef,
  endpoint: { id: number; companyId: number | null },
  mapping: InboundMappingConfig,
  tally: Tally,
  lease: Lease,
): Promise<void> {
  const endpointId = endpoint.id;
  const lookups = await lookupTables(ctx.db);
  let next: string | null = pageUrl(url, mapping, 0);
  for (let page = 0; next && page < mapping.maxPages; page++) {
    lease.check();
    const answer = await requestJson(next, options);
    tally.requests += answer.attempts;
    tally.responseMs += answer.ms;
    const body = answer.body;
    const records =
      mapping.records !== undefined
        ? valueAt(body, mapping.records)
        : Array.isArray(body)
          ? body
          : valueAt(body, 'data');
    if (!Array.isArray(records))
      throw phrased((m) => new SyncFailure(m), msg('The answer has no list of records at "{path}"'), {
        path: mapping.records ?? 'data',
      });
    for (const [index, record] of records.entries()) {
      tally.processed++;
      const rawKey = valueAt(record, mapping.key);
      const key = rawKey === undefined || rawKey === null || rawKey === '' ? null : String(rawKey).slice(0, 255);
      const position = { page: page + 1, record: index + 1 };
      const label = key ?? english('page {page}, record {record}', position);
      try {
        if (key === null) throw skip(msg('no "{key}" key'), { key: mapping.key });
        const value = await mapRecord(ctx, def, record, mapping, lookups, endpoint.companyId);
        tally[await upsert(ctx, def, endpointId, key, value)]++;
      } catch (error) {
        // A record the table refuses is skipped and logged; anything else stops the run (and
        // the record it stopped at counts as failed).
        const fatal = isDomainError(error)
          ? error.kind !== 'invalid' && error.kind !== 'conflict' && error.kind !== 'notFound'
          : !(error instanceof Skip);
        if (fatal) {
          tally.failed++;
          throw error;
        }
        tally.skipped++;
        if (tally.errors.length < KEPT_ERRORS) {
          const words = wordsIn(tally.readers, (r) => describeError(error, r).slice(0, 500));
          const recordWords =
            key === null
              ? wordsIn(tally.readers, (r) => r.t(msg('page {page}, record {record}'), position))
              : undefined;
          tally.errors.push({
            record: label,
            message: describeError(error).slice(0, 500),
            ...(words ? { words } : {}),
            ...(recordWords ? { recordWords } : {}),
          });
        }
      }
    }
    const p = mapping.pagination;
    if (!p) next = null;
    else if (p.type === 'next') {
      const link = valueAt(body, p.path);
      next = typeof link === 'string' && link ? new URL(link, next).href : null;
      // The remote's own link: followed only on the source's origin, whatever it names.
      if (next) assertOnOrigin(next, options.origin, 'next');
    } else {
      next =
        records.length === 0 || (p.size !== undefined && records.length < p.size)
          ? null
          : pageUrl(url, mapping, page + 1);
    }
  }
}

async function pushOutbound(
  ctx: ServiceContext,
  options: RequestOptions,
  url: string,
  method: string,
  def: ResourceDef,
  endpointId: number,
  mappingText: string | null,
  tally: Tally,
  lease: Lease,
): Promise<void> {
  const mapping = parseOutboundMapping(z, mappingText);
  if (!mapping.ok) throw marked(new SyncFailure(mapping.message), mapping.words);
  const last = await ctx.db
    .selectFrom('apiIntegrationSyncLogs')
    .select('startedAt')
    .where('endpointId', '=', endpointId)
    .where('status', 'in', ['success', 'partial'])
    .orderBy('startedAt', 'desc')
    .limit(1)
    .executeTakeFirst();
  let afterId = 0;
  for (;;) {
    lease.check();
    let query = dynamic(ctx.db)
      .selectFrom(def.table)
      .selectAll()
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(mapping.value.batchSize);
    if (last) query = query.where('updatedAt', '>', last.startedAt);
    const rows = await query.execute();
    if (rows.length === 0) return;
    afterId = Number(rows.at(-1)!.id);
    const records = rows.map((row) => {
      const api = toApiRow(def, row);
      const fields = mapping.value.fields;
      return fields
        ? Object.fromEntries(Object.entries(fields).map(([remote, field]) => [remote, api[field] ?? null]))
        : api;
    });
    const answer = await requestJson(url, {
      ...options,
      method: method === 'GET' ? 'POST' : method,
      body: { table: def.table, records },
    });
    tally.requests += answer.attempts;
    tally.responseMs += answer.ms;
    tally.processed += records.length;
    tally.created += records.length;
  }
}

/** How long a claimed run stays its runner's without being renewed (renewed every third of it). */
const LEASE_MS = 60_000;

/** A run's hold on its log. */
interface Lease {
  token: string;
  /** Stops the run between pages when another runner took the log over (this one stalled past the lease). */
  check(): void;
  release(): void;
}

type Claim = { kind: 'claimed'; lease: Lease } | { kind: 'held' } | { kind: 'busy'; logId: number };

/**
 * Claims the log for this run, atomically: the endpoint's row is locked (PostgreSQL; SQLite
 * write transactions run one at a time), so of two claims at once one sees the other's lease.
 * Held: another runner has this log. Busy: another log of the endpoint is being run.
 */
async function claimRun(db: Db, logId: number, endpointId: number): Promise<Claim> {
  const token = crypto.randomUUID();
  const claim = await inTransaction(db, async (trx): Promise<'claimed' | 'held' | { busy: number }> => {
    const now = new Date().toISOString();
    if (dialectOf(trx) === 'postgres')
      await trx.selectFrom('apiIntegrationEndpoints').select('id').where('id', '=', endpointId).forUpdate().execute();
    const other = await trx
      .selectFrom('apiIntegrationSyncLogs')
      .select('id')
      .where('endpointId', '=', endpointId)
      .where('id', '!=', logId)
      .where('status', '=', 'running')
      .where('leaseExpiresAt', '>', now)
      .limit(1)
      .executeTakeFirst();
    if (other) return { busy: other.id };
    const result = await trx
      .updateTable('apiIntegrationSyncLogs')
      .set({ leaseToken: token, leaseExpiresAt: new Date(Date.now() + LEASE_MS).toISOString() })
      .where('id', '=', logId)
      .where('status', '=', 'running')
      .where((eb) => eb.or([eb('leaseExpiresAt', 'is', null), eb('leaseExpiresAt', '<=', now)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0 ? 'claimed' : 'held';
  });
  if (claim === 'held') return { kind: 'held' };
  if (claim !== 'claimed') return { kind: 'busy', logId: claim.busy };
  let lost = false;
  const renew = setInterval(() => {
    db.updateTable('apiIntegrationSyncLogs')
      .set({ leaseExpiresAt: new Date(Date.now() + LEASE_MS).toISOString() })
      .where('id', '=', logId)
      .where('leaseToken', '=', token)
      .where('status', '=', 'running')
      .executeTakeFirst()
      .then((result) => {
        if (Number(result.numUpdatedRows) === 0) lost = true;
      })
      .catch((error: unknown) =>
        console.error(`[integrations] sync #${logId}: renewing its lease failed: ${(error as Error).message}`),
      );
  }, LEASE_MS / 3);
  renew.unref();
  return {
    kind: 'claimed',
    lease: {
      token,
      check: () => {
        if (lost) throw new SyncFailure(msg('Another worker took this run over; this one stopped'));
      },
      release: () => clearInterval(renew),
    },
  };
}

export interface RunOptions {
  resolve?: RequestOptions['resolve'];
  retryDelayMs?: RequestOptions['retryDelayMs'];
  /** Certificates trusted besides the system's (tests' own authority). */
  ca?: string;
}

/**
 * The integration-sync job: runs the run a log stands for. Safe to run twice: a log that is no
 * longer running is left alone, and one another runner holds is left to it.
 */
export async function runSync(
  job: Pick<ServiceContext, 'db' | 'runtime'>,
  settings: IntegrationSettings,
  logId: number,
  options: RunOptions = {},
): Promise<SyncLog> {
  const { db } = job;
  const ctx: ServiceContext = { db, actor: systemActor('integration'), meta: {}, runtime: job.runtime };
  const log = await db.selectFrom('apiIntegrationSyncLogs').selectAll().where('id', '=', logId).executeTakeFirst();
  if (!log) throw notFound();
  if (log.status !== 'running') return getSyncLog(ctx, logId);
  const claim = await claimRun(db, logId, log.endpointId);
  if (claim.kind === 'held') {
    console.warn(`[integrations] sync #${logId} is already being run by another worker: left to it`);
    return getSyncLog(ctx, logId);
  }
  if (claim.kind === 'busy') {
    const busy = (r: Reader) =>
      r.t(msg('Another sync of this endpoint is running (#{id}); this one did not start'), { id: String(claim.logId) });
    const message = busy(ENGLISH);
    const words = wordsIn(otherReaders(job.runtime.translator), busy);
    console.warn(`[integrations] sync #${logId}: ${message}`);
    await db
      .updateTable('apiIntegrationSyncLogs')
      .set({
        status: 'failed',
        completedAt: new Date().toISOString(),
        syncDuration: 0,
        errorMessage: message,
        errorTexts: words ? JSON.stringify(words) : null,
      })
      .where('id', '=', logId)
      .where('status', '=', 'running')
      .execute();
    return getSyncLog(ctx, logId);
  }
  const { lease } = claim;
  const started = Date.now();
  const tally: Tally = {
    processed: 0,
    created: 0,
    updated: 0,
    unchanged: 0,
    skipped: 0,
    failed: 0,
    requests: 0,
    responseMs: 0,
    errors: [],
    readers: otherReaders(job.runtime.translator),
  };
  let failure: string | null = null;
  let failureWords: OtherWords | undefined;
  let endpoint;
  try {
    endpoint = await db
      .selectFrom('apiIntegrationEndpoints as e')
      .innerJoin('apiIntegrationSources as s', 's.id', 'e.sourceId')
      .select([
        'e.id',
        'e.name',
        'e.endpoint',
        'e.method',
        'e.direction',
        'e.targetTable',
        'e.mappingConfig',
        'e.companyId',
        's.id as sourceId',
        's.baseUrl',
        's.authType',
        's.name as sourceName',
      ])
      .where('e.id', '=', log.endpointId)
      .executeTakeFirst();
    if (!endpoint) throw new SyncFailure(msg('The endpoint no longer exists'));
    const def = resourceOfTable(endpoint.targetTable);
    if (!def || def.readOnly)
      throw phrased((m) => new SyncFailure(m), msg('The target table {table} cannot be synced'), {
        table: endpoint.targetTable,
      });
    const origin = originOf(endpoint.baseUrl);
    if (!origin)
      throw phrased((m) => new SyncFailure(m), msg("The source's base URL {url} is not an http(s) address"), {
        url: endpoint.baseUrl.slice(0, 200),
      });
    const url = endpointUrl(endpoint.baseUrl, endpoint.endpoint);
    if (originOf(url) !== origin) {
      throw phrased(
        (m) => new OriginRefused(m),
        msg(
          "The endpoint {endpoint} is not on the source's origin {origin}: an endpoint is a path on the source's base URL (edit it); nothing was sent",
        ),
        { endpoint: endpoint.endpoint.slice(0, 200), origin },
      );
    }
    const credentials = await openCredentials(db, settings, endpoint.sourceId, origin);
    let headers: Record<string, string>;
    try {
      headers = authHeaders(endpoint.authType, credentials);
    } catch (error) {
      const elsewhere = error instanceof SyncFailure ? await credentialsOffOrigin(db, endpoint.sourceId, origin) : 0;
      if (elsewhere)
        throw phrased(
          (m) => new SyncFailure(m),
          msg('{problem}: its credentials were entered for another origin than {origin}; enter them again'),
          { problem: error as Error, origin },
        );
      throw error;
    }
    const request: RequestOptions = {
      headers,
      settings,
      origin,
      resolve: options.resolve,
      retryDelayMs: options.retryDelayMs,
      ca: options.ca,
    };
    if (endpoint.direction === 'inbound') {
      const mapping = parseInboundMapping(z, endpoint.mappingConfig);
      if (!mapping.ok) throw marked(new SyncFailure(mapping.message), mapping.words);
      // A pull reads: GET, unless the endpoint asks for POST (remotes that search by POST).
      // PUT, PATCH and DELETE change data and are never used to read.
      await pullInbound(
        ctx,
        { ...request, method: endpoint.method === 'POST' ? 'POST' : 'GET' },
        url,
        def,
        endpoint,
        mapping.value,
        tally,
        lease,
      );
    } else {
      await pushOutbound(ctx, request, url, endpoint.method, def, endpoint.id, endpoint.mappingConfig, tally, lease);
    }
  } catch (error) {
    if (error instanceof OriginRefused || error instanceof CredentialUnusable)
      console.error(`[integrations] sync #${logId} refused: ${(error as Error).message}`);
    else if (!(
      error instanceof SyncFailure ||
      error instanceof SyncHttpError ||
      error instanceof SecretKeyMissing ||
      isDomainError(error)
    ))
      console.error(`[integrations] sync #${logId}:`, error);
    failure = describeError(error).slice(0, 2000);
    failureWords = wordsIn(tally.readers, (r) => describeError(error, r).slice(0, 2000));
  } finally {
    lease.release();
  }
  const completedAt = new Date().toISOString();
  const status: SyncStatus = failure ? 'failed' : tally.skipped ? 'partial' : 'success';
  // The first skipped record's reason, in the reader's words.
  const firstSkipped = (r: Reader) => {
    const first = tally.errors[0];
    const reason = !first ? '' : r.locale === 'en' ? first.message : (first.words?.[r.locale] ?? first.message);
    return r.t(
      msg('{count, plural, one {# record skipped; first: {reason}} other {# records skipped; first: {reason}}}'),
      {
        count: tally.skipped,
        reason,
      },
    );
  };
  const skippedNote = tally.skipped ? firstSkipped(PLAIN_ENGLISH).slice(0, 2000) : null;
  const noteWords = failure ? failureWords : tally.skipped ? wordsIn(tally.readers, firstSkipped) : undefined;
  const written = await db
    .updateTable('apiIntegrationSyncLogs')
    .set({
      status,
      completedAt,
      recordsProcessed: tally.processed,
      recordsCreated: tally.created,
      recordsUpdated: tally.updated,
      recordsSkipped: tally.skipped,
      recordsFailed: tally.failed,
      requests: tally.requests,
      syncDuration: Date.now() - started,
      responseTime: tally.requests ? Math.round(tally.responseMs / tally.requests) : null,
      errorMessage: failure ?? skippedNote,
      errorTexts: noteWords ? JSON.stringify(noteWords) : null,
      syncData: tally.errors.length ? JSON.stringify({ errors: tally.errors }) : null,
      leaseExpiresAt: null,
    })
    .where('id', '=', logId)
    .where('status', '=', 'running')
    .where('leaseToken', '=', lease.token)
    .executeTakeFirst();
  // Taken over meanwhile: the runner that holds the log now writes its end.
  if (Number(written.numUpdatedRows) === 0) return getSyncLog(ctx, logId);
  if (endpoint)
    await db
      .updateTable('apiIntegrationEndpoints')
      .set({ lastSyncAt: completedAt })
      .where('id', '=', endpoint.id)
      .execute();
  if (failure && endpoint)
    await integrationSyncFailed(ctx, {
      logId,
      endpointName: endpoint.name,
      sourceName: endpoint.sourceName,
      message: failure,
      words: failureWords,
    });
  else if (status === 'partial' && endpoint)
    await integrationSyncPartial(ctx, {
      logId,
      endpointName: endpoint.name,
      sourceName: endpoint.sourceName,
      skipped: tally.skipped,
      first: tally.errors[0]?.message ?? '',
      firstWords: tally.errors[0]?.words,
    });
  return getSyncLog(ctx, logId);
}

// ---------------------------------------------------------------------------------------------
// Logs

/**
 * A log as the /api answers it (English), or as a screen's reader reads it (`locale`): the
 * error and the skipped records' reasons in the words the run kept for that language.
 */
function toSyncLog(row: Record<string, unknown>, locale: Locale = 'en'): SyncLog {
  let syncData: SyncLog['syncData'] = null;
  try {
    const kept = row.syncData ? (JSON.parse(String(row.syncData)) as { errors: KeptError[] }) : null;
    syncData = kept && {
      errors: kept.errors.map((e) => ({
        record: storedWords(e.record, e.recordWords, locale),
        message: storedWords(e.message, e.words, locale),
      })),
    };
  } catch {
    syncData = null;
  }
  const n = (v: unknown) => Number(v ?? 0);
  const startedAt = String(row.startedAt);
  const completedAt = (row.completedAt as string | null) ?? null;
  return {
    id: n(row.id),
    endpointId: n(row.endpointId),
    endpointName: (row.endpointName as string | null) ?? null,
    sourceName: (row.sourceName as string | null) ?? null,
    status: row.status as SyncLog['status'],
    startedAt,
    completedAt,
    recordsProcessed: n(row.recordsProcessed),
    recordsCreated: n(row.recordsCreated),
    recordsUpdated: n(row.recordsUpdated),
    // Not stored: what the run processed and neither created, updated, skipped nor failed.
    recordsUnchanged: Math.max(
      0,
      n(row.recordsProcessed) -
        n(row.recordsCreated) -
        n(row.recordsUpdated) -
        n(row.recordsSkipped) -
        n(row.recordsFailed),
    ),
    recordsSkipped: n(row.recordsSkipped),
    recordsFailed: n(row.recordsFailed),
    requests: n(row.requests),
    syncDuration: row.syncDuration === null || row.syncDuration === undefined ? null : n(row.syncDuration),
    responseTime: row.responseTime === null || row.responseTime === undefined ? null : n(row.responseTime),
    errorMessage:
      row.errorMessage === null || row.errorMessage === undefined
        ? null
        : storedWords(String(row.errorMessage), parsedWords(row.errorTexts as string | null), locale),
    syncData,
    triggeredBy: row.triggeredBy === null || row.triggeredBy === undefined ? null : n(row.triggeredBy),
    timestamp: completedAt ?? startedAt,
  };
}

const logs = (db: Db) =>
  db
    .selectFrom('apiIntegrationSyncLogs as l')
    .leftJoin('apiIntegrationEndpoints as e', 'e.id', 'l.endpointId')
    .leftJoin('apiIntegrationSources as s', 's.id', 'e.sourceId')
    .selectAll('l')
    .select(['e.name as endpointName', 's.name as sourceName']);

export async function getSyncLog(ctx: ServiceContext, id: number): Promise<SyncLog> {
  requirePermission(ctx, 'integrations');
  const row = await logs(ctx.db).where('l.id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  return toSyncLog(row);
}

export const SyncLogQuery = z.object({
  limit: z.preprocess(
    (v) => (v === undefined || v === '' ? 50 : Number(v)),
    z
      .number({ error: 'limit must be a whole number from 1 to 200' })
      .int('limit must be a whole number from 1 to 200')
      .min(1, 'limit must be a whole number from 1 to 200')
      .max(200, 'limit must be a whole number from 1 to 200'),
  ),
  offset: z.preprocess(
    (v) => (v === undefined || v === '' ? 0 : Number(v)),
    z
      .number({ error: 'offset must be a whole number of 0 or more' })
      .int('offset must be a whole number of 0 or more')
      .min(0, 'offset must be a whole number of 0 or more')
      .max(1_000_000_000),
  ),
  endpointId: z.preprocess(
    (v) => (v === undefined || v === '' ? undefined : Number(v)),
    z.number({ error: 'endpointId must be an id' }).int().positive().max(2_147_483_647).optional(),
  ),
});

/** GET /api/api-integration-sync-logs and /api/api-integrations/sync-logs: newest first. */
export async function listSyncLogs(
  ctx: ServiceContext,
  input: Record<string, unknown>,
  locale: Locale = 'en',
): Promise<{ rows: SyncLog[]; total: number; limit: number; offset: number }> {
  requirePermission(ctx, 'integrations');
  const parsed = SyncLogQuery.safeParse(input);
  if (!parsed.success)
    throw invalid(parsed.error.issues.map((i) => ({ field: String(i.path[0] ?? 'query'), message: i.message })));
  const { limit, offset, endpointId } = parsed.data;
  let count = ctx.db.selectFrom('apiIntegrationSyncLogs').select((eb) => eb.fn.countAll<number>().as('n'));
  let page = logs(ctx.db).orderBy('l.startedAt', 'desc').orderBy('l.id', 'desc').limit(limit).offset(offset);
  if (endpointId !== undefined) {
    count = count.where('endpointId', '=', endpointId);
    page = page.where('l.endpointId', '=', endpointId);
  }
  const [total, rows] = await Promise.all([count.executeTakeFirstOrThrow(), page.execute()]);
  return { rows: rows.map((row) => toSyncLog(row, locale)), total: Number(total.n), limit, offset };
}

/**
 * Runs left `running` by a crash are failed ('Interrupted by restart'); returns their ids. With
 * `olderThan` (other workers may be alive), a run whose lease is still renewed is left to it.
 */
export async function failInterruptedSyncs(
  db: Db,
  reason: string,
  options: { olderThan?: Date; readers?: readonly Reader[] } = {},
): Promise<number[]> {
  const now = new Date().toISOString();
  const words = wordsIn(options.readers ?? [], (r) => r.t(reason));
  let update = db
    .updateTable('apiIntegrationSyncLogs')
    .set({
      status: 'failed',
      completedAt: now,
      errorMessage: reason,
      errorTexts: words ? JSON.stringify(words) : null,
      leaseExpiresAt: null,
    })
    .where('status', '=', 'running');
  if (options.olderThan) {
    update = update
      .where('startedAt', '<', options.olderThan.toISOString())
      .where((eb) => eb.or([eb('leaseExpiresAt', 'is', null), eb('leaseExpiresAt', '<', now)]));
  }
  return (await update.returning('id').execute()).map((r) => r.id);
}

// ---------------------------------------------------------------------------------------------
// The schedule

const INTERVALS: Record<string, number> = { hourly: 3_600_000, daily: 86_400_000 };

/** Whether an endpoint of this frequency whose last run started at `last` is due at `now`. */
export function isDue(frequency: string, last: Date | null, created: Date, now: Date): boolean {
  if (frequency === 'manual') return false;
  const interval = INTERVALS[frequency];
  if (interval) return !last || now.getTime() - last.getTime() >= interval;
  try {
    const next = CronExpressionParser.parse(frequency, { currentDate: last ?? created, tz: 'UTC' })
      .next()
      .toDate();
    return next.getTime() <= now.getTime();
  } catch {
    return false;
  }
}

/** The integration-schedule job: starts a run of every active endpoint that is due and not running. */
export async function startDueSyncs(
  job: Pick<ServiceContext, 'db' | 'runtime'>,
  settings: IntegrationSettings,
  now = new Date(),
): Promise<number[]> {
  const { db } = job;
  const ctx: ServiceContext = { db, actor: systemActor('worker'), meta: {}, runtime: job.runtime };
  const endpoints = await db
    .selectFrom('apiIntegrationEndpoints as e')
    .innerJoin('apiIntegrationSources as s', 's.id', 'e.sourceId')
    .select(['e.id', 'e.syncFrequency', 'e.createdAt'])
    .where('e.isActive', '=', true)
    .where('s.isActive', '=', true)
    .where('e.syncFrequency', '!=', 'manual')
    .execute();
  const started: number[] = [];
  for (const endpoint of endpoints) {
    const last = await db
      .selectFrom('apiIntegrationSyncLogs')
      .select(['status', 'startedAt'])
      .where('endpointId', '=', endpoint.id)
      .orderBy('startedAt', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (last?.status === 'running') continue;
    if (!isDue(endpoint.syncFrequency, last ? new Date(last.startedAt) : null, new Date(endpoint.createdAt), now))
      continue;
    started.push((await requestSync(ctx, settings, endpoint.id)).id);
  }
  return started;
}

/** The API Integration screen's sync button (intent sync): the endpoint. */
export const SyncForm = z.object({ id: z.number().int().positive().max(MAX_ID) });
