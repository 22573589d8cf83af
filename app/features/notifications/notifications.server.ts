// Notifications: one notify() used by every producer, and each
// user's view of the notifications that reach them: the list, the count, read, dismiss and
// mark-all-read. Who a notification reaches is decided when it is read, from its targeting
// (every set target must match; none set means everyone) and the reader's scope and
// notification-type switches, so a Vult user never learns about One Network rows and a switch
// turned off hides its category at once. Users belong to no department in this product, so the
// department target is never set.
import { sql, type Expression, type ExpressionBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { z } from 'zod';
import { runCompiled } from '../../../db/compiled-cache.ts';
import { dialectOf, filterOnly, type DialectName } from '../../../db/dialect.ts';
import type { Database, Role } from '../../../db/types.ts';
import { API_MAX_LIMIT } from '../../platform/lib/paging.ts';
import {
  isSafeActionUrl,
  NOTIFICATION_CATEGORIES,
  NOTIFICATION_PRIORITIES,
  NOTIFICATION_TYPES,
  type NotificationCategory,
  type KeptNotificationCount,
  type NotificationCount,
  type NotificationFilter,
  type NotificationView,
  noticeTextsOf,
  type NoticeTexts,
} from './shared.ts';
import { integerParam } from '../../platform/lib/query-params.ts';
import { actorUserId, requireUser, type AuthUser, type Db, type ServiceContext } from '../../platform/context.ts';
import { fieldErrorsFromZod, invalid, notFound } from '../../platform/errors.ts';
import { enabledCategories, rolesAtOrBelow } from './notification-recipients.server.ts';
import { startPushDelivery } from './push.server.ts';
import { keptNotificationCount } from './notification-badges.server.ts';
import { NoticeTextsAnswer, type MarkAllReadResult } from './answers.ts';
import { findUserSettings } from '../settings/index.server.ts';
import type { UserSettings } from '../../platform/session/user-settings-row.ts';

/** How long a notification lives unless its producer says otherwise; then the nightly purge removes it. */
export const DEFAULT_NOTIFICATION_DAYS = 90;

export interface NotificationTarget {
  userId?: number;
  /** This role and above. */
  role?: Role;
  companyId?: number;
  /** Only users without a company scope (events of the whole installation). */
  groupWide?: boolean;
}

export interface NotifyInput {
  type?: (typeof NOTIFICATION_TYPES)[number];
  priority?: (typeof NOTIFICATION_PRIORITIES)[number];
  category: NotificationCategory;
  title: string;
  message: string;
  /** The product's own notices: their words as messages and values (the English is title, message, actionText). */
  texts?: NoticeTexts;
  actionUrl?: string | null;
  actionText?: string | null;
  to: NotificationTarget;
  relatedTable?: string | null;
  relatedRecordId?: number | null;
  /** Default: DEFAULT_NOTIFICATION_DAYS from now. */
  expiresAt?: string | null;
  /**
   * At-least-once producers (a job that may run twice): store nothing when a notification with
   * the same title about the same related row exists already.
   */
  once?: boolean;
}

const NotifySchema = z.object({
  type: z.enum(NOTIFICATION_TYPES).default('info'),
  priority: z.enum(NOTIFICATION_PRIORITIES).default('medium'),
  category: z.enum(NOTIFICATION_CATEGORIES),
  title: z.string().trim().min(1).max(255),
  message: z.string().trim().min(1).max(5000),
  texts: NoticeTextsAnswer.optional(),
  actionUrl: z.string().refine(isSafeActionUrl, 'The action link must be a path on this site').nullish(),
  actionText: z.string().trim().max(100).nullish(),
  to: z
    .object({
      userId: z.number().int().positive().optional(),
      role: z.enum(['owner', 'admin', 'editor', 'viewer']).optional(),
      companyId: z.number().int().positive().optional(),
      groupWide: z.boolean().optional(),
    })
    .strict(),
  relatedTable: z.string().max(100).nullish(),
  relatedRecordId: z.number().int().nullish(),
  expiresAt: z.iso.datetime({ offset: true }).nullish(),
  once: z.boolean().optional(),
});

/**
 * Stores a notification and starts its push delivery. Best called after the write it tells
 * about has committed; inside a transaction the push job waits (retries) until the row is
 * visible. A failure to start the delivery is logged, never thrown: the notification is in the
 * bell either way.
 */
export async function notify(ctx: ServiceContext, input: NotifyInput): Promise<{ id: number } | null> {
  const parsed = NotifySchema.safeParse(input);
  if (!parsed.success) throw invalid(fieldErrorsFromZod(parsed.error.issues));
  const value = parsed.data;
  if (value.once && value.relatedTable && value.relatedRecordId != null) {
    const earlier = await ctx.db
      .selectFrom('notifications')
      .select('id')
      .where('relatedTable', '=', value.relatedTable)
      .where('relatedRecordId', '=', value.relatedRecordId)
      .where('title', '=', value.title)
      .executeTakeFirst();
    if (earlier) return null;
  }
  // A notification for one user whose switches turn its category off is not stored at all.
  if (value.to.userId !== undefined) {
    const settings = await findUserSettings(ctx.db, value.to.userId);
    if (!enabledCategories(settings?.notificationTypes).includes(value.category)) return null;
  }
  const now = new Date();
  const expiresAt =
    value.expiresAt === undefined
      ? new Date(now.getTime() + DEFAULT_NOTIFICATION_DAYS * 86_400_000).toISOString()
      : value.expiresAt;
  const repeated = await repeatOf(ctx, value, now, expiresAt);
  if (repeated) return repeated;
  const row = await ctx.db
    .insertInto('notifications')
    .values({
      title: value.title,
      message: value.message,
      texts: value.texts ? JSON.stringify(value.texts) : null,
      type: value.type,
      priority: value.priority,
      category: value.category,
      targetUserId: value.to.userId ?? null,
      targetUserRole: value.to.role ?? null,
      targetCompanyId: value.to.companyId ?? null,
      // Users belong to no department here: the column stays empty.
      targetDepartmentId: null,
      targetGroupWide: value.to.groupWide ?? false,
      actionUrl: value.actionUrl ?? null,
      actionText: value.actionText ?? null,
      relatedTable: value.relatedTable ?? null,
      relatedRecordId: value.relatedRecordId ?? null,
      isActive: true,
      expiresAt: expiresAt ? new Date(expiresAt).toISOString() : null,
      createdBy: actorUserId(ctx.actor),
      updatedBy: actorUserId(ctx.actor),
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await startPushDelivery(ctx, row.id);
  return row;
}

/** A repeat of an event within this many minutes of its last notice updates that notice. */
export const REPEAT_WINDOW_MINUTES = 60;

/**
 * The same event again (same title, category, type and audience, about the same row) within the
 * repeat window, while nobody has read or dismissed its notification yet: that notification takes
 * the new message and time and counts the repeat, instead of a new one piling up. Its push went
 * out already, so a repeat is not pushed again. Null when there is nothing to repeat.
 */
async function repeatOf(
  ctx: ServiceContext,
  value: z.infer<typeof NotifySchema>,
  now: Date,
  expiresAt: string | null,
): Promise<{ id: number } | null> {
  const since = new Date(now.getTime() - REPEAT_WINDOW_MINUTES * 60_000).toISOString();
  type Nullable = 'relatedTable' | 'relatedRecordId' | 'targetUserId' | 'targetUserRole' | 'targetCompanyId';
  const same = (eb: NotificationsEb, column: Nullable, v: string | number | null | undefined) =>
    v === null || v === undefined
      ? eb(`notifications.${column}`, 'is', null)
      : eb(`notifications.${column}`, '=', v as never);
  const earlier = await ctx.db
    .selectFrom('notifications')
    .select('id')
    .where('title', '=', value.title)
    .where((eb) => same(eb, 'relatedTable', value.relatedTable))
    .where((eb) => same(eb, 'relatedRecordId', value.relatedRecordId))
    .where('updatedAt', '>=', since)
    .where('category', '=', value.category)
    .where('type', '=', value.type)
    .where('isActive', '=', true)
    .where((eb) => same(eb, 'targetUserId', value.to.userId))
    .where((eb) => same(eb, 'targetUserRole', value.to.role))
    .where((eb) => same(eb, 'targetCompanyId', value.to.companyId))
    .where('targetGroupWide', '=', value.to.groupWide ?? false)
    .where((eb) => eb.or([eb('expiresAt', 'is', null), eb('expiresAt', '>', now.toISOString())]))
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('userNotificationSettings as state')
            .select('state.id')
            .whereRef('state.notificationId', '=', 'notifications.id')
            .where((s) => s.or([s('state.isRead', '=', true), s('state.isDismissed', '=', true)])),
        ),
      ),
    )
    .orderBy('updatedAt', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!earlier) return null;
  const at = now.toISOString();
  const updated = await ctx.db
    .updateTable('notifications')
    .set((eb) => ({
      repeatCount: eb('repeatCount', '+', 1),
      message: value.message,
      texts: value.texts ? JSON.stringify(value.texts) : null,
      priority: value.priority,
      actionUrl: value.actionUrl ?? null,
      actionText: value.actionText ?? null,
      // The newest occurrence: listed first, and kept as long as a new notice would be.
      createdAt: at,
      updatedAt: at,
      expiresAt: expiresAt ? new Date(expiresAt).toISOString() : null,
      updatedBy: actorUserId(ctx.actor),
    }))
    .where('id', '=', earlier.id)
    .where('isActive', '=', true)
    .returning('id')
    .executeTakeFirst();
  return updated ?? null;
}

/**
 * notify() for producers whose own work has already succeeded: a notification that cannot be
 * stored is logged, and the producer's answer stands.
 */
export async function notifyQuietly(ctx: ServiceContext, input: NotifyInput): Promise<void> {
  try {
    await notify(ctx, input);
  } catch (error) {
    console.error(`[notifications] '${input.title}' not stored: ${(error as Error).message}`);
  }
}

/** Who reads: the fields of a user that decide what reaches them. */
export interface Reader {
  id: number;
  role: Role;
  companyId: number | null;
  /** Categories the reader's switches allow. */
  categories: NotificationCategory[];
}

/** `known`: the reader's settings row when the caller has read it already (the document loader). */
async function readerOf(ctx: ServiceContext, known?: { settings: UserSettings | null }): Promise<Reader> {
  const user: AuthUser = requireUser(ctx);
  const settings = known ? known.settings : await findUserSettings(ctx.db, user.id);
  return {
    id: user.id,
    role: user.role,
    companyId: user.companyId,
    categories: enabledCategories(settings?.notificationTypes),
  };
}

type NotificationsEb = ExpressionBuilder<Database, 'notifications'>;

/**
 * The targeting and life rules: does notification n reach this reader now? With `expiredAfter`:
 * did it reach them until it expired, after that instant and by `now`?
 */
export function reaches(
  eb: NotificationsEb,
  reader: Omit<Reader, 'categories'>,
  now: string,
  dialect: DialectName,
  expiredAfter?: string,
): Expression<SqlBool> {
  return eb.and([
    eb('notifications.isActive', '=', true),
    expiredAfter === undefined
      ? eb.or([eb('notifications.expiresAt', 'is', null), eb('notifications.expiresAt', '>', now)])
      : eb.and([eb('notifications.expiresAt', '>', expiredAfter), eb('notifications.expiresAt', '<=', now)]),
    // The newest-first list should walk the creation index and stop at its page. SQLite, given
    // an OR of the two, reads both through the target index and sorts everything, so it gets an
    // expression no index serves (ids are positive: 0 stands for no target); PostgreSQL
    // estimates that expression too selective and sorts instead, so it keeps the OR.
    dialect === 'sqlite'
      ? sql<SqlBool>`coalesce(${sql.ref('notifications.targetUserId')}, 0) in (0, ${reader.id})`
      : eb.or([eb('notifications.targetUserId', 'is', null), eb('notifications.targetUserId', '=', reader.id)]),
    eb.or([
      eb('notifications.targetUserRole', 'is', null),
      eb('notifications.targetUserRole', 'in', rolesAtOrBelow(reader.role)),
    ]),
    reader.companyId === null
      ? eb.lit(true)
      : eb.and([
          eb('notifications.targetGroupWide', '=', false),
          eb.or([
            eb('notifications.targetCompanyId', 'is', null),
            eb('notifications.targetCompanyId', '=', reader.companyId),
          ]),
        ]),
  ]);
}

/**
 * The reader's notifications joined with their own state, dismissed ones left out. `stateOf` and
 * `hiddenOf`: whose state is joined and whose dismissals hide, the reader's (separate values only
 * for the compiled count below). A dismissal hides through NOT EXISTS rather than a filter on the
 * joined state: PostgreSQL then walks the creation index to the page instead of sorting them all.
 */
function visible(
  db: Db,
  reader: Reader,
  now: string,
  stateOf: number = reader.id,
  expiredAfter?: string,
  hiddenOf: number = stateOf,
) {
  return (
    db
      .selectFrom('notifications')
      .leftJoin('userNotificationSettings as state', (join) =>
        join.onRef('state.notificationId', '=', 'notifications.id').on('state.userId', '=', stateOf),
      )
      .where((eb) => reaches(eb, reader, now, dialectOf(db), expiredAfter))
      // Only a filter: the newest-first walk must not turn into one range of the category index
      // per enabled category, sorted (a tab's one category still uses that index).
      .where(
        filterOnly<NotificationCategory>(dialectOf(db), 'notifications.category'),
        'in',
        reader.categories.length ? reader.categories : ['__none__' as NotificationCategory],
      )
      .where((eb) => eb.not(eb.exists(stateWhere(eb, hiddenOf, 'isDismissed'))))
  );
}

/** A state of `userId` for the outer notification with `flag` set (read or dismissed). */
function stateWhere(eb: ExpressionBuilder<Database, 'notifications'>, userId: number, flag: 'isRead' | 'isDismissed') {
  return eb
    .selectFrom('userNotificationSettings as flagged')
    .select('flagged.id')
    .whereRef('flagged.notificationId', '=', 'notifications.id')
    .where('flagged.userId', '=', userId)
    .where(`flagged.${flag}`, '=', true);
}

/** The expression builder of visible()'s query: the notifications and the reader's state. */
type VisibleEb =
  ReturnType<typeof visible> extends SelectQueryBuilder<infer DB, infer TB, infer _O>
    ? ExpressionBuilder<DB, TB>
    : never;

const isUnread = (eb: VisibleEb) => eb.or([eb('state.isRead', 'is', null), eb('state.isRead', '=', false)]);

export const NotificationQuerySchema = z.object({
  isRead: z
    .preprocess(
      (v) => (v === '' || v === null ? undefined : v),
      z.enum(['true', 'false'], { error: 'isRead must be true or false' }).optional(),
    )
    .transform((v) => (v === undefined ? undefined : v === 'true')),
  category: z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z
      .enum(NOTIFICATION_CATEGORIES, { error: `category must be one of ${NOTIFICATION_CATEGORIES.join(', ')}` })
      .optional(),
  ),
  limit: integerParam('limit', 1, API_MAX_LIMIT),
  offset: integerParam('offset', 0),
});
export type NotificationQuery = NotificationFilter & { limit?: number; offset?: number };

export function parseNotificationQuery(input: Record<string, unknown>): NotificationQuery {
  const parsed = NotificationQuerySchema.safeParse(input);
  if (!parsed.success) throw invalid(fieldErrorsFromZod(parsed.error.issues));
  return parsed.data;
}

/** GET /api/notifications and the page: newest first, with the total for paging. */
export async function listNotifications(
  ctx: ServiceContext,
  query: NotificationQuery = {},
): Promise<{ rows: NotificationView[]; total: number }> {
  const reader = await readerOf(ctx);
  const now = new Date().toISOString();
  const limit = Math.min(query.limit ?? API_MAX_LIMIT, API_MAX_LIMIT);
  const offset = query.offset ?? 0;
  // Every tab's total is the bell's count, kept per user with its split by category: counting
  // again would read every notification that reaches the reader on each page. Known first, it
  // also spares a tab with nothing (or a page past the end) the walk through every notification.
  const kept = await keptCount(ctx);
  const count = query.category ? (kept.byCategory[query.category] ?? { total: 0, unread: 0 }) : kept;
  const total = query.isRead === undefined ? count.total : query.isRead ? count.total - count.unread : count.unread;
  if (total <= offset) return { rows: [], total };
  // One walk, newest first, through every notification (a category tab's through its category's
  // index, migration 0031) finds the page after few others for administrators and owners: the
  // app addresses notifications to administrators (of a company or of the group) or to one user
  // (notification-events.server.ts), so all but other users' own reach them. The read ones (API
  // only) are found from the reader's states.
  if (query.category || query.isRead === true || rolesAtOrBelow(reader.role).includes('admin')) {
    let base = visible(ctx.db, reader, now);
    if (query.category) base = base.where('notifications.category', '=', query.category);
    const rows = await listed(base, query.isRead, reader.id).limit(limit).offset(offset).execute();
    return { rows: rows.map(viewOf), total };
  }
  // Anyone else is addressed by few among many: the walk would read every notification to find
  // their own, so its cost grew with every notification written. Their whole
  // list and its unread part read each audience of the reader newest first from its own index
  // range and merge them (migration 0034), taking from each only as far as the page needs.
  // Compiled once per shape of reader: copies of the conditions cost more to build than to
  // run. Each value is used once (db/compiled-cache.ts): per audience the reader's id
  // for the state, the targeting and the dismissals, the time, the company, the reader's id for
  // the reads (unread tab) and as the target (their own audience), the page's end (PostgreSQL);
  // then the limit and the offset.
  const scoped = reader.companyId !== null;
  const unread = query.isRead === false;
  const postgres = dialectOf(ctx.db) === 'postgres';
  const shape = `notificationPage:${reader.role}:${scoped ? 'company' : 'group'}:${reader.categories.join(',')}:${unread ? 'unread' : 'all'}`;
  const values = audiences(reader.role).flatMap((audience) => [
    reader.id,
    reader.id,
    now,
    ...(scoped ? [reader.companyId] : []),
    reader.id,
    ...(unread ? [reader.id] : []),
    ...(audience.to === 'reader' ? [reader.id] : []),
    ...(postgres ? [offset + limit] : []),
  ]);
  const rows = await runCompiled(ctx.db, shape, [...values, limit, offset], (v) => {
    let next = 0;
    const take = () => v[next++];
    const parts = audiences(reader.role).map((audience) => {
      const [stateOf, id, at] = [take() as number, take() as number, take() as string];
      const companyId = scoped ? (take() as number) : null;
      const hiddenOf = take() as number;
      const readOf = unread ? (take() as number) : reader.id;
      const target = audience.to === 'reader' ? (take() as number) : null;
      const part = listed(
        visible(ctx.db, { ...reader, id, companyId }, at, stateOf, undefined, hiddenOf).where((eb) =>
          audience.where(eb, target),
        ),
        query.isRead,
        readOf,
      );
      return { audience, part, end: postgres ? (take() as number) : 0 };
    });
    const [pageLimit, pageOffset] = [take() as number, take() as number];
    // SQLite reads each part in its index's order as far as the merge takes it (a part of a
    // union has no order of its own). PostgreSQL is told where each part ends, and the parts
    // addressed to no user are ordered by the index's leading columns too: it leaves out of an
    // order a column `= value` but not one that `is null`, and would read such a part whole
    // and sort it.
    if (!postgres)
      return newestFirst(
        parts.map(({ part }) => part.clearOrderBy()),
        pageLimit,
        pageOffset,
      );
    return newestFirst(
      parts.map(({ audience, part, end }, i) => {
        const ordered =
          audience.to === 'reader'
            ? part
            : part
                .clearOrderBy()
                .orderBy('notifications.targetUserId', 'desc')
                .orderBy('notifications.targetUserRole', 'desc')
                .orderBy('notifications.createdAt', 'desc')
                .orderBy('notifications.id', 'desc');
        return ctx.db.selectFrom(ordered.limit(end).as(`part${i}`)).selectAll();
      }),
      pageLimit,
      pageOffset,
    );
  });
  return { rows: rows.map(viewOf), total };
}

/** The merge of the audiences' parts (a union), newest first: one page of it. */
function newestFirst<DB, TB extends keyof DB, O extends { id: number; createdAt: string }>(
  parts: SelectQueryBuilder<DB, TB, O>[],
  limit: number,
  offset: number,
) {
  return parts
    .reduce((merged, part) => merged.unionAll(part))
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset);
}

/** A listed row as the API and the screens show it. */
function viewOf<R extends { isRead: boolean | null; texts: string | null }>(row: R) {
  return { ...row, isRead: row.isRead === true, texts: noticeTextsOf(row.texts) };
}

/** The listed columns; the merge of audiences orders by the named id and createdAt. */
const LISTED = [
  'notifications.id as id',
  'notifications.type',
  'notifications.priority',
  'notifications.title',
  'notifications.message',
  'notifications.createdAt as createdAt',
  'notifications.actionUrl',
  'notifications.actionText',
  'notifications.category',
  'state.isRead',
  'notifications.repeatCount',
  'notifications.texts',
] as const;

/** The listed columns of `base` newest first, with the read filter of a tab. */
function listed(base: ReturnType<typeof visible>, isRead: boolean | undefined, readOf: number) {
  let query = base;
  if (isRead === false) query = query.where((eb) => eb.not(eb.exists(stateWhere(eb, readOf, 'isRead'))));
  if (isRead === true) query = query.where('state.isRead', '=', true);
  return query.select(LISTED).orderBy('notifications.createdAt', 'desc').orderBy('notifications.id', 'desc');
}

/**
 * A reader's notifications by whom they are addressed to, without overlap and together all that
 * can reach a reader of this role (reaches() decides the rest): the reader by id (`target`, the
 * target user index), and, addressed to no user, those for every role ('') and those for each
 * role that reaches the reader (the audience index: target user, target role, created, id;
 * migration 0034).
 */
function audiences(
  role: Role,
): { to: 'reader' | '' | Role; where: (eb: NotificationsEb, target: number | null) => Expression<SqlBool> }[] {
  const toNoUser = (to: Role | '') => (eb: NotificationsEb) =>
    eb.and([
      eb('notifications.targetUserId', 'is', null),
      to === '' ? eb('notifications.targetUserRole', 'is', null) : eb('notifications.targetUserRole', '=', to),
    ]);
  return [
    { to: 'reader', where: (eb, target) => eb('notifications.targetUserId', '=', target!) },
    { to: '', where: toNoUser('') },
    ...rolesAtOrBelow(role).map((to) => ({ to, where: toNoUser(to) })),
  ];
}

/**
 * GET /api/notifications/count and the badge: the reader's notifications, and how many are
 * unread. Kept per user (notification-badges.server.ts) and counted here when it must be.
 */
export async function countNotifications(
  ctx: ServiceContext,
  known?: { settings: UserSettings | null },
  now = new Date(),
): Promise<NotificationCount> {
  const { total, unread } = await keptCount(ctx, known, now);
  return { total, unread };
}

/** The reader's kept count with its split by category (the page's tabs). */
async function keptCount(
  ctx: ServiceContext,
  known?: { settings: UserSettings | null },
  now = new Date(),
): Promise<KeptNotificationCount> {
  const reader = await readerOf(ctx, known);
  const scoped = reader.companyId !== null;
  const scope = `${reader.role}:${reader.companyId ?? 'group'}:${reader.categories.join(',')}`;
  return keptNotificationCount(
    ctx.db,
    reader.id,
    scope,
    async (now, expiredAfter) => {
      // Compiled once per shape of reader (db/compiled-cache.ts). The role and the categories are
      // in the shape; the ids and the times are values, the reader's id three times (the state's
      // join, the targeting and the dismissals use it once each).
      const window = expiredAfter === undefined ? 'live' : 'expired';
      const shape = `notificationCount:${reader.role}:${scoped ? 'company' : 'group'}:${reader.categories.join(',')}:${window}`;
      const values = [
        reader.id,
        reader.id,
        now,
        ...(expiredAfter === undefined ? [] : [expiredAfter]),
        ...(scoped ? [reader.companyId] : []),
        reader.id,
      ];
      const rows = await runCompiled(ctx.db, shape, values, (v) => {
        const [stateOf, id, at] = v;
        const after = expiredAfter === undefined ? undefined : (v[3] as string);
        const companyId = scoped ? (v[v.length - 2] as number) : null;
        return visible(
          ctx.db,
          { ...reader, id: id as number, companyId },
          at as string,
          stateOf as number,
          after,
          v[v.length - 1] as number,
        )
          .select((eb) => [
            'notifications.category',
            eb.fn.countAll<number>().as('total'),
            eb.fn.sum<number>(eb.case().when(isUnread(eb)).then(1).else(0).end()).as('unread'),
          ])
          .groupBy('notifications.category');
      });
      const counted: KeptNotificationCount = { total: 0, unread: 0, byCategory: {} };
      for (const row of rows) {
        const count = { total: Number(row.total ?? 0), unread: Number(row.unread ?? 0) };
        counted.byCategory[row.category] = count;
        counted.total += count.total;
        counted.unread += count.unread;
      }
      return counted;
    },
    now,
  );
}

/** A notification that reaches the reader (dismissed or not), else 404: another user's id leaks nothing. */
async function reachable(ctx: ServiceContext, reader: Reader, id: number): Promise<void> {
  const row = await ctx.db
    .selectFrom('notifications')
    .select('notifications.id')
    .where('notifications.id', '=', id)
    .where((eb) => reaches(eb, reader, new Date().toISOString(), dialectOf(ctx.db)))
    .executeTakeFirst();
  if (!row) throw notFound();
}

async function setState(ctx: ServiceContext, reader: Reader, ids: number[], change: 'read' | 'dismiss'): Promise<void> {
  if (ids.length === 0) return;
  const now = new Date().toISOString();
  const values = change === 'read' ? { isRead: true, readAt: now } : { isDismissed: true, dismissedAt: now };
  // Chunks keep each statement under SQLite's bound-parameter limit.
  for (let i = 0; i < ids.length; i += 500) {
    await ctx.db
      .insertInto('userNotificationSettings')
      .values(ids.slice(i, i + 500).map((notificationId) => ({ userId: reader.id, notificationId, ...values })))
      .onConflict((oc) => oc.columns(['userId', 'notificationId']).doUpdateSet(values))
      .execute();
  }
}

/** POST /api/notifications/{id}/read. Reading again changes nothing but the answer. */
export async function markNotificationRead(ctx: ServiceContext, id: number): Promise<NotificationCount> {
  const reader = await readerOf(ctx);
  await reachable(ctx, reader, id);
  const state = await ctx.db
    .selectFrom('userNotificationSettings')
    .select('isRead')
    .where('userId', '=', reader.id)
    .where('notificationId', '=', id)
    .executeTakeFirst();
  if (!state?.isRead) await setState(ctx, reader, [id], 'read');
  return countNotifications(ctx);
}

/** POST /api/notifications/{id}/dismiss: gone from the reader's list and count. */
export async function dismissNotification(ctx: ServiceContext, id: number): Promise<NotificationCount> {
  const reader = await readerOf(ctx);
  await reachable(ctx, reader, id);
  await setState(ctx, reader, [id], 'dismiss');
  return countNotifications(ctx);
}

/** POST /api/notifications/mark-all-read: every unread notification of the reader. */
export async function markAllNotificationsRead(ctx: ServiceContext): Promise<MarkAllReadResult> {
  const reader = await readerOf(ctx);
  const unread = await visible(ctx.db, reader, new Date().toISOString())
    .where(isUnread)
    .select('notifications.id')
    .execute();
  await setState(
    ctx,
    reader,
    unread.map((row) => row.id),
    'read',
  );
  return { ...(await countNotifications(ctx)), marked: unread.length };
}

export { enabledCategories, recipientsOf, rolesAtOrBelow } from './notification-recipients.server.ts';

/** The nightly purge: expired notifications (and their read states, by cascade). */
export async function purgeExpiredNotifications(db: Db, now = new Date()): Promise<{ deleted: number }> {
  const result = await db.deleteFrom('notifications').where('expiresAt', '<=', now.toISOString()).executeTakeFirst();
  return { deleted: Number(result.numDeletedRows ?? 0) };
}
