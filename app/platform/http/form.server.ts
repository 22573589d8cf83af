// Reading form posts: a body that is not a form is the client's mistake (400), not ours.
import { json } from '@remix-run/node';

export async function readFormData(request: Request): Promise<FormData> {
  try {
    return await request.formData();
  } catch {
    throw json(
      { message: 'Invalid data', errors: [{ field: 'body', message: 'Expected a form submission' }] },
      { status: 400 },
    );
  }
}
