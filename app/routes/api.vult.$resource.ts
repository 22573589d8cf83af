// GET and POST on the /api/vult/… spellings of Vult's resources: the same data and
// services as /api/vult-…; GET /api/vult/subscriber-metrics answers the latest row.
import { apiCollectionRoute } from '../platform/api/resource-api.server.ts';
import { RESOURCE_LIST } from '../features/resources.ts';

export const { loader, action, access } = apiCollectionRoute(RESOURCE_LIST, 'vult');
