// Permissions (docs/security.md): effective = role baseline ∪ the user's ten flags; gates per area;
// company scope; owner protections. The expectations are written out here from the design,
// not derived from the code under test.
import { describe, expect, it } from 'vitest';
import {
  can,
  canManageUser,
  canSeeCompany,
  companyScope,
  effectiveFlags,
  isAdministrator,
  PERMISSION_FLAGS,
  ROLE_BASELINE,
  ROLES,
  type Action,
  type Area,
  type PermissionFlag,
  type Principal,
  type Role,
  type UserManagementAction,
} from './permissions.ts';

// The ten flags, by the names of the users table's columns.
const FIN = 'canAccessFinancialData';
const SUB = 'canAccessSubscriberData';
const API = 'canAccessApiIntegrations';
const ANA = 'canAccessAnalytics';
const AUD = 'canAccessAuditLogs';
const BAK = 'canAccessBackups';
const CRE = 'canCreate';
const EDI = 'canEdit';
const DEL = 'canDelete';
const MAN = 'canManageUsers';
const FLAGS = [FIN, SUB, API, ANA, AUD, BAK, CRE, EDI, DEL, MAN] as const;

// Role baselines: owner, admin → all ten; editor → financial, subscriber, create, edit; viewer →
// financial, subscriber.
const BASELINE: Record<Role, readonly string[]> = {
  owner: FLAGS,
  admin: FLAGS,
  editor: [FIN, SUB, CRE, EDI],
  viewer: [FIN, SUB],
};

const AREAS_UNDER_TEST: Area[] = [
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
const ACTIONS: Action[] = ['read', 'create', 'edit', 'delete'];
const ACTION_FLAG = { create: CRE, edit: EDI, delete: DEL } as const;

function principal(role: Role, flags: readonly string[] = [], companyId: number | null = null, id = 1): Principal {
  const user: Record<string, unknown> = { id, role, companyId };
  for (const flag of FLAGS) user[flag] = flags.includes(flag);
  return user as Principal;
}

/**
 * The gates per area (docs/security.md) written as an independent oracle over a set of effective flags:
 * finance/subscriber/integration data need their flag, and writes also the action flag;
 * analytics, audit logs, backups and user management need their flag for everything (backup
 * writes also a user not limited to one company);
 * companies/departments are readable by all and written by owners and admins; admin screens
 * are owner/admin only; personal screens are open to every signed-in user.
 */
function expectedCan(
  role: Role,
  effective: Set<string>,
  area: Area,
  action: Action,
  companyId: number | null = null,
): boolean {
  const administrator = role === 'owner' || role === 'admin';
  const withAction = (flag: string) => effective.has(flag) && (action === 'read' || effective.has(ACTION_FLAG[action]));
  switch (area) {
    case 'financial':
      return withAction(FIN);
    case 'subscriber':
      return withAction(SUB);
    case 'integrations':
      return withAction(API);
    case 'analytics':
      return effective.has(ANA);
    case 'auditLogs':
      return effective.has(AUD);
    // A backup holds every company: a company-scoped user only reads (lists, exports).
    case 'backups':
      return effective.has(BAK) && (action === 'read' || companyId === null);
    case 'users':
      return effective.has(MAN);
    // Company-scoped users never write group-wide reference data.
    case 'reference':
      return action === 'read' || (administrator && companyId === null);
    case 'admin':
      return administrator;
    // Installation-wide (every backup, system monitoring): never a company-scoped user.
    case 'installation':
      return administrator && companyId === null;
    case 'personal':
      return true;
  }
  throw new Error(`unknown area ${area}`);
}

describe('flag and role constants', () => {
  it('has exactly the ten flags and four roles of the design', () => {
    expect([...PERMISSION_FLAGS].sort()).toEqual([...FLAGS].sort());
    expect([...ROLES].sort()).toEqual(['admin', 'editor', 'owner', 'viewer']);
  });

  it.each(['owner', 'admin', 'editor', 'viewer'] as Role[])('%s baseline is the design baseline', (role) => {
    expect([...ROLE_BASELINE[role]].sort()).toEqual([...BASELINE[role]].sort());
  });

  it('treats owners and admins (only) as administrators', () => {
    expect(isAdministrator({ role: 'owner' })).toBe(true);
    expect(isAdministrator({ role: 'admin' })).toBe(true);
    expect(isAdministrator({ role: 'editor' })).toBe(false);
    expect(isAdministrator({ role: 'viewer' })).toBe(false);
  });
});

describe('can() without extra flags, written out per role', () => {
  // Rows: area; columns: read, create, edit, delete.
  const T = true;
  const F = false;
  const MATRIX: Record<Role, Record<Area, [boolean, boolean, boolean, boolean]>> = {
    owner: {
      financial: [T, T, T, T],
      subscriber: [T, T, T, T],
      integrations: [T, T, T, T],
      analytics: [T, T, T, T],
      auditLogs: [T, T, T, T],
      backups: [T, T, T, T],
      users: [T, T, T, T],
      reference: [T, T, T, T],
      admin: [T, T, T, T],
      installation: [T, T, T, T],
      personal: [T, T, T, T],
    },
    admin: {
      financial: [T, T, T, T],
      subscriber: [T, T, T, T],
      integrations: [T, T, T, T],
      analytics: [T, T, T, T],
      auditLogs: [T, T, T, T],
      backups: [T, T, T, T],
      users: [T, T, T, T],
      reference: [T, T, T, T],
      admin: [T, T, T, T],
      installation: [T, T, T, T],
      personal: [T, T, T, T],
    },
    editor: {
      financial: [T, T, T, F],
      subscriber: [T, T, T, F],
      integrations: [F, F, F, F],
      analytics: [F, F, F, F],
      auditLogs: [F, F, F, F],
      backups: [F, F, F, F],
      users: [F, F, F, F],
      reference: [T, F, F, F],
      admin: [F, F, F, F],
      installation: [F, F, F, F],
      personal: [T, T, T, T],
    },
    viewer: {
      financial: [T, F, F, F],
      subscriber: [T, F, F, F],
      integrations: [F, F, F, F],
      analytics: [F, F, F, F],
      auditLogs: [F, F, F, F],
      backups: [F, F, F, F],
      users: [F, F, F, F],
      reference: [T, F, F, F],
      admin: [F, F, F, F],
      installation: [F, F, F, F],
      personal: [T, T, T, T],
    },
  };

  for (const role of ['owner', 'admin', 'editor', 'viewer'] as Role[]) {
    for (const companyId of [null, 2]) {
      it(`${role} (company ${companyId ?? 'all'})`, () => {
        const user = principal(role, [], companyId);
        const actual = Object.fromEntries(
          AREAS_UNDER_TEST.map((area) => [area, ACTIONS.map((action) => can(user, area, action))]),
        );
        // A company-scoped owner or admin reads companies, departments and backups but never writes
        // them, and nothing installation-wide is theirs.
        const scoped = (row: [boolean, boolean, boolean, boolean]): [boolean, boolean, boolean, boolean] => [
          row[0],
          F,
          F,
          F,
        ];
        const expected =
          companyId === null
            ? MATRIX[role]
            : {
                ...MATRIX[role],
                reference: scoped(MATRIX[role].reference),
                backups: scoped(MATRIX[role].backups),
                installation: [F, F, F, F] as [boolean, boolean, boolean, boolean],
              };
        expect(actual).toEqual(expected);
        // read is the default action
        for (const area of AREAS_UNDER_TEST) expect(can(user, area)).toBe(expected[area][0]);
      });
    }
  }
});

describe('every role × flag × scope combination', () => {
  const flagCases: [string, readonly string[]][] = [
    ['no flags', []],
    ...FLAGS.map((flag) => [`only ${flag}`, [flag]] as [string, string[]]),
    ['all flags', FLAGS],
  ];
  const cases: [Role, string, readonly string[], number | null][] = [];
  for (const role of ['owner', 'admin', 'editor', 'viewer'] as Role[]) {
    for (const [label, flags] of flagCases) {
      for (const companyId of [null, 3]) cases.push([role, label, flags, companyId]);
    }
  }

  it.each(cases)('%s with %s, company %s', (role, _label, flags, companyId) => {
    const user = principal(role, flags, companyId);
    const effective = new Set([...BASELINE[role], ...flags]);

    const expectedFlags = Object.fromEntries(FLAGS.map((f) => [f, effective.has(f)]));
    expect(effectiveFlags(user)).toEqual(expectedFlags);

    for (const area of AREAS_UNDER_TEST) {
      for (const action of ACTIONS) {
        expect(can(user, area, action), `${area}/${action}`).toBe(
          expectedCan(role, effective, area, action, companyId),
        );
      }
    }

    // Company scope: null sees every company (and company-less rows); otherwise only its own.
    expect(companyScope(user)).toBe(companyId);
    for (const other of [null, 1, 2, 3, 4]) {
      expect(canSeeCompany(user, other), `company ${other}`).toBe(companyId === null || other === companyId);
    }
  });

  it('a stored flag set to false never takes away a baseline permission', () => {
    const viewer = principal('viewer', []); // every flag false in the row
    expect(viewer[FIN as PermissionFlag]).toBe(false);
    expect(effectiveFlags(viewer).canAccessFinancialData).toBe(true);
    expect(can(viewer, 'financial', 'read')).toBe(true);
  });

  it('treats a missing companyId like null (all companies)', () => {
    const user = { ...principal('viewer'), companyId: undefined } as unknown as Principal;
    expect(companyScope(user)).toBeNull();
    expect(canSeeCompany(user, 4)).toBe(true);
  });
});

describe('properties over all 1024 flag subsets', () => {
  const subsets = Array.from({ length: 1 << FLAGS.length }, (_, mask) => FLAGS.filter((_, i) => mask & (1 << i)));

  it.each(['owner', 'admin', 'editor', 'viewer'] as Role[])(
    '%s: effective = baseline ∪ flags, and monotonic',
    (role) => {
      for (const [mask, subset] of subsets.entries()) {
        const user = principal(role, subset);
        const flags = effectiveFlags(user);
        for (const flag of FLAGS) {
          const expected = BASELINE[role].includes(flag) || subset.includes(flag);
          if (flags[flag as PermissionFlag] !== expected) {
            throw new Error(`${role} mask ${mask}: ${flag} should be ${expected}`);
          }
        }
        // Adding any one flag never removes a permission.
        const before = AREAS_UNDER_TEST.flatMap((area) => ACTIONS.map((action) => can(user, area, action)));
        for (const [i, flag] of FLAGS.entries()) {
          if (mask & (1 << i)) continue;
          const more = principal(role, [...subset, flag]);
          const after = AREAS_UNDER_TEST.flatMap((area) => ACTIONS.map((action) => can(more, area, action)));
          before.forEach((allowed, k) => {
            if (allowed && !after[k]) throw new Error(`${role} mask ${mask} + ${flag} lost permission #${k}`);
          });
        }
        // Every decision matches the oracle.
        const effective = new Set([...BASELINE[role], ...subset]);
        for (const area of AREAS_UNDER_TEST) {
          for (const action of ACTIONS) {
            if (can(user, area, action) !== expectedCan(role, effective, area, action)) {
              throw new Error(`${role} mask ${mask}: can(${area}, ${action}) is wrong`);
            }
          }
        }
      }
    },
  );

  it('a higher role never has fewer permissions than a lower one with the same flags', () => {
    const order: Role[] = ['viewer', 'editor', 'admin', 'owner'];
    for (const subset of subsets) {
      for (let r = 1; r < order.length; r++) {
        const lower = principal(order[r - 1], subset);
        const higher = principal(order[r], subset);
        for (const area of AREAS_UNDER_TEST) {
          for (const action of ACTIONS) {
            if (can(lower, area, action) && !can(higher, area, action)) {
              throw new Error(`${order[r]} lacks ${area}/${action} that ${order[r - 1]} has`);
            }
          }
        }
      }
    }
  });

  it('owner and admin are all-powerful whatever their stored flags', () => {
    for (const subset of subsets) {
      for (const role of ['owner', 'admin'] as Role[]) {
        const flags = effectiveFlags(principal(role, subset));
        if (!FLAGS.every((f) => flags[f as PermissionFlag])) throw new Error(`${role} lost a flag`);
      }
    }
  });
});

describe('canManageUser: owner protections', () => {
  const owner = principal('owner', [], null, 1);
  const admin = principal('admin', [], null, 2);
  const scopedAdmin = principal('admin', [], 1, 3);
  const managerViewer = principal('viewer', [MAN], null, 4);
  const managerEditor = principal('editor', [MAN], null, 5);
  const scopedManager = principal('viewer', [MAN], 1, 6);
  const plainViewer = principal('viewer', [], null, 7);
  const plainEditor = principal('editor', [CRE, EDI, DEL], null, 8);

  const target = (id: number, role: Role, companyId: number | null = null) => ({ id, role, companyId });
  const otherOwner = target(10, 'owner');
  const otherAdmin = target(11, 'admin');
  const editor = target(12, 'editor');
  const viewer = target(13, 'viewer');
  const viewerCo1 = target(14, 'viewer', 1);
  const viewerCo2 = target(15, 'viewer', 2);
  const adminCo1 = target(16, 'admin', 1);

  const ALL: UserManagementAction[] = [
    'create',
    'edit',
    'permissions',
    'deactivate',
    'delete',
    'temporaryPassword',
    'changePassword',
  ];
  const EDITS: UserManagementAction[] = ['edit', 'permissions', 'temporaryPassword', 'changePassword'];

  it('nobody without manage users may do anything', () => {
    for (const actor of [plainViewer, plainEditor]) {
      for (const action of ALL) {
        expect(canManageUser(actor, action, null, 'viewer')).toBe(false);
        for (const t of [viewer, editor, viewerCo1, { id: actor.id, role: actor.role, companyId: null }]) {
          expect(canManageUser(actor, action, t), `${actor.role} ${action} ${t.id}`).toBe(false);
        }
      }
    }
  });

  it('only an owner creates owners and admins', () => {
    expect(canManageUser(owner, 'create', null, 'owner')).toBe(true);
    expect(canManageUser(owner, 'create', null, 'admin')).toBe(true);
    for (const actor of [admin, scopedAdmin, managerViewer, managerEditor]) {
      expect(canManageUser(actor, 'create', null, 'owner'), `${actor.id}`).toBe(false);
      expect(canManageUser(actor, 'create', null, 'admin'), `${actor.id}`).toBe(false);
      // Nobody gives a role beyond their own rights: a viewer manager cannot create an editor.
      expect(canManageUser(actor, 'create', null, 'editor'), `${actor.id}`).toBe(actor !== managerViewer);
      expect(canManageUser(actor, 'create', null, 'viewer'), `${actor.id}`).toBe(true);
    }
  });

  it('only an owner edits owners and admins (or promotes somebody to one)', () => {
    for (const action of EDITS) {
      expect(canManageUser(owner, action, otherOwner)).toBe(true);
      expect(canManageUser(owner, action, otherAdmin)).toBe(true);
      expect(canManageUser(owner, action, viewer, 'admin')).toBe(true);
      for (const actor of [admin, managerViewer, managerEditor]) {
        expect(canManageUser(actor, action, otherOwner), `${actor.id} ${action} owner`).toBe(false);
        expect(canManageUser(actor, action, otherAdmin), `${actor.id} ${action} admin`).toBe(false);
        expect(canManageUser(actor, action, viewer, 'admin'), `${actor.id} ${action} promote`).toBe(false);
        expect(canManageUser(actor, action, viewer, 'owner'), `${actor.id} ${action} promote`).toBe(false);
        expect(canManageUser(actor, action, viewer), `${actor.id} ${action} viewer`).toBe(true);
        // An editor holds rights a viewer manager lacks: a manager acts only on users within their own rights.
        expect(canManageUser(actor, action, editor, 'viewer'), `${actor.id} ${action} editor`).toBe(
          actor !== managerViewer,
        );
      }
    }
  });

  it('nobody deactivates or deletes an owner, not even an owner', () => {
    for (const action of ['deactivate', 'delete'] as UserManagementAction[]) {
      for (const actor of [owner, admin, managerViewer]) {
        expect(canManageUser(actor, action, otherOwner), `${actor.id} ${action}`).toBe(false);
      }
    }
  });

  it('only an owner deactivates or deletes admins', () => {
    for (const action of ['deactivate', 'delete'] as UserManagementAction[]) {
      expect(canManageUser(owner, action, otherAdmin)).toBe(true);
      expect(canManageUser(admin, action, otherAdmin)).toBe(false);
      expect(canManageUser(managerEditor, action, otherAdmin)).toBe(false);
      expect(canManageUser(admin, action, viewer)).toBe(true);
      expect(canManageUser(managerEditor, action, editor)).toBe(true);
      expect(canManageUser(managerViewer, action, editor)).toBe(false);
    }
  });

  it('a manager only acts on users whose role and flags are all within their own', () => {
    const withFlag = (flag: PermissionFlag) => ({ ...viewer, [flag]: true });
    for (const action of [...EDITS, 'deactivate', 'delete'] as UserManagementAction[]) {
      for (const flag of [DEL, 'canAccessBackups', 'canAccessAuditLogs'] as PermissionFlag[]) {
        expect(canManageUser(managerViewer, action, withFlag(flag)), `${action} ${flag}`).toBe(false);
        expect(canManageUser(managerEditor, action, withFlag(flag)), `${action} ${flag}`).toBe(false);
        expect(canManageUser(admin, action, withFlag(flag)), `${action} ${flag}`).toBe(true);
      }
      expect(canManageUser(managerViewer, action, { ...viewer, [MAN]: true }), action).toBe(true);
      expect(canManageUser(managerViewer, action, viewer), action).toBe(true);
    }
  });

  it('nobody deactivates or deletes themselves', () => {
    for (const actor of [owner, admin, managerViewer, managerEditor, scopedManager]) {
      const self = { id: actor.id, role: actor.role, companyId: actor.companyId };
      expect(canManageUser(actor, 'deactivate', self), `${actor.id}`).toBe(false);
      expect(canManageUser(actor, 'delete', self), `${actor.id}`).toBe(false);
    }
    // …while an owner may still edit their own account.
    expect(canManageUser(owner, 'edit', { id: owner.id, role: 'owner', companyId: null })).toBe(true);
    expect(canManageUser(managerViewer, 'edit', { id: managerViewer.id, role: 'viewer', companyId: null })).toBe(true);
  });

  it('a company-scoped manager touches only users of their own company', () => {
    for (const actor of [scopedAdmin, scopedManager]) {
      for (const action of ALL.filter((a) => a !== 'create')) {
        expect(canManageUser(actor, action, viewerCo1), `${actor.id} ${action} own company`).toBe(true);
        expect(canManageUser(actor, action, viewerCo2), `${actor.id} ${action} other company`).toBe(false);
        expect(canManageUser(actor, action, viewer), `${actor.id} ${action} all-company user`).toBe(false);
      }
    }
    // Company scope does not lift the owner/admin rule.
    expect(canManageUser(scopedAdmin, 'edit', adminCo1)).toBe(false);
    // An unscoped owner manages users of any company.
    expect(canManageUser(owner, 'edit', viewerCo2)).toBe(true);
    expect(canManageUser(owner, 'delete', adminCo1)).toBe(true);
  });
});
