/**
 * The WAL's directly built payload text (record-codec.ts encodeChangeText, value-codec.ts
 * encodeValueText) against the structured encoding it replaced: the same text for every kind
 * of change and value, awkward strings included, and the same changes after decoding.
 */

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Database } from '../../src/engine/database.js';
import { decodeTransaction, encodeChange, encodeChangeText, encodeTransaction, type LoggedChange } from '../../src/store/persist/record-codec.js';
import { encodeValue, encodeValueText, jsonString } from '../../src/store/persist/value-codec.js';
import { schemaDefinition } from '../../src/store/persist/schema-def.js';
import { FloatBox, type Value } from '../../runtime/values.js';

const db = new Database();
/** Values only the engine makes: temporal, spatial, durations, maps, lists of them. */
const engineValues = db.executeSync(
  `RETURN [date('2024-02-29'), datetime('2024-02-29T12:00:00.123456789+01:00'), localdatetime('2020-01-01T00:00'),
           time('12:00+05:30'), localtime('23:59:59.5'), duration('P1Y2M3DT4H5M6.7S'),
           point({x: 1.5, y: -2}), point({latitude: 51.5, longitude: -0.1, height: 10}),
           {a: 1, b: 'two', c: [3.5, null]}, [1, 'x', [true]], 0.1, -0.0, 1e21, 2^53 + 1] AS values`,
).records[0][0] as Value[];

const awkwardStrings = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)) }),
  fc.constantFrom('', 'quote " inside', 'back\\slash', 'tab\there', 'nul\u0000', '\u2028\u2029', 'lone \ud800 half', 'pair \ud83d\ude00', 'x'.repeat(65), '"'.repeat(70)),
);
const scalar: fc.Arbitrary<Value> = fc.oneof(
  awkwardStrings,
  fc.boolean(),
  fc.constant(null),
  fc.double(),
  fc.integer().map((n) => BigInt(n)),
  fc.bigInt(),
  fc.double().map((n) => new FloatBox(n)),
  fc.constantFrom(...engineValues),
);
const value: fc.Arbitrary<Value> = fc.oneof(scalar, fc.array(scalar, { maxLength: 4 }), fc.array(fc.tuple(fc.string(), scalar), { maxLength: 3 }).map((pairs) => new Map(pairs)));
const props = fc.array(fc.tuple(awkwardStrings, value), { maxLength: 5 }).map((pairs) => new Map(pairs));
const id = fc.nat();
const change: fc.Arbitrary<LoggedChange> = fc.oneof(
  fc.record({ op: fc.constant('createNode' as const), id, labels: fc.array(awkwardStrings, { maxLength: 3 }), props }),
  fc.record({ op: fc.constant('createRel' as const), id, type: awkwardStrings, start: id, end: id, props }),
  fc.record({ op: fc.constantFrom('deleteNode' as const, 'deleteRel' as const), id }),
  fc.record({ op: fc.constant('setProperty' as const), entity: fc.constantFrom('node' as const, 'rel' as const), id, key: awkwardStrings, value }),
  fc.record({ op: fc.constantFrom('addLabel' as const, 'removeLabel' as const), id, label: awkwardStrings }),
);

describe('WAL payload text built directly', () => {
  it('is the text JSON.stringify gives for every kind of value', () => {
    for (const v of engineValues) expect(encodeValueText(v)).toBe(JSON.stringify(encodeValue(v)));
    fc.assert(fc.property(value, (v) => encodeValueText(v) === JSON.stringify(encodeValue(v))), { numRuns: 2000 });
  });

  it('quotes strings as JSON.stringify does', () => {
    fc.assert(fc.property(awkwardStrings, (s) => jsonString(s) === JSON.stringify(s)), { numRuns: 2000 });
  });

  it('is the text of the structured encoding for every kind of change, so it decodes to the same changes', () => {
    fc.assert(
      fc.property(fc.array(change, { minLength: 1, maxLength: 4 }), (changes) => {
        for (const c of changes) expect(encodeChangeText(c)).toBe(JSON.stringify(encodeChange(c)));
        const text = encodeTransaction(changes);
        expect(text).toBe(JSON.stringify(changes.map(encodeChange)));
        expect(decodeTransaction(text)).toEqual(decodeTransaction(JSON.stringify(changes.map(encodeChange))));
      }),
      { numRuns: 1000 },
    );
  });

  it('keeps schema changes as before', () => {
    db.executeSync('CREATE INDEX person_name FOR (p:Person) ON (p.name)');
    const schema: LoggedChange = { op: 'schema', def: schemaDefinition(db.schema) };
    expect(encodeChangeText(schema)).toBe(JSON.stringify(encodeChange(schema)));
  });
});
