// `finhub jobs run <name>`: one job's handler now, in this process, without the queue. The CLI
// never needs the queue, and in embedded mode the queue belongs to the web process.
import { findJob } from '../../features/jobs.ts';
import { systemActor, type Actor, type Db } from '../context.ts';
import type { JobContext } from './handler.ts';
import { registry } from '../../../worker/registry.ts';
import { backupSettingsFrom, integrationSettingsFrom, openAiSettingsFrom, pushSettingsFrom, type BackupSettings, type IntegrationSettings, type OpenAiSettings, type PushSettings } from '../config.server.ts';

export async function runJobNow(
  name: string,
  payload: unknown,
  ctx: { db: Db; dataDir: string; backups?: BackupSettings; push?: PushSettings; integrations?: IntegrationSettings; openai?: OpenAiSettings | null; actor?: Actor; log?: (message: string) => void },
): Promise<unknown> {
  const job = findJob(name, registry);
  if (!job) throw new Error(`Unknown job: ${name} (known: ${registry.map((j) => j.name).join(', ')})`);
  const data = job.payload.parse(payload ?? {});
  const context: JobContext = {
    db: ctx.db,
    actor: ctx.actor ?? systemActor('cli'),
    meta: {},
    dataDir: ctx.dataDir,
    backups: ctx.backups ?? backupSettingsFrom({ ...process.env, DATA_DIR: ctx.dataDir }),
    push: ctx.push ?? pushSettingsFrom({ ...process.env, DATA_DIR: ctx.dataDir }),
    integrations: ctx.integrations ?? integrationSettingsFrom({ ...process.env, DATA_DIR: ctx.dataDir }),
    openai: ctx.openai === undefined ? openAiSettingsFrom(process.env) : ctx.openai,
    job: { id: `direct-${Date.now()}`, name, retryCount: 0 },
    log: ctx.log ?? (() => {}),
  };
  return job.handler(data, context);
}
