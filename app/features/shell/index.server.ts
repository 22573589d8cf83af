// What other areas use of shell on the server (services, job definitions). Areas import each
// other through their index files only (docs/architecture.md).
export { documentLoader } from './document.server.ts';
export { requestI18n, type RequestI18n } from './request-i18n.server.ts';
export { messageFileLoader, SOME_MESSAGE_FILE } from './message-file-route.server.ts';
