// The resource form for the server render of the list screens (resource-form-slot.tsx): a
// `.server` module, so the browser build leaves it empty and loads the form on demand instead.
export { ResourceForm } from './resource-form.tsx';
