/** Unit tests of the TCK runner's test-procedure declarations (test/tck/procedures.ts). */

import { describe, expect, it } from 'vitest';
import type { ProcedureContext } from '../../procedures/registry.js';
import { FloatBox } from '../../runtime/values.js';
import { buildProcedure, parseProcedureSignature } from './procedures.js';

const ctx = {} as ProcedureContext;

describe('parseProcedureSignature', () => {
  it('reads name, inputs and outputs', () => {
    expect(parseProcedureSignature('there exists a procedure test.my.proc(name :: STRING?, id :: INTEGER?) :: (city :: STRING?, country_code :: INTEGER?):')).toEqual({
      name: 'test.my.proc',
      inputs: [{ name: 'name', type: 'STRING?' }, { name: 'id', type: 'INTEGER?' }],
      outputs: [{ name: 'city', type: 'STRING?' }, { name: 'country_code', type: 'INTEGER?' }],
    });
  });

  it('accepts empty lists and a space before the colon', () => {
    expect(parseProcedureSignature('there exists a procedure test.doNothing() :: ():')).toEqual({ name: 'test.doNothing', inputs: [], outputs: [] });
    expect(parseProcedureSignature('there exists a procedure test.my.proc(in :: INTEGER?) :: (a :: INTEGER?, b :: INTEGER?) :').outputs).toHaveLength(2);
  });
});

describe('buildProcedure', () => {
  it('yields the outputs of rows whose inputs equal the arguments', () => {
    const sig = parseProcedureSignature('there exists a procedure test.my.proc(name :: STRING?, id :: INTEGER?) :: (city :: STRING?, country_code :: INTEGER?):');
    const p = buildProcedure(sig, [
      ['name', 'id', 'city', 'country_code'],
      ["'Andres'", '1', "'Malmö'", '46'],
      ["'Stefan'", '1', "'Berlin'", '49'],
      ["'Stefan'", '2', "'München'", '49'],
    ]);
    expect([...p.invoke(ctx, ['Stefan', 1])]).toEqual([['Berlin', 49]]);
    expect([...p.invoke(ctx, ['Nobody', 1])]).toEqual([]);
  });

  it('coerces integers for FLOAT? inputs but not for NUMBER?', () => {
    const f = buildProcedure(parseProcedureSignature('there exists a procedure test.my.proc(in :: FLOAT?) :: (out :: STRING?):'), [['in', 'out'], ['42.0', "'close enough'"]]);
    expect([...f.invoke(ctx, [42])]).toEqual([['close enough']]);
    const n = buildProcedure(parseProcedureSignature('there exists a procedure test.my.proc(in :: NUMBER?) :: (out :: STRING?):'), [['in', 'out'], ['42', "'wisdom'"], ['42.3', "'about right'"]]);
    expect([...n.invoke(ctx, [42])]).toEqual([['wisdom']]);
    expect([...n.invoke(ctx, [42.3])]).toEqual([['about right']]);
    expect([...n.invoke(ctx, [new FloatBox(42)])]).toEqual([]);
  });

  it('handles procedures without inputs, null inputs and empty tables', () => {
    const labels = buildProcedure(parseProcedureSignature('there exists a procedure test.labels() :: (label :: STRING?):'), [['label'], ["'A'"], ["'B'"]]);
    expect([...labels.invoke(ctx, [])]).toEqual([['A'], ['B']]);
    const nix = buildProcedure(parseProcedureSignature('there exists a procedure test.my.proc(in :: INTEGER?) :: (out :: STRING?):'), [['in', 'out'], ['null', "'nix'"]]);
    expect([...nix.invoke(ctx, [null])]).toEqual([['nix']]);
    const nothing = buildProcedure(parseProcedureSignature('there exists a procedure test.doNothing() :: ():'), [[]]);
    expect([...nothing.invoke(ctx, [])]).toEqual([]);
  });
});
