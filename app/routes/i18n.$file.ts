import { allow, type RouteAccess } from '../platform/screen/route-access.ts';
import { SOME_MESSAGE_FILE } from '../features/shell/index.server.ts';

export { messageFileLoader as loader } from '../features/shell/index.server.ts';

/** The message files are the same for everybody. */
export const access: RouteAccess = [{ methods: { GET: allow.public }, params: { file: SOME_MESSAGE_FILE } }];
