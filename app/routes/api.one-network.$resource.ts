// GET and POST on One Network's monthly records (/api/one-network/broadband-connections, …).
import { apiCollectionRoute } from '../http/resource-api.server.ts';
import { RESOURCE_LIST } from '../resources/index.ts';

export const { loader, action, access } = apiCollectionRoute(RESOURCE_LIST, 'one-network');
