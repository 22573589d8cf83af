// Generators of hostile input for the fuzz suite (test/fuzz.test.ts): valid-ish records built
// from the resource declarations, mutated by wrong types, missing and extra fields, nulls,
// arrays, huge strings, unicode and control characters, boundary numbers, exponent notation,
// invalid dates and prototype keys; raw bodies (invalid JSON, wrong content types, 2 MB); odd
// ids; list query strings.
import fc from 'fast-check';
import { z } from 'zod';
import { referencedResource, type FieldDef, type ResourceDef } from '../../app/platform/resources/define.ts';

/** A reference to a real row, resolved when the case runs (ids are known only then). */
export class Ref {
  readonly table: string;
  readonly pick: number;
  constructor(table: string, pick: number) {
    this.table = table;
    this.pick = pick;
  }
  toString() {
    return `Ref(${this.table}#${this.pick})`;
  }
}

/** A path id: a real row of the target's table (by index) or an odd string. */
export type IdChoice = { real: number } | { odd: string };

export type ApiBody = { type: 'json'; value: unknown } | { type: 'raw'; contentType: string | null; text: string };

export type Origin = 'same' | 'none' | 'foreign';

/** One generated request (what the target's path, query and body become). */
export interface FuzzCase {
  id?: IdChoice;
  query?: string;
  api?: ApiBody;
  form?: [string, unknown][];
  origin: Origin;
}

// ---------------------------------------------------------------------------------------------
// Hostile leaves

export const HUGE_STRING = 'x'.repeat(1024 * 1024);
const HUGE_UNICODE = '€'.repeat(200_000);

export const ODD_NUMBER_TEXT = [
  '1e3',
  '1E+2',
  '0x3e9',
  '0b11',
  '0o7',
  ' 1001 ',
  '+5',
  '-0',
  '1_000',
  '١٢٣',
  'Infinity',
  'NaN',
  '1.',
  '.5',
  '12,5',
  '1e400',
  '9'.repeat(40),
];
export const INVALID_DATES = [
  '2026-02-30',
  '2026-13-01',
  '2026-00-10',
  '0000-00-00',
  '2026-2-3',
  '2026-02-28T00:00:00Z',
  '99999-01-01',
  '2026/01/01',
  '31-12-2026',
  'yesterday',
  '2026-02-29',
  '1970-01-01',
  '9999-12-31',
  '2024-02-29',
];
export const BOUNDARY_NUMBERS = [
  0,
  -0,
  -1,
  1,
  0.001,
  0.005,
  0.01,
  0.1 + 0.2,
  2 ** 31,
  2 ** 31 - 1,
  2 ** 53,
  2 ** 53 + 1,
  -(2 ** 53),
  1e21,
  1e308,
  Number.MAX_VALUE,
  Number.MIN_VALUE,
  9_999_999_999.99,
  10_000_000_000,
  9_999_999_999.999,
  123456789012.34,
];
const TRICKY_TEXT = [
  "' OR 1=1 --",
  '"; drop table users; --',
  '%',
  '_',
  '%_%',
  '\\',
  "O'Brien",
  '""',
  '\u0000',
  '\u0000abc',
  'a\u0000b',
  '\r\n',
  '\t',
  '\u202e',
  '\ud800',
  '\uffff',
  '🏦💶',
  'Ω≈ç√',
  '<script>alert(1)</script>',
  '=1+2',
  '@SUM(A1)',
  '   ',
  '',
  'null',
  'undefined',
  'true',
  '[object Object]',
  '__proto__',
  'constructor',
];
export const PROTO_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  '__proto__.polluted',
  'constructor.prototype.polluted',
  'toString',
  'hasOwnProperty',
  'valueOf',
];

const controlText = fc.string({
  unit: fc.integer({ min: 0, max: 31 }).map((c) => String.fromCharCode(c)),
  maxLength: 20,
});
const unicodeText = fc.string({ unit: 'grapheme', maxLength: 30 });
const binaryText = fc.string({ unit: 'binary', maxLength: 30 });

/** A hostile scalar or structure, for any field. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom<unknown>(null, true, false, [], {}, [null], [1, 2], { a: 1 }, '', ' ') },
  {
    weight: 3,
    arbitrary: fc.constantFrom(...BOUNDARY_NUMBERS).chain((n) => fc.constantFrom<unknown>(n, -n, String(n))),
  },
  { weight: 3, arbitrary: fc.constantFrom(...ODD_NUMBER_TEXT) },
  { weight: 2, arbitrary: fc.constantFrom(...INVALID_DATES) },
  { weight: 3, arbitrary: fc.constantFrom(...TRICKY_TEXT) },
  { weight: 2, arbitrary: fc.oneof(controlText, unicodeText, binaryText) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(HUGE_STRING, HUGE_UNICODE, 'a'.repeat(256), 'a'.repeat(1001), 'b'.repeat(65_536)),
  },
  { weight: 2, arbitrary: fc.oneof(fc.integer(), fc.double({ noNaN: true }), fc.double()) },
  { weight: 1, arbitrary: fc.array(fc.oneof(fc.integer(), fc.string()), { maxLength: 4 }) },
  {
    weight: 1,
    arbitrary: fc.dictionary(
      fc.constantFrom('a', 'id', '__proto__', 'constructor', 'value'),
      fc.oneof(fc.integer(), fc.string()),
      { maxKeys: 3 },
    ),
  },
);

// ---------------------------------------------------------------------------------------------
// Valid-ish values from a declaration

const isoDay = fc
  .date({ min: new Date('2020-01-01T00:00:00Z'), max: new Date('2030-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
const money = fc.integer({ min: 1, max: 99_999_999 }).map((c) => c / 100);
const plainText = (max: number) =>
  fc.string({ minLength: 1, maxLength: Math.min(max, 40) }).map((s) => s.trim() || 'x');

/** A value the field's schema accepts (references resolved at run time). */
export function validValue(field: FieldDef): fc.Arbitrary<unknown> {
  switch (field.kind) {
    case 'text':
    case 'textarea':
      if (field.format === 'url')
        return fc.constantFrom('https://api.example.com', 'https://api.example.com/v2/', 'http://203.0.113.9:8080');
      // A mapping's rules depend on the direction: none (empty) is valid for both.
      if (field.format === 'json') return fc.constant('');
      // A text with suggestions (an endpoint's sync frequency) is checked against them.
      if (field.suggestions?.length) return fc.constantFrom(...field.suggestions);
      return fc
        .tuple(fc.constantFrom('Fuzz', 'Zz', 'Ünï', '測試'), plainText(field.max ?? 255))
        .map(([p, s]) => `${p} ${s}`.slice(0, field.max ?? 255));
    case 'money':
      return money;
    case 'decimal':
      return fc.integer({ min: 0, max: 9_999_999 }).map((h) => h / 100);
    case 'percent':
      return fc.integer({ min: 0, max: 10_000 }).map((h) => h / 100);
    case 'integer': {
      const [min, max] = field.range ?? [0, 1_000_000];
      return fc.integer({ min, max });
    }
    case 'date':
      return isoDay;
    case 'enum':
      return fc.constantFrom(...(field.options ?? ['x']));
    case 'boolean':
      return fc.boolean();
    case 'reference':
      return fc.nat({ max: 1000 }).map((n) => new Ref(referencedResource(field).table, n));
  }
}

/** A record of valid values for every field of a declaration, passing its cross-field rules (dates in order, metric of the type). */
export function validRecord(def: Pick<ResourceDef, 'fields' | 'refine'>): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .record(Object.fromEntries(def.fields.map((f) => [f.name, validValue(f)])))
    .filter((r) => !def.refine?.(r, z).length);
}

/** A plain object with an own `__proto__` key (an object literal would set the prototype). */
function withOwn(target: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  Object.defineProperty(target, key, { value, enumerable: true, configurable: true, writable: true });
  return target;
}

type Mutation =
  | { op: 'replace'; at: number; value: unknown }
  | { op: 'drop'; at: number }
  | { op: 'extra'; key: string; value: unknown };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ op: fc.constant('replace' as const), at: fc.nat(), value: hostileValue }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('drop' as const), at: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('extra' as const),
      key: fc.oneof(
        fc.constantFrom(...PROTO_KEYS, 'id', 'createdBy', 'createdAt', 'companyId', 'role', 'isActive', 'passwordHash'),
        fc.string({ maxLength: 10 }),
      ),
      value: hostileValue,
    }),
  },
);

/** A valid-ish object: often valid (so some writes are accepted), else one to three mutations. */
export function mutated(valid: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .tuple(
      valid,
      fc.oneof(
        { weight: 2, arbitrary: fc.constant([] as Mutation[]) },
        { weight: 5, arbitrary: fc.array(mutation, { minLength: 1, maxLength: 3 }) },
      ),
    )
    .map(([record, mutations]) => {
      const out: Record<string, unknown> = { ...record };
      for (const m of mutations) {
        const keys = Object.keys(out);
        if (m.op === 'extra') withOwn(out, m.key, m.value);
        else if (keys.length === 0) continue;
        else if (m.op === 'drop') delete out[keys[m.at % keys.length]];
        else out[keys[m.at % keys.length]] = m.value;
      }
      return out;
    });
}

// ---------------------------------------------------------------------------------------------
// Bodies

/** 2 MB of JSON (above the documented 1 MB limit: 413, or 400, never 5xx). */
export const TWO_MB_JSON = JSON.stringify({ name: 'y'.repeat(2 * 1024 * 1024), description: 'big' });

const invalidJson = fc.constantFrom(
  '{',
  '{"a":',
  '{"name": "x",}',
  "{'name': 'x'}",
  'nul',
  '[1,2',
  '{"a":1}{"b":2}',
  '\u0000',
  '"unterminated',
  '{"a":1e999999}',
  '{"__proto__": {"polluted": 1}}',
  '{"constructor": {"prototype": {"polluted": 1}}}',
  '{"a": NaN}',
  '',
  ' ',
  '\ufeff{}',
  '{"a":"\\ud800"}',
  '['.repeat(5000),
);

/** A JSON API body around a valid-ish object: mostly that object, sometimes a raw hostile one. */
export function apiBody(object: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<ApiBody> {
  return fc.oneof(
    { weight: 20, arbitrary: object.map((value): ApiBody => ({ type: 'json', value })) },
    {
      weight: 2,
      arbitrary: fc
        .constantFrom<unknown>(null, [], 'text', 42, true, [{}], {})
        .map((value): ApiBody => ({ type: 'json', value })),
    },
    { weight: 1, arbitrary: object.map((value): ApiBody => ({ type: 'json', value: [value] })) },
    {
      weight: 2,
      arbitrary: invalidJson.map((text): ApiBody => ({ type: 'raw', contentType: 'application/json', text })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          object,
          fc.constantFrom<string | null>(
            'text/plain',
            'application/x-www-form-urlencoded',
            'multipart/form-data; boundary=zzz',
            'application/xml',
            'application/json; charset=utf-16',
            null,
          ),
        )
        .map(([value, contentType]): ApiBody => ({
          type: 'raw',
          contentType,
          text: contentType?.includes('urlencoded')
            ? new URLSearchParams(
                Object.entries(value).map(([k, v]) => [
                  k,
                  v !== null && typeof v === 'object' ? JSON.stringify(v) : String(v),
                ]),
              ).toString()
            : JSON.stringify(value),
        })),
    },
    { weight: 1, arbitrary: fc.constant<ApiBody>({ type: 'raw', contentType: 'application/json', text: TWO_MB_JSON }) },
  );
}

/** Form pairs from an object: numbers and booleans as text, arrays as repeated names, objects as `name.key`. */
export function formPairs(record: Record<string, unknown>): [string, unknown][] {
  const pairs: [string, unknown][] = [];
  for (const key of Object.keys(record)) {
    const value = record[key];
    if (Array.isArray(value)) for (const v of value) pairs.push([key, v]);
    else if (value && typeof value === 'object' && !(value instanceof Ref))
      for (const [k, v] of Object.entries(value)) pairs.push([`${key}.${k}`, v]);
    else pairs.push([key, value]);
  }
  return pairs;
}

export const origin: fc.Arbitrary<Origin> = fc.oneof(
  { weight: 18, arbitrary: fc.constant('same' as const) },
  { weight: 1, arbitrary: fc.constant('none' as const) },
  { weight: 1, arbitrary: fc.constant('foreign' as const) },
);

/** A screen form post: the intent, an optional row id, the confirmation flag, fields. */
export function formBody(
  intents: readonly string[],
  fields: fc.Arbitrary<Record<string, unknown>>,
  id?: fc.Arbitrary<unknown>,
): fc.Arbitrary<[string, unknown][]> {
  return fc
    .record({
      intent: fc.oneof(
        { weight: 12, arbitrary: fc.constantFrom(...intents) },
        { weight: 1, arbitrary: fc.constantFrom('', 'nope', 'remap', '__proto__', 'constructor', 'create ', 'DELETE') },
      ),
      id: id ?? fc.constant(undefined),
      confirmed: fc.constantFrom<string | undefined>('1', '1', undefined, '0', 'yes'),
      fields: fields,
      huge: fc.oneof({ weight: 40, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
    })
    .map(({ intent, id: rowId, confirmed, fields: f, huge }) => {
      const pairs: [string, unknown][] = [['intent', intent]];
      if (rowId !== undefined) pairs.push(['id', rowId]);
      if (confirmed !== undefined) pairs.push(['confirmed', confirmed]);
      pairs.push(...formPairs(f));
      if (huge) pairs.push(['padding', 'z'.repeat(2 * 1024 * 1024)]);
      return pairs;
    });
}

// ---------------------------------------------------------------------------------------------
// Ids and query strings

export const ODD_IDS = [
  'abc',
  '0',
  '-1',
  '1.5',
  '1e3',
  '0x3e9',
  ' 1001 ',
  '%201001%20',
  '00001',
  '+1',
  '99999999999',
  '9007199254740993',
  '1e400',
  '%00',
  '1%3BDROP',
  '..%2F..%2Fetc',
  'null',
  'undefined',
  '__proto__',
  'constructor',
  '%F0%9F%8F%A6',
  '%E2%80%AE1',
  encodeURIComponent("1' OR '1'='1"),
];

/** Mostly real rows (so updates reach validation), sometimes odd ids. */
export const rowId: fc.Arbitrary<IdChoice> = fc.oneof(
  { weight: 4, arbitrary: fc.nat({ max: 1000 }).map((n): IdChoice => ({ real: n })) },
  { weight: 1, arbitrary: fc.constantFrom(...ODD_IDS).map((odd): IdChoice => ({ odd })) },
);
/** For deletes: odd ids first, real rows now and then (the pool is not emptied). */
export const deleteId: fc.Arbitrary<IdChoice> = fc.oneof(
  { weight: 1, arbitrary: fc.nat({ max: 1000 }).map((n): IdChoice => ({ real: n })) },
  { weight: 3, arbitrary: fc.constantFrom(...ODD_IDS).map((odd): IdChoice => ({ odd })) },
);

/** An id as a form posts it: real, odd text, or hostile. */
export const formId: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.nat({ max: 1000 }) },
  { weight: 2, arbitrary: fc.constantFrom(...ODD_IDS.map((s) => decodeURIComponentSafe(s)), ...ODD_NUMBER_TEXT) },
  { weight: 1, arbitrary: hostileValue },
);

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

const queryValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '10',
    '0',
    '-1',
    '1000',
    '1001',
    '1e3',
    '0x10',
    '1.5',
    ' 5 ',
    '99999999999999999999',
    'abc',
    '',
    'asc',
    'desc',
    'ASC',
    'name',
    'id',
    'createdAt',
    'amount',
    '__proto__',
    'constructor',
    'toString',
  ),
  fc.constantFrom(
    '%',
    '_',
    '%_%',
    "'",
    '"',
    "' OR 1=1 --",
    '\\',
    '\\%',
    '[',
    '*',
    '\u0000',
    '😀',
    'a'.repeat(300),
    'b'.repeat(5000),
  ),
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'grapheme', maxLength: 10 }),
);

/** A list query string from the given parameter names (plus random ones), sometimes raw (bad percent-encoding). */
export function listQuery(params: readonly string[]): fc.Arbitrary<string> {
  const pair = fc.tuple(
    fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...params) },
      { weight: 1, arbitrary: fc.constantFrom('__proto__', 'constructor', 'limit[]', 'x', '') },
    ),
    queryValue,
  );
  return fc.oneof(
    { weight: 10, arbitrary: fc.array(pair, { maxLength: 5 }).map((pairs) => new URLSearchParams(pairs).toString()) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        'q=%',
        'q=%zz',
        'q=%%%',
        'limit=1&limit=2',
        'sortBy=id&sortBy=name',
        'q=%00',
        'offset=1e3',
        'limit=%2B5',
        'q=' + '%41'.repeat(1000),
        '&&&=&=',
        'q',
      ),
    },
  );
}
