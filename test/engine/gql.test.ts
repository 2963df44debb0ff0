/**
 * Runs every example of docs/GQL.md against the documented setup graph and checks the
 * documented result, so the table of supported GQL forms stays true.
 */

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { cellText } from '../../runtime/format.js';

const doc = readFileSync(fileURLToPath(new URL('../../docs/GQL.md', import.meta.url)), 'utf8');
const setup = /Setup:\s*```\n([\s\S]*?)```/.exec(doc)?.[1] ?? '';

/** Table rows: feature, example (in backticks), expected JSON (in backticks); `\|` is a literal bar. */
const rows = doc
  .split('\n')
  .filter((line) => line.startsWith('| ') && !line.startsWith('| Feature') && !line.startsWith('|---'))
  .map((line) => {
    const bar = '<BAR>';
    const cells = line
      .split('\\|')
      .join(bar)
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim().split(bar).join('|'));
    const unquote = (c: string) => c.replace(/^`|`$/g, '');
    return { feature: cells[0], query: unquote(cells[1]), expected: JSON.parse(unquote(cells[2])) as string[][] };
  });

describe('docs/GQL.md examples', () => {
  it('has examples', () => {
    expect(setup).toMatch(/CREATE/);
    expect(rows.length).toBeGreaterThan(20);
  });

  for (const row of rows) {
    it(`${row.feature}: ${row.query}`, () => {
      const db = Database.openInMemory();
      db.executeSync(setup);
      const result = db.executeSync(row.query);
      expect(result.records.map((r) => r.map(cellText))).toEqual(row.expected);
    });
  }
});
