// Who may call a route: every route module with a loader or an action exports `access`, and the
// route manifest (test/security/manifest.ts) is built from those exports, the route table
// (SCREENS) and the built Remix route list. Each rule is declared once, where the kit that
// enforces it reads it: `/api` routes in `apiRoute`'s methods, screens in the route table (to open
// them) and in each form intent (`screenAccess`, enforced by `screenAction`).
import { can, canGroupWide, outOfScope, type Action, type Area, type Principal } from '../lib/permissions.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export const METHODS: readonly Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

export type AccessRule =
  /** Anyone, signed in or not (sign-in, the landing page). */
  | { kind: 'public' }
  /** Anyone; answers a redirect whoever asks (old paths, GET of a POST-only route). */
  | { kind: 'redirect' }
  /** No such route: 404 for everyone (the /api catch-all). */
  | { kind: 'none' }
  /** Any signed-in user (their own profile, settings, sessions). */
  | { kind: 'signedIn' }
  /** The route table's permission for this screen path (SCREENS in app/platform/screen/navigation.ts). */
  | { kind: 'screen' }
  /**
   * A permission: an area and an action (docs/security.md). `groupWide`: it writes what the whole
   * group shares, which a user limited to one company only reads (canGroupWide).
   */
  | { kind: 'area'; area: Area; action: Action; groupWide?: true }
  /** The user named by the path's `id` themselves, or (when given) a holder of the permission. */
  | { kind: 'self'; or?: { area: Area; action: Action }; refusal?: string }
  /** The owner only (the installation's security policy, resetting another user's second factor). */
  | { kind: 'owner' };

/** A rule that needs a signed-in user. */
export type SignedInRule = Exclude<AccessRule, { kind: 'public' | 'redirect' | 'none' }>;

/** Who may post a form intent: a rule of its own (never the screen's), or anyone (sign-in). */
export type IntentRule = Exclude<AccessRule, { kind: 'screen' | 'redirect' | 'none' }>;

export const allow = {
  public: { kind: 'public' } as const,
  redirect: { kind: 'redirect' } as const,
  none: { kind: 'none' } as const,
  signedIn: { kind: 'signedIn' } as const,
  owner: { kind: 'owner' } as const,
  screen: { kind: 'screen' } as const,
  to: (
    area: Area,
    action: Action = 'read',
    options: { groupWide?: boolean } = {},
  ): Extract<AccessRule, { kind: 'area' }> => ({
    kind: 'area',
    area,
    action,
    ...(options.groupWide ? { groupWide: true as const } : {}),
  }),
  /** `refusal`: the 403 message for somebody else (default 'Forbidden'). */
  self: (or?: { area: Area; action: Action }, refusal?: string): Extract<AccessRule, { kind: 'self' }> => ({
    kind: 'self',
    ...(or ? { or } : {}),
    ...(refusal ? { refusal } : {}),
  }),
};

/** A screen's POST: one rule per `intent` of its forms. */
export interface IntentRules {
  intents: Record<string, AccessRule>;
}

export interface RouteVariant {
  /** Values of the path's non-id parameters this variant serves (`$resource` → 'budgets'). */
  params?: Record<string, string>;
  methods: Partial<Record<Method, AccessRule | IntentRules>>;
  /** Rows belong to companies: a company-scoped user gets 404 for another company's row. */
  companyScoped?: boolean;
  /** Writes change what the whole group shares: a company-scoped user is refused (403) whatever their permissions. */
  groupWide?: boolean;
  /** The declared resource (key) the variant serves. */
  resource?: string;
  /** Catch-all screen route: serves the route table's screens that have no route file. */
  catchAll?: boolean;
}

/** What a route module exports as `access`. */
export type RouteAccess = readonly RouteVariant[];

export function isIntentRules(rule: AccessRule | IntentRules | undefined): rule is IntentRules {
  return !!rule && 'intents' in rule;
}

/** The rules of a screen's form intents, as each intent declares its own (`allow`). */
export function intentRules(intents: Readonly<Record<string, { allow: IntentRule }>>): IntentRules {
  return { intents: Object.fromEntries(Object.entries(intents).map(([name, intent]) => [name, intent.allow])) };
}

/**
 * A screen's `access`, from what its loader and action enforce: the route table's rule to open it
 * (`get`: another rule, e.g. the public sign-in page) and the rule each form intent declares.
 */
export function screenAccess(
  intents: Readonly<Record<string, { allow: IntentRule }>>,
  options: Omit<RouteVariant, 'methods'> & { get?: AccessRule } = {},
): RouteAccess {
  const { get = allow.screen, ...variant } = options;
  return [{ ...variant, methods: { GET: get, POST: intentRules(intents) } }];
}

/** What the whole group shares: a declaration without companies (departments, integration sources and endpoints). */
const groupWide = (def: { company: unknown }) => def.company === 'none';

/** The intents every resource screen answers and the rule of each (a log answers none). */
export function resourceIntentRules(def: {
  area: Area;
  readOnly?: boolean;
  company: unknown;
}): Record<string, IntentRule> {
  if (def.readOnly) return {};
  const options = { groupWide: groupWide(def) };
  return {
    create: allow.to(def.area, 'create', options),
    update: allow.to(def.area, 'edit', options),
    delete: allow.to(def.area, 'delete', options),
  };
}

/**
 * A resource screen's `access`: the route table's rule to open it, and the rules of its intents
 * (resourceIntentRules, which resourceAction enforces) and of the screen's own extra intents.
 */
export function resourceScreenAccess(
  def: { key: string; area: Area; readOnly?: boolean; company: unknown },
  extraIntents: Readonly<Record<string, { allow: IntentRule }>> = {},
): RouteAccess {
  const own = Object.fromEntries(
    Object.entries(resourceIntentRules(def)).map(([name, rule]) => [name, { allow: rule }]),
  );
  return screenAccess(
    { ...own, ...extraIntents },
    { companyScoped: !groupWide(def), groupWide: groupWide(def), resource: def.key },
  );
}

/** Whether a signed-in user passes a rule (null: the rule is decided elsewhere). */
export function passes(rule: AccessRule, user: Principal, params: Record<string, string | undefined>): boolean | null {
  switch (rule.kind) {
    case 'public':
    case 'redirect':
    case 'signedIn':
      return true;
    case 'none':
      return false;
    case 'area':
      return rule.groupWide ? canGroupWide(user, rule.area, rule.action) : can(user, rule.area, rule.action);
    case 'self':
      return String(user.id) === params.id || (rule.or ? can(user, rule.or.area, rule.or.action) : false);
    case 'owner':
      return user.role === 'owner';
    case 'screen':
      return null;
  }
}

/**
 * How a user a rule refuses is answered: 404 when only their company scope keeps them out of
 * something installation-wide (for them it does not exist), else 403.
 */
export function refusalStatus(rule: AccessRule, user: Principal): 403 | 404 {
  const area = rule.kind === 'area' ? rule.area : rule.kind === 'self' ? rule.or?.area : undefined;
  return area !== undefined && outOfScope(user, area) ? 404 : 403;
}
