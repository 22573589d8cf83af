// Who may call a route: every route module with a loader or an action exports `access`, and the
// route manifest (test/security/manifest.ts) is built from those exports, the route table
// (SCREENS) and the built Remix route list. `/api` routes enforce their rules in `apiRoute`;
// screens enforce theirs through the route table and the services.
import { can, outOfScope, type Action, type Area, type Principal } from '../lib/permissions.ts';

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
  /** A permission: an area and an action (docs/security.md). */
  | { kind: 'area'; area: Area; action: Action }
  /** The user named by the path's `id` themselves, or (when given) a holder of the permission. */
  | { kind: 'self'; or?: { area: Area; action: Action }; refusal?: string };

/** A rule that needs a signed-in user. */
export type SignedInRule = Exclude<AccessRule, { kind: 'public' | 'redirect' | 'none' }>;

export const allow = {
  public: { kind: 'public' } as const,
  redirect: { kind: 'redirect' } as const,
  none: { kind: 'none' } as const,
  signedIn: { kind: 'signedIn' } as const,
  screen: { kind: 'screen' } as const,
  to: (area: Area, action: Action = 'read'): SignedInRule => ({ kind: 'area', area, action }),
  /** `refusal`: the 403 message for somebody else (default 'Forbidden'). */
  self: (or?: { area: Area; action: Action }, refusal?: string): SignedInRule => ({ kind: 'self', ...(or ? { or } : {}), ...(refusal ? { refusal } : {}) }),
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

/** The intents every resource screen answers, and the permission each needs. */
export function resourceIntentRules(def: { area: Area; readOnly?: boolean }, extra: Record<string, Action> = {}): IntentRules {
  const intents: Record<string, AccessRule> = def.readOnly
    ? {}
    : { create: allow.to(def.area, 'create'), update: allow.to(def.area, 'edit'), delete: allow.to(def.area, 'delete') };
  for (const [name, action] of Object.entries(extra)) intents[name] = allow.to(def.area, action);
  return { intents };
}

/** A resource screen's `access`: the route table's rule to open it, its intents' rules to post. */
export function resourceScreenAccess(
  def: { key: string; area: Area; readOnly?: boolean; company: unknown },
  extraIntents: Record<string, Action> = {},
): RouteAccess {
  return [{ methods: { GET: allow.screen, POST: resourceIntentRules(def, extraIntents) }, companyScoped: def.company !== 'none', groupWide: def.company === 'none', resource: def.key }];
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
      return can(user, rule.area, rule.action);
    case 'self':
      return String(user.id) === params.id || (rule.or ? can(user, rule.or.area, rule.or.action) : false);
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
