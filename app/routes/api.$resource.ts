// GET and POST on every declared resource collection (/api/budgets, /api/companies, …).
import { apiCollectionRoute } from '../platform/api/resource-api.server.ts';
import { RESOURCE_LIST } from '../features/resources.ts';

export const { loader, action, access } = apiCollectionRoute(RESOURCE_LIST);
