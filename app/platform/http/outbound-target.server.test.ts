// The outbound-target policy (docs/security.md) without a database: which addresses are public, which
// URLs may be requested, and that a request connects only to the addresses that were checked
// (a name that answers differently later, DNS rebinding, cannot turn the request inward).
import http from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assertPublicTarget,
  guardedLookup,
  isPublicAddress,
  OutboundTargetError,
  pinnedLookup,
  type HostResolver,
  type ResolvedAddress,
} from './outbound-target.server.ts';

const resolverOf = (table: Record<string, string[]>): HostResolver & { calls: string[] } => {
  const calls: string[] = [];
  const resolve = async (hostname: string): Promise<ResolvedAddress[]> => {
    calls.push(hostname);
    const found = table[hostname];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(resolve, { calls });
};

async function rejection(promise: Promise<unknown>): Promise<OutboundTargetError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OutboundTargetError);
  return error as OutboundTargetError;
}

function lookupOnce(lookup: LookupFunction, hostname: string, options: { all?: boolean; family?: number }) {
  return new Promise<{ error: Error | null; address: unknown; family?: number }>((resolve) => {
    (lookup as any)(hostname, options, (error: Error | null, address: unknown, family?: number) =>
      resolve({ error, address, family }),
    );
  });
}

describe('isPublicAddress', () => {
  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '11.0.0.1',
    '172.15.255.255',
    '172.32.0.0',
    '100.63.255.255',
    '100.128.0.0',
    '169.253.255.255',
    '192.169.0.1',
    '223.255.255.254',
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    '2a00:1450:4001:82a::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
    '[2606:4700:4700::1111]',
  ])('%s is public', (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });

  it.each([
    // IPv4: unspecified, private, CGNAT, loopback, link-local, documentation, benchmarking, multicast, reserved, broadcast
    '0.0.0.0',
    '0.1.2.3',
    '10.0.0.1',
    '10.255.255.255',
    '100.64.0.1',
    '100.127.255.255',
    '127.0.0.1',
    '127.255.0.1',
    '169.254.169.254',
    '172.16.0.1',
    '172.31.255.255',
    '192.0.0.8',
    '192.0.2.10',
    '192.168.1.1',
    '198.18.0.1',
    '198.19.255.255',
    '198.51.100.7',
    '203.0.113.9',
    '224.0.0.1',
    '239.255.255.250',
    '240.0.0.1',
    '255.255.255.255',
    // IPv6: unspecified, loopback, IPv4-mapped/compatible private, link-local (with zone), unique-local, site-local, multicast,
    // NAT64 of a private address, 6to4 of loopback, Teredo, documentation, discard
    '::',
    '::1',
    '[::1]',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:192.168.0.1',
    '::127.0.0.1',
    '::ffff:169.254.169.254',
    'fe80::1',
    'fe80::1%eth0',
    'febf::1',
    'fc00::1',
    'fd12:3456:789a::1',
    'fec0::1',
    'ff02::1',
    'ff0e::1',
    '64:ff9b::a00:1',
    '64:ff9b::127.0.0.1',
    '64:ff9b:1::1',
    '2002:7f00:1::1',
    '2002:c0a8:101::1',
    '2001::1',
    '2001:0:4136:e378::1',
    '2001:db8::1',
    '3fff::1',
    '100::1',
    // Not addresses at all
    '',
    'localhost',
    'example.com',
    '1.2.3',
    '1.2.3.4.5',
    '256.1.1.1',
    'fe80::zz',
  ])('%s is not public', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });
});

describe('assertPublicTarget', () => {
  const dns = resolverOf({
    'push.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
    'internal.example.com': ['10.1.2.3'],
    'mixed.example.com': ['93.184.216.34', '127.0.0.1'],
    'mapped.example.com': ['::ffff:127.0.0.1'],
    'empty.example.com': [],
  });
  const strict = { allowPrivate: false, protocols: ['https:'], resolve: dns };

  it('accepts a public https host and pins the checked addresses', async () => {
    const target = await assertPublicTarget('https://push.example.com/send/abc', strict);
    expect(target.hostname).toBe('push.example.com');
    expect(target.addresses).toEqual([
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 },
    ]);
    expect(target.lookup).toBeTypeOf('function');
    const one = await lookupOnce(target.lookup!, 'push.example.com', {});
    expect(one).toEqual({ error: null, address: '93.184.216.34', family: 4 });
    const all = await lookupOnce(target.lookup!, 'push.example.com', { all: true });
    expect(all.address).toEqual([
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 },
    ]);
    const v6 = await lookupOnce(target.lookup!, 'push.example.com', { family: 6 });
    expect(v6).toEqual({ error: null, address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 });
  });

  it('accepts a public IP literal without resolving anything', async () => {
    const calls = dns.calls.length;
    const target = await assertPublicTarget('https://93.184.216.34/x', strict);
    expect(target).toMatchObject({ hostname: '93.184.216.34', addresses: null, lookup: undefined });
    expect((await assertPublicTarget('https://[2606:4700:4700::1111]:8443/x', strict)).hostname).toBe(
      '2606:4700:4700::1111',
    );
    expect(dns.calls.length).toBe(calls);
  });

  it('refuses what is not a URL, and schemes outside the list', async () => {
    expect((await rejection(assertPublicTarget('not a url', strict))).reason).toBe('invalid-url');
    const http = await rejection(assertPublicTarget('http://push.example.com/x', strict));
    expect(http).toMatchObject({ reason: 'protocol', message: 'Only https addresses are allowed' });
    expect(
      (await rejection(assertPublicTarget('ftp://push.example.com/x', { allowPrivate: false, resolve: dns }))).message,
    ).toBe('Only https or http addresses are allowed');
    expect((await rejection(assertPublicTarget('file:///etc/passwd', { allowPrivate: true }))).reason).toBe('protocol');
  });

  it.each([
    'https://127.0.0.1/x',
    'https://10.0.0.1/x',
    'https://169.254.169.254/latest/meta-data',
    'https://[::1]/x',
    'https://[::ffff:127.0.0.1]/x',
    'https://[fe80::1]/x',
    'https://[fd00::1]/x',
    'https://0.0.0.0/x',
    // The URL parser turns these spellings into 127.0.0.1.
    'https://2130706433/x',
    'https://0x7f.1/x',
    'https://127.1/x',
    'https://017700000001/x',
  ])('refuses the private IP literal %s', async (url) => {
    const error = await rejection(assertPublicTarget(url, strict));
    expect(error.reason).toBe('private-address');
    expect(error.message).toMatch(/private or local network/);
  });

  it('refuses localhost names without asking the resolver', async () => {
    const calls = dns.calls.length;
    for (const url of [
      'https://localhost/x',
      'https://LOCALHOST:8443/x',
      'https://api.localhost/x',
      'https://localhost./x',
    ]) {
      expect((await rejection(assertPublicTarget(url, strict))).reason).toBe('private-address');
    }
    expect(dns.calls.length).toBe(calls);
  });

  it('refuses a name with any private address, and a name that does not resolve', async () => {
    expect((await rejection(assertPublicTarget('https://internal.example.com/x', strict))).reason).toBe(
      'private-address',
    );
    expect((await rejection(assertPublicTarget('https://mixed.example.com/x', strict))).reason).toBe('private-address');
    expect((await rejection(assertPublicTarget('https://mapped.example.com/x', strict))).reason).toBe(
      'private-address',
    );
    const missing = await rejection(assertPublicTarget('https://nowhere.example.com/x', strict));
    expect(missing).toMatchObject({
      reason: 'unresolvable',
      message: 'The host nowhere.example.com could not be resolved',
    });
    expect((await rejection(assertPublicTarget('https://empty.example.com/x', strict))).reason).toBe('unresolvable');
  });

  it('allows private targets when told to, without resolving', async () => {
    const calls = dns.calls.length;
    const allow = { allowPrivate: true, resolve: dns };
    expect((await assertPublicTarget('http://127.0.0.1:8080/x', allow)).hostname).toBe('127.0.0.1');
    expect(await assertPublicTarget('http://internal.example.com/x', allow)).toMatchObject({
      addresses: null,
      lookup: undefined,
    });
    expect((await assertPublicTarget('https://localhost/x', allow)).hostname).toBe('localhost');
    expect(dns.calls.length).toBe(calls);
  });

  it('keeps the checked answer when the name later resolves elsewhere (DNS rebinding)', async () => {
    let answer = '93.184.216.34';
    const rebinding: HostResolver = async () => [{ address: answer, family: 4 }];
    const target = await assertPublicTarget('https://rebind.example.com/x', {
      allowPrivate: false,
      resolve: rebinding,
    });
    answer = '127.0.0.1';
    expect(await lookupOnce(target.lookup!, 'rebind.example.com', {})).toEqual({
      error: null,
      address: '93.184.216.34',
      family: 4,
    });
  });
});

describe('lookups on real requests', () => {
  let server: http.Server;
  let port: number;
  const hosts: string[] = [];

  beforeAll(async () => {
    server = http.createServer((request, response) => {
      hosts.push(request.headers.host ?? '');
      response.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  function get(url: string, lookup: LookupFunction): Promise<{ status?: number; error?: Error }> {
    return new Promise((resolve) => {
      const request = http.get(url, { lookup, agent: false }, (response) => {
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode }));
      });
      request.on('error', (error) => resolve({ error }));
    });
  }

  it('a pinned lookup connects to the checked address, whatever the name', async () => {
    const result = await get(`http://push.example.test:${port}/x`, pinnedLookup([{ address: '127.0.0.1', family: 4 }]));
    expect(result.status).toBe(200);
    expect(hosts.at(-1)).toBe(`push.example.test:${port}`);
  });

  it('a guarded lookup refuses a name that resolves to a private address at connection time', async () => {
    const toLoopback = resolverOf({ 'rebind.example.test': ['127.0.0.1'] });
    const before = hosts.length;
    const refused = await get(
      `http://rebind.example.test:${port}/x`,
      guardedLookup({ allowPrivate: false, resolve: toLoopback }),
    );
    expect(refused.error).toBeInstanceOf(OutboundTargetError);
    expect((refused.error as OutboundTargetError).reason).toBe('private-address');
    expect(hosts.length).toBe(before);
    // The same name with private targets allowed connects.
    const allowed = await get(
      `http://rebind.example.test:${port}/x`,
      guardedLookup({ allowPrivate: true, resolve: toLoopback }),
    );
    expect(allowed.status).toBe(200);
    expect(toLoopback.calls).toEqual(['rebind.example.test', 'rebind.example.test']);
  });

  it('a guarded lookup reports a name that does not resolve', async () => {
    const result = await get(
      `http://nowhere.example.test:${port}/x`,
      guardedLookup({ allowPrivate: false, resolve: resolverOf({}) }),
    );
    expect((result.error as OutboundTargetError).reason).toBe('unresolvable');
  });
});
