// finhub integrations list | sync <endpointId> | rotate-key
// API integrations from the command line: thin commands over the integration services, as the
// system actor `cli`. `sync` runs in this process to its end (no job engine needed); `rotate-key`
// re-seals every credential under ENCRYPTION_KEY (set PREVIOUS_ENCRYPTION_KEY to the old key),
// with the origin it is bound to (credentials sealed before origins were bound included), and the
// users' two-factor secrets; one that does not open is named and the command exits 1.
import type { Command } from 'commander';
import { rotateCredentialKey } from './integration-credentials.server.ts';
import { resealTwoFactorSecrets } from '../auth/index.server.ts';
import { syncNow } from './integration-sync.server.ts';
import { isDomainError, notFound } from '../../platform/errors.ts';
import { listEndpointOverview } from './endpoint-overview.server.ts';
import {
  createOutput,
  positiveInteger,
  ReportedFailure,
  withDatabase,
  type GlobalOptions,
} from '../../../cli/runtime.ts';

export function registerIntegrations(program: Command): void {
  const integrations = program
    .command('integrations')
    .description('list API integration endpoints, run a sync, rotate the credential key');

  integrations
    .command('list')
    .description('list the endpoints with their source, direction, target table, frequency and last sync')
    .action(async (_options: unknown, command: Command) => {
      const out = createOutput(command.optsWithGlobals<GlobalOptions>());
      await withDatabase(async ({ ctx }) => {
        const rows = await listEndpointOverview(ctx.db);
        await out.table(
          [
            { key: 'id', label: 'Id' },
            { key: 'source', label: 'Source' },
            { key: 'name', label: 'Endpoint' },
            { key: 'request', label: 'Request' },
            { key: 'direction', label: 'Direction' },
            { key: 'targetTable', label: 'Target' },
            { key: 'syncFrequency', label: 'Frequency' },
            { key: 'status', label: 'Status' },
            { key: 'lastSync', label: 'Last sync' },
          ],
          rows.map((r) => ({
            ...r,
            request: `${r.method} ${r.endpoint}`,
            status: r.isActive && r.sourceActive ? 'active' : 'inactive',
            lastSync: r.lastSyncAt ?? 'never',
          })),
          rows,
        );
      });
    });

  integrations
    .command('sync')
    .description('run one sync of an endpoint now, in this process, and print its log')
    .argument('<endpointId>', 'the endpoint id (finhub integrations list)', positiveInteger('<endpointId>'))
    .action(async (endpointId: number, _options: unknown, command: Command) => {
      const out = createOutput(command.optsWithGlobals<GlobalOptions>());
      await withDatabase(async ({ ctx, config }) => {
        const log = await syncNow(ctx, config.integrations, endpointId).catch((error: unknown) => {
          throw isDomainError(error) && error.kind === 'notFound' ? notFound(`No endpoint ${endpointId}`) : error;
        });
        const counts = `${log.recordsProcessed} processed, ${log.recordsCreated} created, ${log.recordsUpdated} updated, ${log.recordsUnchanged} unchanged, ${log.recordsSkipped} skipped`;
        const skipped = (log.syncData?.errors ?? []).map((e) => `  skipped ${e.record}: ${e.message}`);
        const message = log.status === 'failed' || !skipped.length ? (log.errorMessage ? [log.errorMessage] : []) : [];
        out.result(log, [
          `Sync #${log.id} of ${log.endpointName ?? `endpoint ${endpointId}`}: ${log.status} (${counts}) in ${log.syncDuration ?? 0} ms`,
          ...message,
          ...skipped,
        ]);
        if (log.status === 'failed') throw new ReportedFailure(`sync #${log.id} failed`);
      });
    });

  integrations
    .command('rotate-key')
    .description('re-seal every stored credential under ENCRYPTION_KEY (the old key as PREVIOUS_ENCRYPTION_KEY)')
    .action(async (_options: unknown, command: Command) => {
      const out = createOutput(command.optsWithGlobals<GlobalOptions>());
      await withDatabase(async ({ ctx, config }) => {
        const { rotated, total, unusable } = await rotateCredentialKey(ctx.db, config.integrations);
        // Second factors are sealed under the same key.
        const secondFactors = await resealTwoFactorSecrets(ctx.db, config.integrations.keys);
        const lines = [
          `${rotated} of ${total} credential${total === 1 ? '' : 's'} re-sealed under the current ENCRYPTION_KEY`,
        ];
        if (unusable.length)
          lines.push(
            `${unusable.length} do not open for the origin they are bound to (altered or moved; ids ${unusable.join(', ')}): they are never used, enter them again`,
          );
        lines.push(
          `two-factor secrets: ${secondFactors.rotated} re-sealed, ${secondFactors.unusable} that open under neither key`,
        );
        out.result({ rotated, total, unusable, twoFactorSecrets: secondFactors }, lines);
        if (secondFactors.unusable)
          throw new ReportedFailure(
            `${secondFactors.unusable} two-factor secret${secondFactors.unusable === 1 ? '' : 's'} could not be re-sealed: reset those users' two-factor (finhub users reset-two-factor)`,
          );
        if (unusable.length)
          throw new ReportedFailure(
            `${unusable.length} credential${unusable.length === 1 ? '' : 's'} could not be re-sealed`,
          );
      });
    });
}
