import { json } from '../http/api.server.ts';

// Unknown /api paths answer JSON, never the HTML 404 page.
const notFound = () => json({ message: 'Resource not found' }, { status: 404 });
export const loader = notFound;
export const action = notFound;
