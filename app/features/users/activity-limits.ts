// Limits of the activity figures that screens quote, apart from the schemas so a screen that
// names them loads no zod.

/**
 * My Dashboard judges accuracy and department frequency on at most this many of the editor's
 * latest entries, so its cost stays the same however busy they are.
 */
export const EXAMINED_ENTRIES = 200;
