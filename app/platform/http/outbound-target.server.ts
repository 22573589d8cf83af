// Outbound requests (push delivery, later integration syncs) go to public http(s) addresses only
// (docs/security.md); `ALLOW_PRIVATE_TARGETS=1` also allows loopback and private networks. A name is
// checked by resolving it, and the request then connects to exactly the addresses that were
// checked (a lookup function given to http/https.request), so a name that resolves to a public
// address for the check and to a private one a moment later (DNS rebinding) cannot slip through.
import dns from 'node:dns';
import net, { type LookupFunction } from 'node:net';
import { msg } from '../i18n/messages.ts';
import { phrased } from '../i18n/refusal-words.ts';

export type OutboundTargetReason = 'invalid-url' | 'protocol' | 'private-address' | 'unresolvable';

/** Why an address may not be the target of an outbound request; the message is fit for a user. */
export class OutboundTargetError extends Error {
  readonly reason: OutboundTargetReason;

  constructor(reason: OutboundTargetReason, message: string) {
    super(message);
    this.name = 'OutboundTargetError';
    this.reason = reason;
  }
}

export function isOutboundTargetError(error: unknown): error is OutboundTargetError {
  return error instanceof OutboundTargetError;
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has (tests inject their own). */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

const RESOLVE_TIMEOUT_MS = 5_000;

/** The system resolver (getaddrinfo: /etc/hosts included), as http/https would use it. */
export const systemResolver: HostResolver = async (hostname) => {
  const found = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return found.map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));
};

export interface TargetPolicy {
  /** ALLOW_PRIVATE_TARGETS: loopback and private networks allowed too. */
  allowPrivate: boolean;
  /** URL schemes allowed, with the colon (default http: and https:). */
  protocols?: readonly string[];
  /** Default: the system resolver. */
  resolve?: HostResolver;
}

export interface CheckedTarget {
  url: URL;
  /** The host without IPv6 brackets. */
  hostname: string;
  /** The checked addresses of a host name (null for an IP literal, or when private targets are allowed and nothing was resolved). */
  addresses: ResolvedAddress[] | null;
  /** For http/https.request: connects to the checked addresses only (undefined: nothing to pin). */
  lookup: LookupFunction | undefined;
}

// ---------------------------------------------------------------------------------------------
// Addresses

/** IPv4 ranges that are not public: [network, prefix length]. */
const IPV4_NOT_PUBLIC: [string, number][] = [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];

const ipv4Number = (bytes: ArrayLike<number>) =>
  ((bytes[0] << 24) | (bytes[1] << 16) | (bytes[2] << 8) | bytes[3]) >>> 0;

const IPV4_RANGES = IPV4_NOT_PUBLIC.map(([network, bits]) => {
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return { base: (ipv4Number(network.split('.').map(Number)) & mask) >>> 0, mask };
});

function isPublicIPv4(bytes: ArrayLike<number>): boolean {
  const value = ipv4Number(bytes);
  return !IPV4_RANGES.some((range) => (value & range.mask) >>> 0 === range.base);
}

/** The 16 bytes of an IPv6 address (net.isIPv6 already true), embedded dotted quad included. */
function ipv6Bytes(text: string): number[] {
  let source = text;
  const groups: number[] = [];
  const dotted = source.lastIndexOf('.') >= 0 ? source.slice(source.lastIndexOf(':') + 1) : null;
  if (dotted) {
    const [a, b, c, d] = dotted.split('.').map(Number);
    source = `${source.slice(0, source.lastIndexOf(':') + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = source.includes('::') ? source.split('::') : [source, null];
  const parse = (part: string) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const first = parse(head);
  const last = tail === null ? [] : parse(tail);
  groups.push(...first, ...new Array(8 - first.length - last.length).fill(0), ...last);
  return groups.flatMap((g) => [g >> 8, g & 0xff]);
}

function isPublicIPv6(bytes: number[]): boolean {
  const zeros = (from: number, to: number) => bytes.slice(from, to).every((b) => b === 0);
  // IPv4-mapped (::ffff:a.b.c.d): the IPv4 address decides.
  if (zeros(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return isPublicIPv4(bytes.slice(12));
  // ::, ::1 and the deprecated IPv4-compatible ::a.b.c.d.
  if (zeros(0, 12)) return false;
  // NAT64 well-known prefix 64:ff9b::/96: the embedded IPv4 address decides.
  if (bytes[0] === 0x00 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && zeros(4, 12))
    return isPublicIPv4(bytes.slice(12));
  // 6to4 2002::/16: the embedded IPv4 address decides.
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return isPublicIPv4(bytes.slice(2, 6));
  // Only global unicast (2000::/3) is public: this leaves out unique-local fc00::/7, link-local
  // fe80::/10, site-local fec0::/10, multicast ff00::/8, discard 100::/64, local NAT64 64:ff9b:1::/48.
  if ((bytes[0] & 0xe0) !== 0x20) return false;
  // IETF protocol assignments 2001::/23 (Teredo 2001::/32, benchmarking, ORCHID).
  if (bytes[0] === 0x20 && bytes[1] === 0x01 && bytes[2] < 0x02) return false;
  // Documentation 2001:db8::/32 and 3fff::/20.
  if (bytes[0] === 0x20 && bytes[1] === 0x01 && bytes[2] === 0x0d && bytes[3] === 0xb8) return false;
  if (bytes[0] === 0x3f && bytes[1] === 0xff && (bytes[2] & 0xf0) === 0) return false;
  return true;
}

/** An IP address as text without IPv6 brackets or zone. */
const bareAddress = (ip: string) =>
  ip
    .trim()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/%.*$/, '');

/**
 * Whether an IP address is public: false for loopback, private, link-local, unique-local,
 * carrier-grade NAT, multicast, unspecified, documentation and other reserved ranges, IPv4 and
 * IPv6 (IPv4-mapped, NAT64 and 6to4 addresses are judged by their IPv4 address), and for
 * anything that is not an IP address.
 */
export function isPublicAddress(ip: string): boolean {
  const address = bareAddress(ip);
  const version = net.isIP(address);
  if (version === 4) return isPublicIPv4(address.split('.').map(Number));
  if (version === 6) return isPublicIPv6(ipv6Bytes(address));
  return false;
}

// ---------------------------------------------------------------------------------------------
// Names and URLs

/** RFC 6761: localhost and every name under it are loopback, whatever a resolver says. */
const isLocalhostName = (hostname: string) => /(^|\.)localhost\.?$/i.test(hostname);

const PRIVATE_MESSAGE = msg('The address is on a private or local network; only public addresses are allowed');

const unresolvable = (host: string) =>
  phrased((m) => new OutboundTargetError('unresolvable', m), msg('The host {host} could not be resolved'), { host });

function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
    timer.unref?.();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Resolves a host name and checks every address (the policy allows private ones, or all are public). */
async function resolveChecked(
  hostname: string,
  allowPrivate: boolean,
  resolve: HostResolver,
): Promise<ResolvedAddress[]> {
  if (!allowPrivate && isLocalhostName(hostname)) throw new OutboundTargetError('private-address', PRIVATE_MESSAGE);
  let addresses: ResolvedAddress[];
  try {
    addresses = await withTimeout(resolve(hostname), RESOLVE_TIMEOUT_MS, 'timed out');
  } catch (error) {
    if (error instanceof OutboundTargetError) throw error;
    throw unresolvable(hostname);
  }
  const valid = addresses.filter((entry) => net.isIP(bareAddress(entry.address)) !== 0);
  if (valid.length === 0) throw unresolvable(hostname);
  // Every address must be public: a connection may go to any of them.
  if (!allowPrivate && valid.some((entry) => !isPublicAddress(entry.address)))
    throw new OutboundTargetError('private-address', PRIVATE_MESSAGE);
  return valid.map((entry) => ({
    address: bareAddress(entry.address),
    family: net.isIP(bareAddress(entry.address)) === 6 ? 6 : 4,
  }));
}

/**
 * Checks a URL before an outbound request: it parses, its scheme is allowed, and (unless
 * private targets are allowed) its host is a public IP address or a name whose every address is
 * public. Rejects with an OutboundTargetError whose message says why. The answer's `lookup`
 * makes the request connect to the addresses that were checked.
 */
export async function assertPublicTarget(url: string, options: TargetPolicy): Promise<CheckedTarget> {
  const protocols = options.protocols ?? ['https:', 'http:'];
  if (typeof url !== 'string' || !URL.canParse(url))
    throw new OutboundTargetError('invalid-url', msg('The address is not a valid URL'));
  const parsed = new URL(url);
  if (!protocols.includes(parsed.protocol)) {
    const names = protocols.map((p) => p.replace(/:$/, ''));
    const [first, second] = names;
    throw names.length === 1
      ? phrased((m) => new OutboundTargetError('protocol', m), msg('Only {first} addresses are allowed'), { first })
      : phrased((m) => new OutboundTargetError('protocol', m), msg('Only {first} or {second} addresses are allowed'), {
          first,
          second,
        });
  }
  const hostname = bareAddress(parsed.hostname);
  if (!hostname) throw new OutboundTargetError('invalid-url', msg('The address has no host'));
  if (net.isIP(hostname) !== 0) {
    if (!options.allowPrivate && !isPublicAddress(hostname))
      throw new OutboundTargetError('private-address', PRIVATE_MESSAGE);
    return { url: parsed, hostname, addresses: null, lookup: undefined };
  }
  // Private targets allowed: nothing to refuse, the request resolves the name itself.
  if (options.allowPrivate) return { url: parsed, hostname, addresses: null, lookup: undefined };
  const addresses = await resolveChecked(hostname, false, options.resolve ?? systemResolver);
  return { url: parsed, hostname, addresses, lookup: pinnedLookup(addresses) };
}

// ---------------------------------------------------------------------------------------------
// Lookup functions for http/https.request (net.connect's `lookup` option)

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

function lookupWith(resolveName: (hostname: string) => Promise<ResolvedAddress[]>): LookupFunction {
  return ((hostname: string, options: dns.LookupOptions | number | LookupCallback, callback?: LookupCallback) => {
    const done = (typeof options === 'function' ? options : callback) as LookupCallback;
    const opts: dns.LookupOptions =
      typeof options === 'object' && options !== null
        ? options
        : typeof options === 'number'
          ? { family: options }
          : {};
    const wanted = opts.family === 'IPv4' ? 4 : opts.family === 'IPv6' ? 6 : Number(opts.family ?? 0);
    resolveName(hostname).then(
      (addresses) => {
        const list = wanted === 4 || wanted === 6 ? addresses.filter((entry) => entry.family === wanted) : addresses;
        if (list.length === 0) {
          const error: NodeJS.ErrnoException = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), {
            code: 'ENOTFOUND',
            hostname,
          });
          done(error, opts.all ? [] : '', 0);
          return;
        }
        if (opts.all)
          done(
            null,
            list.map((entry) => ({ address: entry.address, family: entry.family })),
          );
        else done(null, list[0].address, list[0].family);
      },
      (error: NodeJS.ErrnoException) => done(error, opts.all ? [] : '', 0),
    );
  }) as LookupFunction;
}

/** A lookup that answers the given (already checked) addresses for any name. */
export function pinnedLookup(addresses: readonly ResolvedAddress[]): LookupFunction {
  const copy = addresses.map((entry) => ({ ...entry }));
  return lookupWith(async () => copy);
}

/**
 * A lookup for http/https.request that resolves the name when the connection is made and
 * refuses (an OutboundTargetError as the connection error) any name with a non-public address,
 * unless private targets are allowed. Use it when the name is not checked beforehand.
 */
export function guardedLookup(options: { allowPrivate: boolean; resolve?: HostResolver }): LookupFunction {
  const resolve = options.resolve ?? systemResolver;
  return lookupWith((hostname) => resolveChecked(hostname, options.allowPrivate, resolve));
}
