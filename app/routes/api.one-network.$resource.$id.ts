// GET, PUT and DELETE on one of One Network's monthly records (/api/one-network/…/12).
import { apiItemRoute } from '../platform/api/resource-api.server.ts';
import { RESOURCE_LIST } from '../features/resources.ts';

export const { loader, action, access } = apiItemRoute(RESOURCE_LIST, 'one-network');
