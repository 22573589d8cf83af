// GET, PUT and DELETE on one row of a declared resource (/api/budgets/12).
import { apiItemRoute } from '../platform/api/resource-api.server.ts';
import { RESOURCE_LIST } from '../features/resources.ts';

export const { loader, action, access } = apiItemRoute(RESOURCE_LIST);
