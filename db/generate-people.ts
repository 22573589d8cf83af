// The users `finhub db generate` adds (db/generate-activity.ts): every role, most of them scoped
// to one company, named, placed and flagged as a finance team's accounts would be, with password
// hashes of passwords nobody knows (the accounts exist but cannot sign in). And what the history
// needs of each: an address, a browser, a session per working day, a share of the work.
import type { DatabaseHandle } from './client.ts';
import { mulberry32 } from './seed/demo.ts';
import { createMissingUserSettings } from './user-settings-rows.ts';

export type Rng = () => number;
const DAY = 86_400_000;

export type Role = 'owner' | 'admin' | 'editor' | 'viewer';
export interface Person {
  id: number;
  username: string;
  email: string;
  role: Role;
  companyId: number | null;
  isActive: boolean;
  createdMs: number;
  ip: string;
  agent: string;
  /** Relative share of sign-ins and edits. */
  weight: number;
  logins: number;
  lastLoginMs: number;
}

const FIRST_NAMES = [
  'Olivia',
  'Liam',
  'Emma',
  'Noah',
  'Ava',
  'Lucas',
  'Sofia',
  'Mateo',
  'Mia',
  'Elias',
  'Amelia',
  'Leon',
  'Chloé',
  'Hugo',
  'Zoe',
  'Adam',
  'Léa',
  'Omar',
  'Nina',
  'Ivan',
  'Sara',
  'Jonas',
  'Maya',
  'Arjun',
  'Priya',
  'Wei',
  'Yuki',
  'Fatima',
  'Diego',
  'Laura',
  'Marco',
  'Anna',
  'Pierre',
  'Inês',
  'Tomás',
  'Elena',
  'Kofi',
  'Amara',
  'Lars',
  'Ingrid',
];
const LAST_NAMES = [
  'Smith',
  'García',
  'Müller',
  'Martin',
  'Rossi',
  'Kowalski',
  'Nguyen',
  'Okafor',
  'Silva',
  'Dubois',
  'Jensen',
  'Novak',
  'Cohen',
  'Haddad',
  'Tanaka',
  'Patel',
  'Kim',
  'Schmidt',
  'López',
  'Moreau',
  'Berg',
  'Costa',
  'Ivanova',
  'Mensah',
  'Larsen',
  'Fischer',
  'Romero',
  'Weber',
  'Santos',
  'Ahmed',
];
const POSITIONS: Record<Role, string[]> = {
  owner: ['Group CFO', 'Chief Executive Officer'],
  admin: ['Finance Systems Administrator', 'Head of Finance Operations', 'IT Administrator', 'Financial Controller'],
  editor: [
    'Accountant',
    'Financial Analyst',
    'Accounts Payable Clerk',
    'Budget Controller',
    'Revenue Analyst',
    'Payroll Specialist',
  ],
  viewer: [
    'Department Manager',
    'Internal Auditor',
    'Business Analyst',
    'Sales Manager',
    'Operations Manager',
    'Project Manager',
  ],
};
export const AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:132.0) Gecko/20100101 Firefox/132.0',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
];
const FLAGS = [
  'can_access_financial_data',
  'can_access_subscriber_data',
  'can_access_api_integrations',
  'can_access_analytics',
  'can_access_audit_logs',
  'can_access_backups',
  'can_create',
  'can_edit',
  'can_delete',
  'can_manage_users',
];
/** Flags some users of a role hold beyond its baseline, and how often. */
const EXTRA_FLAGS: Record<Role, [string, number][]> = {
  owner: [],
  admin: [],
  editor: [
    ['can_delete', 0.3],
    ['can_access_analytics', 0.25],
    ['can_access_audit_logs', 0.1],
  ],
  viewer: [
    ['can_access_analytics', 0.15],
    ['can_access_audit_logs', 0.05],
  ],
};
const WEIGHT: Record<Role, number> = { owner: 2, admin: 3, editor: 6, viewer: 1 };

export const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)];
const ascii = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[^A-Za-z]/g, '')
    .toLowerCase();
const slug = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

function roleOf(rng: Rng): Role {
  const r = rng();
  return r < 0.01 ? 'owner' : r < 0.06 ? 'admin' : r < 0.41 ? 'editor' : 'viewer';
}

/** A session id per user and day (a working day's entries share their session). */
export function sessionIdOf(userId: number, dayNumber: number): string {
  const rng = mulberry32(Math.imul(userId, 0x9e3779b1) ^ dayNumber);
  const hex = Array.from({ length: 4 }, () =>
    Math.floor(rng() * 2 ** 32)
      .toString(16)
      .padStart(8, '0'),
  ).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A stored argon2id hash of a password nobody knows: the account exists but cannot sign in. */
function unusableHash(rng: Rng): string {
  const b64 = (n: number) =>
    Buffer.from(Array.from({ length: n }, () => Math.floor(rng() * 256)))
      .toString('base64')
      .replace(/=+$/, '');
  return `$argon2id$v=19$m=19456,t=2,p=1$${b64(16)}$${b64(32)}`;
}

export async function createUsers(
  handle: DatabaseHandle,
  count: number,
  rng: Rng,
  start: number,
  now: number,
): Promise<{ people: Person[]; rows: Record<string, unknown>[] }> {
  if (count <= 0) return { people: [], rows: [] };
  const companies = await handle.db.selectFrom('companies').select(['id', 'name']).orderBy('id').execute();
  const taken = await handle.db.selectFrom('users').select(['username', 'email']).execute();
  const usernames = new Set(taken.map((u) => u.username.toLowerCase()));
  const emails = new Set(taken.map((u) => u.email.toLowerCase()));
  const owner = await handle.db
    .selectFrom('users')
    .select('id')
    .where('role', '=', 'owner')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  const values: Record<string, unknown>[] = [];
  for (let i = 0; i < count; i++) {
    const role = roleOf(rng);
    const scoped = role === 'owner' ? false : role === 'admin' ? rng() < 0.5 : rng() < 0.85;
    const company = scoped && companies.length ? pick(rng, companies) : null;
    const first = pick(rng, FIRST_NAMES);
    const last = pick(rng, LAST_NAMES);
    let username = `${ascii(first)}.${ascii(last)}`;
    for (let n = 2; usernames.has(username); n++) username = `${ascii(first)}.${ascii(last)}${n}`;
    usernames.add(username);
    const domain = company ? `${slug(company.name)}.example` : 'group.example';
    let email = `${username}@${domain}`;
    for (let n = 2; emails.has(email); n++) email = `${username}${n}@${domain}`;
    emails.add(email);
    // Most accounts predate the generated history; some joined during it.
    const createdMs =
      rng() < 0.8 ? start - Math.floor(rng() * 365) * DAY : start + Math.floor(rng() * (now - start) * 0.9);
    const created = new Date(createdMs + Math.floor(rng() * DAY)).toISOString();
    const flags = Object.fromEntries(FLAGS.map((f) => [f, false]));
    for (const [flag, share] of EXTRA_FLAGS[role]) if (rng() < share) flags[flag] = true;
    values.push({
      username,
      email,
      password_hash: unusableHash(rng),
      role,
      full_name: `${first} ${last}`,
      position: pick(rng, POSITIONS[role]),
      phone_number:
        rng() < 0.6
          ? `+1 555 ${String(100 + Math.floor(rng() * 900))} ${String(1000 + Math.floor(rng() * 9000))}`
          : null,
      is_active: rng() < 0.92,
      is_temporary_password: false,
      password_change_required: false,
      password_changed_at: created,
      company_id: company?.id ?? null,
      created_by: owner?.id ?? null,
      created_at: created,
      updated_at: created,
      ...flags,
    });
  }
  // Through Kysely (its plugins store booleans and names as each dialect wants): a few hundred rows.
  const camel = (row: Record<string, unknown>) =>
    Object.fromEntries(
      Object.entries(row).map(([k, v]) => [k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()), v]),
    );
  const inserted: { id: number }[] = [];
  for (let i = 0; i < values.length; i += 100) {
    inserted.push(
      ...(await handle.db
        .insertInto('users')
        .values(values.slice(i, i + 100).map(camel) as never)
        .returning('id')
        .execute()),
    );
  }
  // Every user has a settings row (the defaults), as one created through the app has.
  await createMissingUserSettings(handle.db);
  const people = values.map((v, i) => ({
    id: inserted[i].id,
    username: v.username as string,
    email: v.email as string,
    role: v.role as Role,
    companyId: v.company_id as number | null,
    isActive: v.is_active as boolean,
    createdMs: Date.parse(v.created_at as string),
    ip: `10.${20 + ((v.company_id as number | null) ?? 0)}.${(inserted[i].id >> 8) & 255}.${inserted[i].id & 255}`,
    agent: AGENTS[inserted[i].id % AGENTS.length],
    weight: WEIGHT[v.role as Role] * (v.is_active ? 1 : 0.2),
    logins: 0,
    lastLoginMs: 0,
  }));
  const rows = values.map((v, i) => {
    const { password_hash: _secret, ...rest } = v;
    return camel({
      id: inserted[i].id,
      ...rest,
      last_login_at: null,
      last_activity_at: null,
      login_count: 0,
      total_session_duration: 0,
      average_session_duration: 0,
    });
  });
  return { people, rows };
}

/** Weighted choice among people. */
export function chooser(people: Person[]): (rng: Rng) => Person | undefined {
  const total = people.reduce((sum, p) => sum + p.weight, 0);
  return (rng) => {
    let r = rng() * total;
    for (const p of people) if ((r -= p.weight) < 0) return p;
    return people[people.length - 1];
  };
}
