// What other areas use of settings on the server (services, job definitions). Areas import each
// other through their index files only (docs/architecture.md).
export { appearanceOf, findUserSettings, getUserSettings } from './user-settings.server.ts';
