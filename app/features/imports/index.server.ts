// What other areas use of imports on the server. Areas import each other through their index
// files only (docs/architecture.md).
export { ImportAnswer } from './answers.ts';
export { ImportRequest } from './imports-api.server.ts';
