/**
 * docs/PROCEDURES.md and docs/FUNCTIONS.md are generated from the registries; this fails
 * when they drift (regenerate with `npx tsx scripts/gen-catalogue-docs.ts`). Also checks
 * the catalogue's size targets.
 */

import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { renderFunctionsDoc, renderProceduresDoc } from '../../procedures/catalogue-docs.js';
import { Database } from '../../src/engine/database.js';

const read = (name: string) => readFileSync(new URL(`../../docs/${name}`, import.meta.url), 'utf8');

describe('catalogue documents', () => {
  it('docs/PROCEDURES.md matches the procedure registry', () => {
    expect(read('PROCEDURES.md')).toBe(renderProceduresDoc());
  });

  it('docs/FUNCTIONS.md matches the function registry', () => {
    expect(read('FUNCTIONS.md')).toBe(renderFunctionsDoc());
  });

  it('SHOW PROCEDURES lists at least 70 procedures beyond algo.*, SHOW FUNCTIONS at least 200 functions', () => {
    const db = Database.openInMemory();
    const procs = db.executeSync('SHOW PROCEDURES').records.map((r) => String(r[0]));
    expect(procs.filter((n) => !n.startsWith('algo.')).length).toBeGreaterThanOrEqual(70);
    expect(db.executeSync('SHOW FUNCTIONS').records.length).toBeGreaterThanOrEqual(200);
  });
});
