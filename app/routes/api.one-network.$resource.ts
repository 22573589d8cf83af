// GET and POST on One Network's monthly records (/api/one-network/broadband-connections, …).
import { apiCollectionRoute } from '../platform/api/resource-api.server.ts';
import { RESOURCE_LIST } from '../features/resources.ts';

export const { loader, action, access } = apiCollectionRoute(RESOURCE_LIST, 'one-network');
