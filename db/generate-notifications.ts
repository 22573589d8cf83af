// The notifications `finhub db generate` adds (db/generate-activity.ts), worded as the app words
// them (app/features/notifications/notification-events.server.ts) and targeted as it targets them, with read
// and dismissed states. They live 90 days like the app's own (its purge job removes expired
// ones), so most fall in the last 90 days; some never expire.
import type { Cell, Conn, Sink, Writer } from './generate-bulk.ts';
import { pick, type Person, type Rng } from './generate-people.ts';

const DAY = 86_400_000;

const NOTIFICATIONS: Sink = {
  table: 'notifications',
  columns: [
    ['title', 'text'],
    ['message', 'text'],
    ['type', 'text'],
    ['priority', 'text'],
    ['category', 'text'],
    ['target_company_id', 'int'],
    ['target_department_id', 'int'],
    ['target_user_role', 'text'],
    ['target_user_id', 'int'],
    ['target_group_wide', 'boolean'],
    ['action_url', 'text'],
    ['action_text', 'text'],
    ['related_table', 'text'],
    ['related_record_id', 'int'],
    ['is_active', 'boolean'],
    ['expires_at', 'timestamptz'],
    ['created_by', 'int'],
    ['updated_by', 'int'],
    ['created_at', 'timestamptz'],
    ['updated_at', 'timestamptz'],
  ],
};
const READ_STATES: Sink = {
  table: 'user_notification_settings',
  columns: [
    ['user_id', 'int'],
    ['notification_id', 'int'],
    ['is_read', 'boolean'],
    ['read_at', 'timestamptz'],
    ['is_dismissed', 'boolean'],
    ['dismissed_at', 'timestamptz'],
  ],
};

export interface NotificationContext {
  count: number;
  people: Person[];
  everyone: { id: number; role: string; companyId: number | null; username: string }[];
  now: number;
  start: number;
}

export async function writeNotifications(conn: Conn, writer: Writer, rng: Rng, c: NotificationContext): Promise<void> {
  if (c.count <= 0) return;
  const before = Number((await conn.all('SELECT max(id) AS id FROM notifications'))[0].id ?? 0);
  const users = c.everyone;
  const groupAdmins = users.filter((u) => (u.role === 'admin' || u.role === 'owner') && u.companyId === null);
  const companies = [...new Set(users.map((u) => u.companyId).filter((id): id is number => id !== null))];
  const LIFETIME = 90 * DAY;
  // Kept per notification: who it reached, to give some of them a read state.
  const reached: { createdMs: number; readers: number[] }[] = [];
  for (let i = 0; i < c.count; i++) {
    // Most are recent (they expire after 90 days); some never expire.
    const lasting = rng() < 0.15;
    const createdMs = lasting
      ? c.start + Math.floor(rng() * (c.now - c.start))
      : c.now - Math.floor(rng() * (LIFETIME - DAY));
    const created = new Date(createdMs).toISOString();
    const expires = lasting ? null : new Date(createdMs + LIFETIME).toISOString();
    const kind = rng();
    const user = users[Math.floor(rng() * users.length)];
    const company = companies.length ? companies[Math.floor(rng() * companies.length)] : null;
    let row: Cell[];
    let readers: number[];
    const base = (
      title: string,
      message: string,
      type: string,
      priority: string,
      category: string,
      to: { companyId?: number | null; role?: string | null; userId?: number | null; groupWide?: boolean },
      actionUrl: string,
      actionText: string,
      relatedTable: string | null,
      relatedRecordId: number | null,
    ): Cell[] => [
      title,
      message,
      type,
      priority,
      category,
      to.companyId ?? null,
      null,
      to.role ?? null,
      to.userId ?? null,
      to.groupWide ?? false,
      actionUrl,
      actionText,
      relatedTable,
      relatedRecordId,
      true,
      expires,
      null,
      null,
      created,
      created,
    ];
    if (kind < 0.3) {
      const ok = rng() < 0.95;
      const name = `Scheduled backup ${new Date(createdMs).toISOString().slice(0, 10)}`;
      row = base(
        ok ? 'Backup completed' : 'Backup failed',
        ok
          ? `The backup "${name}" is complete (${(1_000_000 + Math.floor(rng() * 3_000_000)).toLocaleString('en-US')} records).`
          : `The backup "${name}" failed: disk quota exceeded`,
        ok ? 'success' : 'error',
        ok ? 'low' : 'high',
        'system',
        { role: 'admin', groupWide: true },
        '/backup-recovery',
        'Open Backup & Recovery',
        'backups',
        1 + Math.floor(rng() * 1000),
      );
      readers = groupAdmins.map((u) => u.id);
    } else if (kind < 0.5) {
      const target = c.people.length ? c.people[Math.floor(rng() * c.people.length)] : user;
      row = base(
        'User created',
        `${pick(rng, groupAdmins)?.username ?? 'owner'} created the account ${target.username} (${target.role}).`,
        'info',
        'medium',
        'user',
        target.companyId === null ? { role: 'admin', groupWide: true } : { role: 'admin', companyId: target.companyId },
        `/user-management?q=${encodeURIComponent(target.username)}`,
        'Open user management',
        'users',
        target.id,
      );
      readers = users
        .filter(
          (u) =>
            (u.role === 'admin' || u.role === 'owner') && (u.companyId === null || u.companyId === target.companyId),
        )
        .map((u) => u.id);
    } else if (kind < 0.7) {
      const bySelf = rng() < 0.8;
      row = base(
        'Password changed',
        bySelf
          ? 'Your password was changed and your other sessions were signed out. If this was not you, tell your administrator at once.'
          : 'Your password was set by an administrator; you will choose a new one when you next sign in. If you did not expect this, tell your administrator.',
        bySelf ? 'success' : 'warning',
        bySelf ? 'medium' : 'high',
        'security',
        { userId: user.id },
        '/profile',
        'View profile',
        'users',
        user.id,
      );
      readers = [user.id];
    } else if (kind < 0.85) {
      row = base(
        'API sync failed',
        `${pick(rng, ['Stripe', 'Salesforce', 'NetSuite', 'Twilio'])} · ${pick(rng, ['Payouts', 'Invoices', 'Subscribers', 'Usage'])}: request timed out after 30 s`,
        'error',
        'high',
        'api',
        { role: 'admin', groupWide: true },
        '/api-integrations?tab=logs',
        'Open the sync logs',
        'api_integration_sync_logs',
        1 + Math.floor(rng() * 5000),
      );
      readers = groupAdmins.map((u) => u.id);
    } else if (kind < 0.95) {
      const who = pick(rng, c.people.length ? c.people : users);
      row = base(
        'Security anomaly detected',
        `${who.username} deleted ${5 + Math.floor(rng() * 6)} records within 10 minutes. This may indicate unauthorized access or data manipulation.`,
        'warning',
        'high',
        'security',
        company === null ? { role: 'admin', groupWide: true } : { role: 'admin', companyId: company },
        '/audit-trail?tab=anomalies',
        'Review anomalies',
        'security_anomalies',
        null,
      );
      readers = users
        .filter((u) => (u.role === 'admin' || u.role === 'owner') && (u.companyId === null || u.companyId === company))
        .map((u) => u.id);
    } else {
      row = base(
        'Background job failed',
        'The integration-sync job failed after all its retries: connect ETIMEDOUT',
        'error',
        'high',
        'system',
        { role: 'admin', groupWide: true },
        '/system-monitoring',
        'Open system monitoring',
        null,
        null,
      );
      readers = groupAdmins.map((u) => u.id);
    }
    await writer.push(NOTIFICATIONS, row);
    reached.push({ createdMs, readers });
  }
  await writer.flush(NOTIFICATIONS);
  // Read and dismissed states: most of what is older than a few days has been read.
  const ids = (await conn.all('SELECT id FROM notifications WHERE id > ? ORDER BY id', [before])).map((r) =>
    Number(r.id),
  );
  for (let i = 0; i < reached.length && i < ids.length; i++) {
    const r = reached[i];
    if (c.now - r.createdMs < 3 * DAY) continue;
    for (const userId of r.readers) {
      if (rng() >= 0.85) continue;
      const readMs = Math.min(c.now, r.createdMs + Math.floor(rng() * 2 * DAY));
      const dismissed = rng() < 0.1;
      await writer.push(READ_STATES, [
        userId,
        ids[i],
        true,
        new Date(readMs).toISOString(),
        dismissed,
        dismissed ? new Date(readMs + 60_000).toISOString() : null,
      ]);
    }
  }
}
