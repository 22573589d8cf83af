// The Settings page's form schemas for its action, through a `.server` module: the browser build
// leaves it empty, so the page does not load zod (esbuild gives every page whose module graph
// imports zod its whole chunk, used or not).
export { SETTINGS_FORMS } from './user-settings-schema.ts';
