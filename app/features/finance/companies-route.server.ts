// The /companies route's server half: the generic resource loader, form and delete flow of
// the companies.
import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { resourceAction, resourceLoader } from '../../platform/resources/resource-screen.server.ts';
import { resourceScreenAccess } from '../../platform/screen/route-access.ts';
import { companies } from './companies.ts';
import { requestI18n } from '../shell/index.server.ts';

export const access = resourceScreenAccess(companies);
export const loader = (args: LoaderFunctionArgs) => resourceLoader(companies, args);
export const action = (args: ActionFunctionArgs) => resourceAction(companies, args, { i18n: requestI18n });
