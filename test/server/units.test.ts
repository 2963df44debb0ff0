/**
 * Unit tests of the pieces under the doors: the line splitter (bytes, caps), the MCP
 * message gate (what gets -32700/-32600/-32602, initialize defaults, notifications) and the
 * wire format (graph_rag's own tests are in test/rag/).
 */

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { LineSplitter } from '../../src/server/line-splitter.js';
import { gateLine } from '../../src/mcp/message-gate.js';
import { resultBody, resultJson, toErrorBody } from '../../src/server/wire-format.js';
import { bearerChecker } from '../../src/server/http/auth.js';

describe('LineSplitter', () => {
  it('splits on newlines across chunk boundaries, keeping multi-byte characters whole', () => {
    const text = 'RETURN "héllo €"\nsecond\nthird';
    const bytes = Buffer.from(text, 'utf8');
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: bytes.length }), { maxLength: 6 }), (cuts) => {
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        const s = new LineSplitter(1000);
        const got: string[] = [];
        let at = 0;
        for (const p of [...points, bytes.length]) {
          for (const l of s.push(bytes.subarray(at, p)).lines) got.push(l.toString('utf8'));
          at = p;
        }
        got.push(s.flush()?.toString('utf8') ?? '');
        expect(got).toEqual(['RETURN "héllo €"', 'second', 'third']);
      }),
    );
  });

  it('reports an overflow for a line past the cap, then accepts nothing more', () => {
    const s = new LineSplitter(10);
    expect(s.push(Buffer.from('short\n0123456')).overflow).toBe(false);
    expect(s.push(Buffer.from('789abc'))).toEqual({ lines: [], overflow: true });
    expect(s.push(Buffer.from('ok\n'))).toEqual({ lines: [], overflow: true });
    expect(s.flush()).toBeUndefined();
  });
});

describe('MCP message gate', () => {
  const decide = (text: string | undefined) => gateLine(text);

  it('not JSON or not UTF-8 → -32700 with id null', () => {
    for (const t of ['{', 'nope', undefined]) expect(decide(t)).toMatchObject({ kind: 'reply', reply: { id: null, error: { code: -32700 } } });
  });

  it('not a JSON-RPC 2.0 message → -32600, keeping a usable id', () => {
    expect(decide('[]')).toMatchObject({ reply: { error: { code: -32600 } } });
    expect(decide('"x"')).toMatchObject({ reply: { error: { code: -32600 } } });
    expect(decide('{"id": 3, "method": "tools/list"}')).toMatchObject({ reply: { id: 3, error: { code: -32600 } } });
    expect(decide('{"jsonrpc": "2.0", "id": 4}')).toMatchObject({ reply: { id: 4, error: { code: -32600 } } });
  });

  it('params of the wrong shape → -32602', () => {
    expect(decide('{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": [1]}')).toMatchObject({ reply: { error: { code: -32602 } } });
    expect(decide('{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": 1}}')).toMatchObject({ reply: { error: { code: -32602 } } });
  });

  it('fills an empty initialize with protocol 2024-11-05 defaults', () => {
    const d = decide('{"jsonrpc": "2.0", "id": 1, "method": "initialize"}');
    expect(d).toMatchObject({
      kind: 'forward',
      requestId: 1,
      message: { method: 'initialize', params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'unknown' } } },
    });
  });

  it('a broken notification is dropped, never answered', () => {
    expect(decide('{"jsonrpc": "1.0", "method": "notifications/x"}').kind).toBe('drop');
    expect(decide('{"jsonrpc": "2.0", "method": "notifications/x", "params": 5}').kind).toBe('drop');
  });
});

describe('wire format and auth', () => {
  it('keys rows by column with every cell a string; a column named __proto__ stays a key', () => {
    const body = resultBody({ columns: ['__proto__', 'n'], records: [[1, null]] });
    expect(JSON.parse(JSON.stringify(body))).toEqual({ columns: ['__proto__', 'n'], rows: [JSON.parse('{"__proto__": "1", "n": "null"}')] });
  });

  it('writes the result JSON exactly as JSON.stringify of the result body', () => {
    const same = (columns: string[], records: unknown[][]): void => {
      const result = { columns, records: records as never };
      expect(resultJson(result)).toBe(JSON.stringify(resultBody(result)));
    };
    same(['__proto__', 'n'], [[1, null]]);
    // A column list used again (a query's compiled columns) keeps giving its own rows.
    const columns = ['a', 'b'];
    same(columns, [[1, 2]]);
    same(columns, [['x', null], [true, 'y']]);
    // JSON.stringify puts array-index keys first; a repeated column keeps its first place and last value.
    same(['b', '2', '1', 'a'], [['x', 'y', 'z', 'w']]);
    same(['n', 'n'], [[1, 2]]);
    same([], [[], []]);
    same(['x'], []);
    same(['quote"back\\slash', 'é\u2028\ud800', ''], [['"\n\u0000', '\udfff', 'ok'], [1.5, -0, [1, 'a', null]]]);
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string(), fc.constantFrom('0', '1', '10', '4294967295', '__proto__', 'toString')), { maxLength: 4 }),
        fc.array(fc.array(fc.oneof(fc.string(), fc.integer(), fc.double({ noNaN: true }), fc.constant(null), fc.boolean()), { minLength: 4, maxLength: 4 }), { maxLength: 3 }),
        (columns, records) => same(columns, records),
      ),
    );
  });

  it('turns unexpected throws into INTERNAL_ERR', () => {
    expect(toErrorBody(new Error('boom'))).toEqual({ error: true, code: 'INTERNAL_ERR', message: 'Internal error: boom' });
    expect(toErrorBody('str')).toMatchObject({ code: 'INTERNAL_ERR' });
  });

  it('accepts exactly the key, in a Bearer header', () => {
    const check = bearerChecker('abc');
    expect(check('Bearer abc')).toBe(true);
    expect(check('bearer   abc ')).toBe(true);
    expect(check('Bearer abcd')).toBe(false);
    expect(check('Bearer ab')).toBe(false);
    expect(check('abc')).toBe(false);
    expect(check(undefined)).toBe(false);
  });
});
