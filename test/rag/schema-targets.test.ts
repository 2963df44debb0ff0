/**
 * graph_rag's schema targeting by embeddings (src/rag/schema-match.ts with question.ts): the
 * words a question asks for are compared with label, type and key names through the
 * configured embedder. With a model that places "employer" near "company" (a real ONNX model
 * generated here with python3-onnx, hand-set word vectors), "Which employer…" targets the
 * label Company first although neither the label nor the relationship (WORKS_AT) is named,
 * and the company ranks above the person it was found from; with the default hashing
 * embedder the same question names no target. The choice is deterministic.
 */

import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';

let modelDir: string;
const open: Database[] = [];

beforeAll(() => {
  modelDir = mkdtempSync(path.join(tmpdir(), 'graphdb-synonyms-'));
  execFileSync('/usr/bin/python3', [path.join(import.meta.dirname, 'fixtures', 'make_synonym_model.py'), modelDir]);
});

afterAll(() => {
  for (const db of open) db.close();
  rmSync(modelDir, { recursive: true, force: true });
});

function graph(options: { embeddingModel?: string } = {}): Database {
  const db = Database.openInMemory(options);
  open.push(db);
  db.executeSync(`
    CREATE (ann:Person {name: 'Ann Lee'}),
           (acme:Company {name: 'Acme'}),
           (group:Business {name: 'Acme Group'}),
           (oslo:City {name: 'Oslo', time_zone: 'Europe/Oslo'}),
           (ann)-[:WORKS_AT]->(acme),
           (acme)-[:PART_OF]->(group),
           (acme)-[:LOCATED_IN]->(oslo)`);
  return db;
}

interface Match {
  kind: string;
  name: string;
  by: string;
  score: number;
}

function targets(db: Database, question: string, options: Record<string, unknown> = {}): { labels: string[]; types: string[]; matches: Match[] } {
  const r = db.executeSync("CALL graphdb.rag.explain($q, $o) YIELD step, detail WHERE step = 'targets' RETURN detail", { q: question, o: options });
  const d = r.records[0][0] as Map<string, unknown>;
  return {
    labels: d.get('labels') as string[],
    types: d.get('types') as string[],
    matches: (d.get('matches') as Map<string, unknown>[]).map((m) => ({ kind: String(m.get('kind')), name: String(m.get('name')), by: String(m.get('by')), score: Number(m.get('score')) })),
  };
}

function top(db: Database, question: string, options: Record<string, unknown> = {}): string[] {
  return db.executeSync('CALL graphdb.rag.retrieve($q, $o) YIELD name RETURN name', { q: question, o: { k: 3, ...options } }).records.map((r) => String(r[0]));
}

describe('schema targets by embeddings', () => {
  it('"which employer" targets Company first with a model that knows the synonym', () => {
    const db = graph({ embeddingModel: modelDir });
    const t = targets(db, 'Which employer does Ann Lee have?');
    // Company (0.97) and Business (0.93) are within the margin of the best; Person is not.
    // WORKS_AT comes from the built-in relation lexicon (employer ~ work), not the embedder.
    expect(t.labels).toEqual(['Company', 'Business']);
    expect(t.types).toEqual(['WORKS_AT']);
    expect(t.matches.map((m) => [m.name, m.by])).toEqual([['Company', 'embedding'], ['Business', 'embedding'], ['WORKS_AT', 'lexicon']]);
    expect(t.matches[0].score).toBeGreaterThan(t.matches[1].score);
    expect(top(db, 'Which employer does Ann Lee have?')[0]).toBe('Acme');
    // The same again: deterministic.
    expect(targets(db, 'Which employer does Ann Lee have?')).toEqual(t);
    // Switched off, no label comes from the embedder (the lexicon's type still does).
    expect(targets(db, 'Which employer does Ann Lee have?', { targetSimilarity: 2 }).labels).toEqual([]);
  });

  it('a word match outranks an embedding match, and only near-ties of it are kept', () => {
    const db = graph({ embeddingModel: modelDir });
    const t = targets(db, 'Which business is Acme part of?');
    // "business" names the label; Company's similarity to "business" (0.86) is beyond the margin of 1.
    expect(t.labels).toEqual(['Business']);
    expect(t.matches[0]).toMatchObject({ kind: 'label', name: 'Business', by: 'words', score: 1 });
    expect(top(db, 'Which business is Acme part of?')[0]).toBe('Acme Group');
    expect(targets(db, 'What time zone is Oslo in?').matches.map((m) => [m.kind, m.name])).toEqual([['property', 'time_zone']]);
  });

  it('matches a relation phrase to a type by embedding and walks it (a word no lexicon knows)', () => {
    const db = graph({ embeddingModel: modelDir });
    const q = 'Where is the occupation of Ann Lee located?';
    // The whole time budget: on a loaded machine the first embedding can use up the default 2 s, and the walk this test is about would then be skipped.
    const rows = db.executeSync('CALL graphdb.rag.retrieve($q, {k: 3, deadline: 60000}) YIELD name, note RETURN name, note', { q }).records;
    expect(rows[0][0]).toBe('Oslo');
    expect(String(rows[0][1])).toMatch(/path 'Ann Lee' -\[:WORKS_AT\]-> 'Acme' -\[:LOCATED_IN\]-> 'Oslo' \(2 hops, coverage 1\)/);
    const paths = db.executeSync("CALL graphdb.rag.explain($q) YIELD step, detail WHERE step = 'paths' RETURN detail", { q }).records[0][0] as Map<string, unknown>;
    const works = (paths.get('relations') as Map<string, unknown>[]).find((m) => m.get('type') === 'WORKS_AT');
    expect([works?.get('by'), works?.get('word')]).toEqual(['embedding', 'occupation']);
    // Without embeddings "occupation" names nothing, but the schema's route from :Person to the asked place (where → :City)
    // still connects WORKS_AT to the LOCATED_IN that "located" names: the same chain, WORKS_AT matched by 'route'.
    const plain = db.executeSync('CALL graphdb.rag.retrieve($q, {k: 3, targetSimilarity: 2}) YIELD name, note RETURN name, note', { q }).records;
    expect(plain[0][0]).toBe('Oslo');
    expect(String(plain[0][1])).toMatch(/path 'Ann Lee' -\[:WORKS_AT\]-> 'Acme' -\[:LOCATED_IN\]-> 'Oslo'/);
    const plainPaths = db.executeSync("CALL graphdb.rag.explain($q, {targetSimilarity: 2}) YIELD step, detail WHERE step = 'paths' RETURN detail", { q }).records[0][0] as Map<string, unknown>;
    const route = (plainPaths.get('relations') as Map<string, unknown>[]).find((m) => m.get('type') === 'WORKS_AT');
    expect(route?.get('by')).toBe('route');
  });

  it('with the default hashing embedder the synonym names nothing, and near spellings stay below the threshold', () => {
    const db = graph();
    db.executeSync("CREATE (:Employee {name: 'Bo'})");
    const t = targets(db, 'Which employer does Ann Lee have?');
    expect(t.labels).toEqual([]);
    // The built-in relation lexicon still reads "employer" as WORKS_AT, so the employer comes first.
    expect(t.matches.map((m) => [m.name, m.by])).toEqual([['WORKS_AT', 'lexicon']]);
    expect(top(db, 'Which employer does Ann Lee have?')[0]).toBe('Acme');
    expect(targets(db, 'Which company does Ann Lee work at?').labels).toEqual(['Company']);
    expect(() => targets(db, 'x', { targetSimilarity: -1 })).toThrow(/targetSimilarity/);
  });

  it('a broken embedder costs the embedding matches, not the answer', () => {
    const db = graph({ embeddingModel: path.join(modelDir, 'missing') });
    expect(top(db, 'Which company does Ann Lee work at?')[0]).toBe('Acme');
    const r = db.executeSync("CALL graphdb.rag.explain('Which company does Ann Lee work at?') YIELD step, detail WHERE step = 'budget' RETURN detail.skipped");
    expect((r.records[0][0] as string[]).join()).toMatch(/^targets\.embedding \(.*model/);
  });
});
