/** Pieces of the CLI that need no process: statement splitting, parameters, footers, history. */

import { mkdtempSync, readFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { historyFile, loadHistory, saveHistory } from '../../src/cli/history.js';
import { helpText, registerMetaCommand } from '../../src/cli/meta-commands.js';
import { parseParam, parseParams } from '../../src/cli/params.js';
import { describeUpdates, formatDuration, renderTable } from '../../src/cli/render.js';
import type { QueryResult } from '../../src/engine/types.js';
import { StatementSplitter, splitScript } from '../../src/cli/statement-splitter.js';
import { workerCount } from '../../src/cli/server-plan.js';

describe('StatementSplitter', () => {
  it('collects lines until ;', () => {
    const s = new StatementSplitter();
    expect(s.feedLine('MATCH (n)')).toEqual([]);
    expect(s.isEmpty()).toBe(false);
    expect(s.feedLine('RETURN n;')).toEqual(['MATCH (n)\nRETURN n']);
    expect(s.isEmpty()).toBe(true);
  });

  it('splits several statements on one line and keeps the rest', () => {
    const s = new StatementSplitter();
    expect(s.feedLine('RETURN 1; RETURN 2; RETURN')).toEqual(['RETURN 1', 'RETURN 2']);
    expect(s.feedLine('3;')).toEqual(['RETURN\n3']);
  });

  it('ignores ; in strings, names and comments, also across lines', () => {
    const s = new StatementSplitter();
    expect(s.feedLine("RETURN 'a;\\'b', \"c;\", `d;e` /* ;")).toEqual([]);
    expect(s.feedLine('; */ AS x // ;')).toEqual([]);
    expect(s.feedLine(';')).toEqual(["RETURN 'a;\\'b', \"c;\", `d;e` /* ;\n; */ AS x // ;"]);
  });

  it('drops empty and comment-only statements', () => {
    const s = new StatementSplitter();
    expect(s.feedLine(';;  ; /* c */ ;')).toEqual([]);
    expect(s.feedLine('// just a comment')).toEqual([]);
    expect(s.isEmpty()).toBe(true);
  });

  it('tells what an unfinished statement is inside of', () => {
    const s = new StatementSplitter();
    expect(s.openedBy()).toBe('');
    s.feedLine("RETURN 'abc");
    expect(s.openedBy()).toBe("'");
    s.feedLine("' /* x");
    expect(s.openedBy()).toBe('*');
    s.feedLine('*/ + `a');
    expect(s.openedBy()).toBe('`');
  });

  it('forgets an unfinished statement on reset', () => {
    const s = new StatementSplitter();
    s.feedLine("RETURN 'open");
    s.reset();
    expect(s.isEmpty()).toBe(true);
    expect(s.feedLine('RETURN 1;')).toEqual(['RETURN 1']);
  });

  it('splits a script, keeping a last statement without ;', () => {
    expect(splitScript('// head\nRETURN 1;\n\nRETURN 2\n')).toEqual(['// head\nRETURN 1', 'RETURN 2']);
    expect(splitScript('RETURN 1;\n// tail only\n')).toEqual(['RETURN 1']);
  });
});

describe('parameters', () => {
  it('reads JSON values and falls back to strings', () => {
    expect(parseParams(['a=1', 'b=1.5', 'c=true', 'd=null', 'e="x y"', 'f=plain text', '$g=[1]', 'h={"k":2}'])).toEqual({
      a: 1, b: 1.5, c: true, d: null, e: 'x y', f: 'plain text', g: [1], h: { k: 2 },
    });
    expect(parseParam('x=a=b')).toEqual(['x', 'a=b']);
  });

  it('rejects text without = and bad names', () => {
    expect(() => parseParam('nothing')).toThrow(/name=value/);
    expect(() => parseParam('1x=2')).toThrow(/not a valid name/);
  });
});

function resultOf(columns: string[], records: QueryResult['records']): QueryResult {
  const stats = { nodesCreated: 0, nodesDeleted: 0, relationshipsCreated: 0, relationshipsDeleted: 0, labelsAdded: 0, labelsRemoved: 0, propertiesSet: 0 };
  return { columns, records, stats, mutated: false, elapsedMs: 1 };
}

describe('tables', () => {
  it('draws a long result as one table with one header and no inner borders', () => {
    const records = Array.from({ length: 1000 }, (_, i) => [i, `v${i}`]);
    const lines = renderTable(resultOf(['n', 's'], records)).split('\n');
    expect(lines.length).toBe(1000 + 4);
    expect(lines.filter((l) => l.startsWith('├')).length).toBe(1);
    expect(lines.filter((l) => l.startsWith('┌') || l.startsWith('└')).length).toBe(2);
    expect(lines[3]).toBe('│ 0   │ \'v0\'   │');
    expect(lines[1002]).toBe('│ 999 │ \'v999\' │');
  });

  it('fits a terminal width by wrapping, never cutting a value', () => {
    const long = 'word '.repeat(20) + 'x'.repeat(50);
    const lines = renderTable(resultOf(['a'], [[long]]), { width: 30 }).split('\n');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(30);
    expect(lines.join('')).not.toContain('…');
    expect(lines.join('').replace(/[│\s]/g, '')).toContain('x'.repeat(25));
  });

  it('cuts at maxRows', () => {
    const lines = renderTable(resultOf(['n'], [[1], [2], [3]]), { maxRows: 2 }).split('\n');
    expect(lines.length).toBe(2 + 4);
  });

  it('draws nothing for a result without columns', () => {
    expect(renderTable(resultOf([], []))).toBe('');
  });
});

describe('footer pieces', () => {
  it('formats durations', () => {
    expect(formatDuration(0.04)).toBe('0.0 ms');
    expect(formatDuration(1.234)).toBe('1.2 ms');
    expect(formatDuration(123.4)).toBe('123 ms');
    expect(formatDuration(2345)).toBe('2.35 s');
  });

  it('describes non-zero update counters', () => {
    const none = { nodesCreated: 0, nodesDeleted: 0, relationshipsCreated: 0, relationshipsDeleted: 0, labelsAdded: 0, labelsRemoved: 0, propertiesSet: 0 };
    expect(describeUpdates(none)).toBe('');
    expect(describeUpdates({ ...none, nodesCreated: 1, propertiesSet: 3 })).toBe('1 node created, 3 properties set');
  });
});

describe('history', () => {
  it('round-trips entries, newest first, with line breaks', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'graphdb-hist-')), 'history');
    expect(loadHistory(file)).toEqual([]);
    expect(saveHistory(file, ['RETURN 2;', 'MATCH (n)\nRETURN n;', 'a\\nb'])).toBe(true);
    expect(readFileSync(file, 'utf8').split('\n')[0]).toBe('a\\\\nb');
    expect(loadHistory(file)).toEqual(['RETURN 2;', 'MATCH (n)\nRETURN n;', 'a\\nb']);
  });

  it('honours GRAPHDB_HISTORY, empty meaning none', () => {
    expect(historyFile({ GRAPHDB_HISTORY: '/tmp/h' })).toBe('/tmp/h');
    expect(historyFile({ GRAPHDB_HISTORY: '' })).toBeUndefined();
    expect(historyFile({})).toMatch(/\.graphdb_history$/);
  });
});

describe('meta-command registry', () => {
  it('lists registered commands in :help and refuses duplicates', () => {
    registerMetaCommand({ name: 'demo-extra', args: '<file>', summary: 'a later command', run: () => 'continue' });
    expect(helpText()).toContain(':demo-extra <file>');
    expect(() => registerMetaCommand({ name: 'quit', summary: 'again', run: () => 'exit' })).toThrow(/already registered/);
  });
});

describe('--workers', () => {
  it('takes 0 to 64 and defaults to the cores, at most 4', () => {
    expect(workerCount('0')).toBe(0);
    expect(workerCount('64')).toBe(64);
    expect(workerCount(undefined)).toBe(Math.min(availableParallelism(), 4));
    for (const bad of ['-1', '65', 'two', '1.5', '']) expect(() => workerCount(bad)).toThrow(/--workers needs a number of query threads from 0 to 64/);
  });
});
