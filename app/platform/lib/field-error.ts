/** One field's message: what a 400 lists in `errors` and what a form shows beside the field. */
export type FieldError = { field: string; message: string };
