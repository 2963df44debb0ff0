/**
 * Unit tests of the pieces under the doors: the line splitter (bytes, caps), the MCP
 * message gate (what gets -32700/-32600/-32602, initialize defaults, notifications), the
 * evidence rules and graph_rag's retrieval on a small graph, and the wire format.
 */

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Database } from '../../src/engine/database.js';
import { LineSplitter } from '../../src/server/line-splitter.js';
import { gateLine } from '../../src/mcp/message-gate.js';
import { readConfidence, readEvidence } from '../../src/mcp/rag/evidence.js';
import { questionTerms } from '../../src/mcp/rag/text-match.js';
import { retrieve } from '../../src/mcp/rag/retrieve.js';
import { resultBody, toErrorBody } from '../../src/server/wire-format.js';
import { bearerChecker } from '../../src/server/http/auth.js';
import { FloatBox } from '../../runtime/values.js';

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

describe('graph_rag evidence and retrieval', () => {
  it('reads confidence as a number, numeric string or percentage, clamped', () => {
    expect(readConfidence(0.4)).toBe(0.4);
    expect(readConfidence('0.25')).toBe(0.25);
    expect(readConfidence(80)).toBe(0.8);
    expect(readConfidence('85%')).toBe(0.85);
    expect(readConfidence(new FloatBox(1))).toBe(1);
    expect(readConfidence(-3)).toBe(0);
    expect(readConfidence(500)).toBe(1);
    expect(readConfidence('high')).toBeUndefined();
    expect(readConfidence(null)).toBeUndefined();
  });

  it('defaults the class to observed and the confidence by class', () => {
    expect(readEvidence(new Map())).toEqual({ observationClass: 'observed', confidence: 1 });
    expect(readEvidence(new Map([['observation_class', 'Inferred']]))).toEqual({ observationClass: 'inferred', confidence: 0.7 });
    expect(readEvidence(new Map([['observationClass', 'predicted']]))).toEqual({ observationClass: 'predicted', confidence: 0.5 });
    expect(readEvidence(new Map([['observation_class', 'rumour']]))).toEqual({ observationClass: 'observed', confidence: 1 });
  });

  it('turns a question into terms without stop words, folding plurals', () => {
    expect(questionTerms('Which movies did Tom Hanks act in?')).toEqual(['movi', 'tom', 'hank', 'act']);
  });

  it('ranks by relevance × confidence × class and explains each result', async () => {
    const db = Database.openInMemory();
    await db.execute(
      "CREATE (a:Person {name: 'Marie Curie', field: 'physics'})-[:WON]->(:Prize {name: 'Nobel Prize in Physics', year: 1903})," +
        " (a)-[:MARRIED {confidence: 0.5}]->(:Person {name: 'Pierre Curie'})," +
        " (:Person {name: 'Marie Antoinette', observation_class: 'predicted', confidence: 0.9})",
    );
    const answer = retrieve(db.graph, 'Tell me about Marie Curie', { limit: 5 });
    expect(answer.results.map((r) => r.name)).toEqual(['Marie Curie', 'Nobel Prize in Physics', 'Pierre Curie', 'Marie Antoinette']);
    expect(answer.result_count).toBe(4);
    expect(answer.results[0].note).toMatch(/matched 'Marie' in name, 'Curie' in name/);
    expect(answer.results[1].note).toMatch(/1 hop from 'Marie Curie' via WON/);
    expect(answer.results[2].note).toMatch(/matched 'Curie' in name/);
    expect(answer.results[3]).toMatchObject({ observation_class: 'predicted', confidence: '0.9' });
    expect(retrieve(db.graph, 'the of and').results).toEqual([]);
  });
});

describe('wire format and auth', () => {
  it('keys rows by column with every cell a string; a column named __proto__ stays a key', () => {
    const body = resultBody({ columns: ['__proto__', 'n'], records: [[1, null]] });
    expect(JSON.parse(JSON.stringify(body))).toEqual({ columns: ['__proto__', 'n'], rows: [JSON.parse('{"__proto__": "1", "n": "null"}')] });
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
