// Every endpoint with its source, as `finhub integrations list` shows them (the system actor
// sees all), ordered by source and endpoint name.
import type { Db } from '../../platform/context.ts';

export function listEndpointOverview(db: Db) {
  return db
    .selectFrom('apiIntegrationEndpoints as e')
    .innerJoin('apiIntegrationSources as s', 's.id', 'e.sourceId')
    .select([
      'e.id',
      's.name as source',
      'e.name',
      'e.method',
      'e.endpoint',
      'e.direction',
      'e.targetTable',
      'e.syncFrequency',
      'e.isActive',
      's.isActive as sourceActive',
      'e.lastSyncAt',
    ])
    .orderBy('s.name')
    .orderBy('e.name')
    .execute();
}
