// The actors of the authorization matrix and what the permission rules grant each
// (docs/security.md), written down from the design rather than from app/platform/lib/permissions.ts,
// so that a wrong permission rule fails the matrix instead of agreeing with it.
import type { Action, Area } from '../../app/platform/lib/permissions.ts';
import type { Db } from '../../app/platform/context.ts';
import { TestClient } from '../server.ts';
import { createTestUser, TEST_PASSWORD } from '../users.ts';

export const ACTOR_NAMES = [
  'anonymous',
  'viewer',
  'backupsViewer',
  'editor',
  'admin',
  'owner',
  'scopedAdmin',
  'scopedEditor',
  'temporaryPassword',
  'deactivated',
  'signedOut',
  'tamperedCookie',
] as const;
export type ActorName = (typeof ACTOR_NAMES)[number];

export interface Actor {
  name: ActorName;
  client: TestClient;
  /** The user behind the cookie (null: anonymous or a forged cookie). */
  userId: number | null;
  /** The company the user is limited to (null: every company). */
  companyId: number | null;
  /** 'none': the request carries no valid session (401 / sign-in redirect). */
  session: 'valid' | 'none' | 'mustChangePassword';
  role: 'owner' | 'admin' | 'editor' | 'viewer' | null;
  username: string;
  email: string;
}

const ALL_ACTIONS: readonly Action[] = ['read', 'create', 'edit', 'delete'];
const EVERY_AREA: Area[] = [
  'financial',
  'subscriber',
  'integrations',
  'analytics',
  'auditLogs',
  'backups',
  'users',
  'reference',
  'admin',
  'installation',
  'personal',
];

/** Role baselines and gates as a table: area → the actions granted. */
function grantsOf(role: Actor['role'], scoped: boolean): Partial<Record<Area, readonly Action[]>> {
  switch (role) {
    case 'owner':
    case 'admin': {
      const all = Object.fromEntries(EVERY_AREA.map((area) => [area, ALL_ACTIONS])) as Record<Area, readonly Action[]>;
      // Company-scoped users never change group-wide reference data, nor make, restore or
      // delete backups (a backup holds every company), and nothing installation-wide is theirs.
      return scoped ? { ...all, reference: ['read'], backups: ['read'], installation: [] } : all;
    }
    case 'editor':
      return {
        financial: ['read', 'create', 'edit'],
        subscriber: ['read', 'create', 'edit'],
        reference: ['read'],
        personal: ALL_ACTIONS,
      };
    case 'viewer':
      return { financial: ['read'], subscriber: ['read'], reference: ['read'], personal: ALL_ACTIONS };
    default:
      return {};
  }
}

export function grants(actor: Actor, area: Area, action: Action): boolean {
  // A viewer given the backups flag: makes, verifies and deletes backups (the matrix's are their own), never restores.
  if (actor.name === 'backupsViewer' && area === 'backups') return true;
  return grantsOf(actor.role, actor.companyId !== null)[area]?.includes(action) ?? false;
}

/**
 * What spans the whole installation (system monitoring and its errors, system
 * settings, every company's backups) does not exist for an owner or admin of one company: 404.
 */
export function hiddenFrom(actor: Actor, area: Area): boolean {
  return area === 'installation' && (actor.role === 'owner' || actor.role === 'admin') && actor.companyId !== null;
}

export interface ActorSetup {
  baseUrl: string;
  db: Db;
  /** The company scoped actors are limited to ("another company" than the rows under test). */
  otherCompanyId: number;
}

async function signedIn(
  setup: ActorSetup,
  name: ActorName,
  options: Parameters<typeof createTestUser>[1],
): Promise<Actor> {
  const user = await createTestUser(setup.db, options);
  const client = new TestClient(setup.baseUrl);
  await client.login(user.email, TEST_PASSWORD);
  return {
    name,
    client,
    userId: user.id,
    companyId: user.companyId,
    session: 'valid',
    role: user.role,
    username: user.username,
    email: user.email,
  };
}

/** A fresh actor of the same kind: for cases that change the actor itself (sign-out, a new password). */
export async function createActor(setup: ActorSetup, name: ActorName): Promise<Actor> {
  switch (name) {
    case 'anonymous':
      return {
        name,
        client: new TestClient(setup.baseUrl),
        userId: null,
        companyId: null,
        session: 'none',
        role: null,
        username: '',
        email: '',
      };
    case 'viewer':
    case 'editor':
    case 'admin':
      return signedIn(setup, name, { role: name });
    case 'backupsViewer':
      return signedIn(setup, name, { role: 'viewer', flags: { canAccessBackups: true } });
    case 'owner':
      return signedIn(setup, name, { role: 'owner' });
    case 'scopedAdmin':
      return signedIn(setup, name, { role: 'admin', companyId: setup.otherCompanyId });
    case 'scopedEditor':
      return signedIn(setup, name, { role: 'editor', companyId: setup.otherCompanyId });
    case 'temporaryPassword': {
      const actor = await signedIn(setup, name, { role: 'admin', isTemporaryPassword: true });
      return { ...actor, session: 'mustChangePassword' };
    }
    case 'deactivated': {
      // The session row stays; only the user is switched off, as an old cookie would find it.
      const actor = await signedIn(setup, name, { role: 'admin' });
      await setup.db.updateTable('users').set({ isActive: false }).where('id', '=', actor.userId!).execute();
      return { ...actor, session: 'none' };
    }
    case 'signedOut': {
      const actor = await signedIn(setup, name, { role: 'admin' });
      const cookies = new Map(actor.client.cookies);
      const response = await actor.client.post('/api/auth/logout', undefined, { headers: { Origin: setup.baseUrl } });
      if (response.status !== 200) throw new Error(`sign-out failed: ${response.status}`);
      actor.client.cookies = cookies;
      return { ...actor, session: 'none' };
    }
    case 'tamperedCookie': {
      const actor = await signedIn(setup, name, { role: 'admin' });
      const value = actor.client.cookies.get('__session');
      if (!value) throw new Error('no session cookie');
      // Same session id, one character of the signature changed.
      const last = value.at(-1) === 'A' ? 'B' : 'A';
      actor.client.cookies.set('__session', value.slice(0, -1) + last);
      return { ...actor, userId: null, session: 'none', role: null };
    }
  }
}

/** A copy of the actor whose cookie jar later answers do not change (Set-Cookie of one case stays in that case). */
export function isolated(actor: Actor): Actor {
  const client = new TestClient(actor.client.baseUrl);
  client.cookies = new Map(actor.client.cookies);
  return { ...actor, client };
}
