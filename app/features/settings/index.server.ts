// What other areas use of settings on the server (services, schemas). Areas import each
// other through their index files only (docs/architecture.md).
export { UserSettingsAnswer } from './answers.ts';
export { ProfileSchema } from './profile-schemas.ts';
export { UserSettingsPatchSchema } from './user-settings-schema.ts';
export { appearanceOf, findUserSettings, getUserSettings } from './user-settings.server.ts';
