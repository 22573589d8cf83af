// The "User" filter of the Audit Trail and of User Management's Activity History: a list of
// the users a reader may filter by while they are few; past USER_CHOICES_MAX a text box taking
// a username or e-mail (a list of hundreds of names is no use, and it made the page as large as
// the list). A reader limited to one company filters by that company's users only.
import type { Db } from '../../platform/context.ts';

/** Users listed in the filter at most; with more, it is a text box. */
export const USER_CHOICES_MAX = 50;

export interface UserChoice {
  value: string;
  label: string;
}

const choiceOf = (u: { id: number; username: string; fullName: string | null }): UserChoice => ({
  value: String(u.id),
  label: u.fullName ? `${u.fullName} (${u.username})` : u.username,
});

/** Every user (active or not: their entries stay) the reader may filter by, by username; null past the limit. */
export async function userChoices(db: Db, scope: number | null): Promise<UserChoice[] | null> {
  const rows = await db
    .selectFrom('users')
    .select(['id', 'username', 'fullName'])
    .$if(scope !== null, (q) => q.where('companyId', '=', scope!))
    .orderBy('username')
    .orderBy('id')
    .limit(USER_CHOICES_MAX + 1)
    .execute();
  return rows.length > USER_CHOICES_MAX ? null : rows.map(choiceOf);
}

/** The user a filter names: their id, username or e-mail address (any case); null when none matches. */
export async function userNamed(
  db: Db,
  scope: number | null,
  text: string,
): Promise<(UserChoice & { username: string }) | null> {
  const wanted = text.trim();
  if (!wanted) return null;
  const id = /^\d{1,9}$/.test(wanted) ? Number(wanted) : null;
  const row = await db
    .selectFrom('users')
    .select(['id', 'username', 'fullName'])
    .where((eb) => {
      const named = [
        eb(eb.fn('lower', ['username']), '=', wanted.toLowerCase()),
        eb(eb.fn('lower', ['email']), '=', wanted.toLowerCase()),
      ];
      return eb.or(id !== null ? [...named, eb('id', '=', id)] : named);
    })
    .$if(scope !== null, (q) => q.where('companyId', '=', scope!))
    .orderBy('id')
    .executeTakeFirst();
  return row ? { ...choiceOf(row), username: row.username } : null;
}
