// finhub users list | create | temp-password | reset-two-factor | deactivate | reactivate | delete
import type { Command } from 'commander';
import { ROLES, type Role } from '../../platform/lib/permissions.ts';
import {
  confirmDeactivateUserMessage,
  confirmResetTwoFactorMessage,
  confirmTemporaryPasswordMessage,
} from './schemas.ts';
import { resetTwoFactor } from '../auth/index.server.ts';
import type { AuthUser, ServiceContext } from '../../platform/context.ts';
import { notFound } from '../../platform/errors.ts';
import { findCompany } from '../backups/index.server.ts';
import { assertMayManage } from './user-policy.server.ts';
import { findUserByIdOrEmail } from './user-queries.server.ts';
import { createUser, deleteUser, issueTemporaryPassword, listUsers, setUserActive } from './users.server.ts';
import { createOutput, UsageError, withDatabase, type GlobalOptions, type Output } from '../../../cli/runtime.ts';

function role(raw: string): Role {
  if (!(ROLES as readonly string[]).includes(raw))
    throw new UsageError(`--role must be one of: ${ROLES.join(', ')} (got '${raw}')`);
  return raw as Role;
}

async function companyId(ctx: ServiceContext, key: string | undefined): Promise<number | null> {
  if (key === undefined || key === '' || key === 'all') return null;
  const company = await findCompany(ctx, key);
  if (!company) throw new UsageError(`No company '${key}' (give its name or id)`);
  return company.id;
}

async function target(ctx: ServiceContext, key: string): Promise<AuthUser> {
  const user = await findUserByIdOrEmail(ctx.db, key);
  if (!user) throw notFound(`No user '${key}' (give an e-mail address or id)`);
  return user;
}

const brief = (u: AuthUser) => ({
  id: u.id,
  username: u.username,
  email: u.email,
  role: u.role,
  companyId: u.companyId,
  isActive: u.isActive,
  isTemporaryPassword: u.isTemporaryPassword,
});

/** The password goes alone on the last line, so `tail -n1` (or a script) can take it. */
function printPassword(out: Output, data: Record<string, unknown>, lines: string[], password: string) {
  if (out.json) out.result({ ...data, temporaryPassword: password }, []);
  else out.result(null, [...lines, out.interactive ? `Temporary password (shown once): ${password}` : password]);
}

export function registerUsers(program: Command): void {
  const users = program.command('users').description('manage user accounts (audited as cli)');

  users
    .command('list')
    .description('list active users (or inactive ones with --inactive)')
    .option('--role <role>', `only this role (${ROLES.join(', ')})`, role)
    .option('--company <name|id>', 'only users of this company')
    .option('--inactive', 'list inactive users instead', false)
    .action(async (options: { role?: Role; company?: string; inactive: boolean }, command: Command) => {
      const out = createOutput(command.optsWithGlobals<GlobalOptions>());
      await withDatabase(async ({ ctx }) => {
        const rows = await listUsers(ctx, {
          role: options.role,
          companyId: await companyId(ctx, options.company),
          inactive: options.inactive,
        });
        await out.table(
          [
            { key: 'id', label: 'ID', right: true },
            { key: 'username', label: 'Username' },
            { key: 'email', label: 'Email' },
            { key: 'role', label: 'Role' },
            { key: 'company', label: 'Company' },
            { key: 'status', label: 'Status' },
            { key: 'lastLogin', label: 'Last Login' },
          ],
          rows.map((u) => ({
            id: u.id,
            username: u.username,
            email: u.email,
            role: u.role,
            company: u.companyName ?? 'All companies',
            status: `${u.isActive ? 'active' : 'inactive'}${u.isTemporaryPassword ? ' (temporary password)' : ''}`,
            lastLogin: u.lastLoginAt ?? 'never',
          })),
          rows,
        );
      });
    });

  users
    .command('create')
    .description('create a user; without --password a temporary password is generated and printed once')
    .requiredOption('--email <email>', 'e-mail address (sign-in name)')
    .requiredOption('--username <name>', 'username')
    .requiredOption('--role <role>', `one of ${ROLES.join(', ')}`, role)
    .option('--company <name|id>', 'limit the user to one company (default: all companies)')
    .option('--full-name <name>', 'full name')
    .option('--password <password>', 'initial password (at least 8 characters; visible in shell history)')
    .action(
      async (
        options: {
          email: string;
          username: string;
          role: Role;
          company?: string;
          fullName?: string;
          password?: string;
        },
        command: Command,
      ) => {
        const out = createOutput(command.optsWithGlobals<GlobalOptions>());
        await withDatabase(async ({ ctx }) => {
          const { user, temporaryPassword } = await createUser(ctx, {
            email: options.email,
            username: options.username,
            role: options.role,
            companyId: await companyId(ctx, options.company),
            fullName: options.fullName,
            ...(options.password === undefined ? { temporaryPassword: true } : { password: options.password }),
          });
          const lines = [`created user #${user.id} ${user.email} (${user.role})`];
          if (temporaryPassword)
            printPassword(
              out,
              { user: brief(user) },
              [...lines, 'The user must change this password at first sign-in.'],
              temporaryPassword,
            );
          else out.result({ user: brief(user) }, lines);
        });
      },
    );

  users
    .command('temp-password')
    .description("issue a temporary password: ends the user's sessions, forces a change at next sign-in; asks first")
    .argument('<user>', 'e-mail address or id')
    .option('-y, --yes', 'do not ask for confirmation (needed without a terminal)', false)
    .action(async (key: string, options: { yes: boolean }, command: Command) => {
      const out = createOutput(command.optsWithGlobals<GlobalOptions>());
      await withDatabase(async ({ ctx }) => {
        const user = await target(ctx, key);
        const ok = await out.confirm(
          confirmTemporaryPasswordMessage(`${user.username} (${user.email}, ${user.role})`),
          {
            yes: options.yes,
            refusal: `Not issuing a temporary password for ${user.email}`,
          },
        );
        if (!ok) {
          out.result({ issued: false }, ['cancelled: the password is unchanged']);
          return;
        }
        const result = await issueTemporaryPassword(ctx, user.id);
        printPassword(
          out,
          { user: brief(result.user), endedSessions: result.endedSessions },
          [
            `temporary password issued for ${user.email}; ${result.endedSessions} session(s) ended; a change is required at next sign-in`,
          ],
          result.temporaryPassword,
        );
      });
    });

  users
    .command('reset-two-factor')
    .description(
      "remove a user's second factor (a lost phone and lost recovery codes); ends their sessions; asks first",
    )
    .argument('<user>', 'e-mail address or id')
    .option('-y, --yes', 'do not ask for confirmation (needed without a terminal)', false)
    .action(async (key: string, options: { yes: boolean }, command: Command) => {
      const out = createOutput(command.optsWithGlobals<GlobalOptions>());
      await withDatabase(async ({ ctx }) => {
        const user = await target(ctx, key);
        const ok = await out.confirm(confirmResetTwoFactorMessage(`${user.username} (${user.email})`), {
          yes: options.yes,
          refusal: `Not resetting two-factor authentication for ${user.email}`,
        });
        if (!ok) {
          out.result({ reset: false }, ['cancelled: nothing changed']);
          return;
        }
        const { endedSessions } = await resetTwoFactor(ctx, user.id);
        out.result({ reset: true, user: brief(user), endedSessions }, [
          `two-factor authentication reset for ${user.email}; ${endedSessions} session(s) ended; they set it up again after signing in`,
        ]);
      });
    });

  for (const active of [false, true]) {
    const cmd = users
      .command(active ? 'reactivate' : 'deactivate')
      .description(
        active
          ? 'reactivate a user'
          : 'deactivate a user and end their sessions (owners cannot be deactivated); asks first',
      )
      .argument('<user>', 'e-mail address or id');
    if (!active) cmd.option('-y, --yes', 'do not ask for confirmation (needed without a terminal)', false);
    cmd.action(async (key: string, options: { yes?: boolean }, command: Command) => {
      const out = createOutput(command.optsWithGlobals<GlobalOptions>());
      await withDatabase(async ({ ctx }) => {
        const user = await target(ctx, key);
        // Only an active user is asked about (deactivating an inactive one changes nothing), and
        // only when the answer could be yes: an owner is refused at once.
        if (!active && user.isActive) {
          assertMayManage(ctx, 'deactivate', user);
          const ok = await out.confirm(confirmDeactivateUserMessage(`${user.username} (${user.email})`), {
            yes: options.yes,
            refusal: `Not deactivating ${user.email}`,
          });
          if (!ok) {
            out.result({ changed: false }, ['cancelled: nothing changed']);
            return;
          }
        }
        const result = await setUserActive(ctx, user.id, active);
        const state = active ? 'active' : 'inactive';
        out.result({ user: brief(result.user), changed: result.changed, endedSessions: result.endedSessions }, [
          result.changed
            ? `${user.email} is now ${state}${active ? '' : `; ${result.endedSessions} session(s) ended`}`
            : `${user.email} was already ${state}`,
        ]);
      });
    });
  }

  users
    .command('delete')
    .description('delete a user and end their sessions (owners cannot be deleted); asks first')
    .argument('<user>', 'e-mail address or id')
    .option('-y, --yes', 'do not ask for confirmation (needed without a terminal)', false)
    .action(async (key: string, options: { yes: boolean }, command: Command) => {
      const out = createOutput(command.optsWithGlobals<GlobalOptions>());
      await withDatabase(async ({ ctx }) => {
        const user = await target(ctx, key);
        const ok = await out.confirm(
          `Are you sure you want to delete user ${user.username} (${user.email})? This action cannot be undone.`,
          {
            yes: options.yes,
            refusal: `Not deleting user ${user.email}`,
          },
        );
        if (!ok) {
          out.result({ deleted: false }, ['cancelled: nothing deleted']);
          return;
        }
        const deleted = await deleteUser(ctx, user.id);
        out.result({ deleted: true, user: brief(deleted) }, [`deleted user #${deleted.id} ${deleted.email}`]);
      });
    });
}
