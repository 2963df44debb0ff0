/**
 * graph_rag's name index (src/rag/name-index.ts): it answers exactly what a scan of every
 * node's name and title would, after creates, renames, deletes, failed queries (rollbacks),
 * explicit transactions left uncommitted, a wholesale clear, and a reopen of a data directory
 * (a bulk load, whose node objects the index does not make); and the `name` seed source
 * finds names through it.
 */

import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from '../../src/engine/database.js';
import { indexableName, NAME_KEYS, nameIndexFor } from '../../src/rag/name-index.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Every name key → node ids, by scanning the graph: what the index must hold. */
function scanned(db: Database): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const node of db.graph.allNodes()) {
    const keys = new Set(NAME_KEYS.map((k) => indexableName(node.prop(k))).filter((k): k is string => k !== undefined));
    for (const key of keys) out.set(key, [...(out.get(key) ?? []), node.id].sort((a, b) => a - b));
  }
  return out;
}

/** The index agrees with the scan on every scanned key and on `extra` keys (that may have gone). */
function expectAgrees(db: Database, extra: readonly string[] = []): void {
  const index = nameIndexFor(db.graph, db.schema);
  const truth = scanned(db);
  for (const key of new Set([...truth.keys(), ...extra])) {
    const ids = [...(index.lookup(key) ?? [])].filter((id) => db.graph.node(id)?.deleted === false).sort((a, b) => a - b);
    expect([key, ids]).toEqual([key, truth.get(key) ?? []]);
  }
}

function nameHits(db: Database, question: string): string[] {
  const r = db.executeSync("CALL graphdb.rag.explain($q, {sources: ['name']}) YIELD step, detail WHERE step = 'seeds.name' RETURN detail", { q: question });
  if (r.records.length === 0) return [];
  const detail = r.records[0][0] as Map<string, unknown>;
  return (detail.get('hits') as Map<string, unknown>[]).map((h) => `${String(h.get('name'))}@${String(h.get('where'))}`);
}

describe('name index', () => {
  it('follows creates, renames, titles and deletes', () => {
    const db = Database.openInMemory();
    db.executeSync("CREATE (:Person {name: 'Ann Lee'}), (:Person {name: 'ann  LEE!'}), (:Book {title: 'Deep Water', name: 'dw'}), (:X {name: 42})");
    expectAgrees(db);
    expect(nameHits(db, 'Who wrote Deep Water?')).toEqual(['dw@title']);
    expect(nameHits(db, "What is ann lee's job?").sort()).toEqual(['Ann Lee@name', 'ann  LEE!@name']);
    db.executeSync("MATCH (p:Person {name: 'Ann Lee'}) SET p.name = 'Ann Berg'");
    expectAgrees(db, ['ann lee', 'ann berg']);
    expect(nameHits(db, 'Where is Ann Berg?')).toEqual(['Ann Berg@name']);
    db.executeSync("MATCH (b:Book) REMOVE b.title SET b.name = 'Deep Water'");
    expect(nameHits(db, 'Who wrote Deep Water?')).toEqual(['Deep Water@name']);
    db.executeSync("MATCH (p:Person) WHERE p.name STARTS WITH 'ann' DETACH DELETE p");
    expectAgrees(db, ['ann lee']);
    expect(nameHits(db, 'Where is ann lee?')).toEqual([]);
    // Names longer than a quoted name can be (24 words), or than a name (200 characters), are not filed; a seven-word name is (a quoted title).
    const words = (n: number): string => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
    db.executeSync('CREATE (:T {name: $seven}), (:T {name: $many}), (:T {name: $long})', { seven: words(7), many: words(25), long: 'x'.repeat(201) });
    expect(nameIndexFor(db.graph, db.schema).lookup(words(7))).toBeDefined();
    expect(nameIndexFor(db.graph, db.schema).lookup(words(25))).toBeUndefined();
    expectAgrees(db);
  });

  it('is restored by rollbacks: a failed query and an uncommitted explicit transaction', async () => {
    const db = Database.openInMemory();
    db.executeSync("CREATE (:Person {name: 'Ann Lee'}), (:City {name: 'Oslo'})");
    expect(nameHits(db, 'Ann Lee')).toEqual(['Ann Lee@name']);
    // The query renames, creates and deletes, then fails: none of it may remain in the index.
    expect(() =>
      db.executeSync("MATCH (p:Person {name: 'Ann Lee'}), (c:City) SET p.name = 'Ann Berg' CREATE (:Person {name: 'Cy Dale'}) DETACH DELETE c WITH p RETURN 1 / 0"),
    ).toThrow();
    expectAgrees(db, ['ann berg', 'cy dale', 'oslo']);
    expect(nameHits(db, 'Ann Berg or Ann Lee or Cy Dale in Oslo')).toEqual(['Ann Lee@name', 'Oslo@name']);
    // Within a transaction the query sees its own renames; after the rollback they are gone.
    const [seen] = await db.executeInTransaction(
      [
        { query: "MATCH (p:Person) SET p.name = 'Bo Ek'" },
        { query: "CALL graphdb.rag.explain('Bo Ek', {sources: ['name']}) YIELD step, detail WHERE step = 'seeds.name' RETURN size(detail.hits) AS n" },
      ],
      { commit: false },
    ).then((rs) => rs.slice(1));
    expect(seen.records).toEqual([[1]]);
    expectAgrees(db, ['bo ek']);
    expect(nameHits(db, 'Bo Ek')).toEqual([]);
  });

  it('is rebuilt after the graph is cleared and agrees with a scan after many random writes', () => {
    const db = Database.openInMemory();
    const names = ['Ann Lee', 'Bo Ek', 'Oslo', 'Acme Corp', 'acme corp.', 'Deep Water'];
    let seed = 7;
    const rand = (n: number): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    for (let i = 0; i < 300; i++) {
      const name = names[rand(names.length)];
      const other = names[rand(names.length)];
      switch (rand(5)) {
        case 0:
          db.executeSync('CREATE (:N {name: $name})', { name });
          break;
        case 1:
          db.executeSync('MATCH (n:N {name: $name}) WITH n LIMIT 1 SET n.title = $other', { name, other });
          break;
        case 2:
          db.executeSync('MATCH (n:N {name: $name}) WITH n LIMIT 1 SET n.name = $other', { name, other });
          break;
        case 3:
          db.executeSync('MATCH (n:N {name: $name}) WITH n LIMIT 1 DETACH DELETE n', { name });
          break;
        default:
          expect(() => db.executeSync('MATCH (n:N) SET n.name = $other CREATE (:N {title: $name}) WITH count(*) AS c RETURN 1 / 0', { name, other })).toThrow();
      }
      if (i % 50 === 0) expectAgrees(db, names.map((n) => indexableName(n)!));
    }
    expectAgrees(db, names.map((n) => indexableName(n)!));
    db.graph.clear();
    expectAgrees(db, names.map((n) => indexableName(n)!));
    db.executeSync("CREATE (:N {name: 'Oslo'})");
    expectAgrees(db, names.map((n) => indexableName(n)!));
    expect(nameHits(db, 'Oslo')).toEqual(['Oslo@name']);
  });

  it('holds the names of a reopened data directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'graphdb-names-'));
    dirs.push(dir);
    let db = await Database.open({ dataDir: dir });
    await db.execute("CREATE (:Person {name: 'Ann Lee'}), (:City {name: 'Oslo'})");
    expect(nameHits(db, 'Ann Lee in Oslo').sort()).toEqual(['Ann Lee@name', 'Oslo@name']);
    await db.execute("MATCH (c:City) SET c.name = 'Bergen'");
    db.close();
    db = await Database.open({ dataDir: dir });
    // Building the index reads the loaded names from the columns: no node object is made for it.
    const unmade = db.graph.bulk?.unmadeNodes;
    expect(unmade).toBe(2);
    expect([...(nameIndexFor(db.graph, db.schema).lookup('bergen') ?? [])]).toHaveLength(1);
    expect(db.graph.bulk?.unmadeNodes).toBe(unmade);
    expect(nameHits(db, 'Ann Lee in Oslo or Bergen').sort()).toEqual(['Ann Lee@name', 'Bergen@name']);
    expectAgrees(db, ['oslo']);
    db.close();
  });
});
