// Facts of this installation the API Documentation screen quotes beside the document.
import type { Db } from '../../platform/context.ts';

/** How many shared departments there are (the header line names them). */
export async function departmentCount(db: Db): Promise<number> {
  const row = await db
    .selectFrom('departments')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
