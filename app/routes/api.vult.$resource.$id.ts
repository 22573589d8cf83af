// GET, PUT and DELETE on one row under the /api/vult/… spellings (/api/vult/card-types/12).
import { apiItemRoute } from '../platform/api/resource-api.server.ts';
import { RESOURCE_LIST } from '../features/resources.ts';

export const { loader, action, access } = apiItemRoute(RESOURCE_LIST, 'vult');
