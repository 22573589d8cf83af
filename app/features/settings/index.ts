// What other areas use of settings in screens and shared code (schemas, components, types). Areas
// import each other through their index files only (docs/architecture.md).
export { StatusBadge } from './controls.tsx';
export { SettingsGear } from './quick-settings.tsx';
export { appearanceClasses, type AppearanceSettings } from './user-settings.ts';
