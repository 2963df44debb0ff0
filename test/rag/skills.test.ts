/**
 * Skills through the query language: register (compiled at registration: read or write,
 * undeclared parameters refused), list, run (one map per row), runWrite, remove; argument
 * checks; durability in the data directory across a reopen.
 */

import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from '../../src/engine/database.js';
import { GraphDbError } from '../../src/errors.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function detailOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof GraphDbError) return err.detail;
    throw err;
  }
  return 'no error';
}

const REGISTER_COLLEAGUES = `CALL skills.register('colleagues', 'People who work at a company',
  'MATCH (p:Person)-[:WORKS_AT]->(:Company {name: $company}) RETURN p.name AS name ORDER BY name',
  {parameters: {company: {type: 'STRING', description: 'the company name'}}}) YIELD name, mode RETURN name, mode`;

describe('skills', () => {
  it('registers, lists, runs and removes skills', () => {
    const db = Database.openInMemory();
    db.executeSync("CREATE (:Person {name: 'Bo'})-[:WORKS_AT]->(c:Company {name: 'Acme'}), (:Person {name: 'Al'})-[:WORKS_AT]->(c)");
    expect(db.executeSync(REGISTER_COLLEAGUES).records).toEqual([['colleagues', 'read']]);
    db.executeSync(`CALL skills.register('hire', 'Adds a person to a company', 'MATCH (c:Company {name: $company}) CREATE (:Person {name: $name})-[:WORKS_AT]->(c)', {parameters: {company: 'STRING', name: 'STRING'}}) YIELD name RETURN name`);
    const listed = db.executeSync('CALL skills.list() YIELD name, description, mode, parameters RETURN name, mode, parameters');
    expect(listed.records.map((r) => [r[0], r[1]])).toEqual([['colleagues', 'read'], ['hire', 'write']]);
    expect(db.skills.count()).toBe(2);
    const run = db.executeSync("CALL skills.run('colleagues', {company: 'Acme'}) YIELD value RETURN value.name AS name");
    expect(run.records).toEqual([['Al'], ['Bo']]);
    // A writing skill is refused by skills.run (a read procedure) and runs through skills.runWrite.
    expect(detailOf(() => db.executeSync("CALL skills.run('hire', {company: 'Acme', name: 'Cy'}) YIELD value RETURN value"))).toBe('WriteSkillInReadCall');
    db.executeSync("CALL skills.runWrite('hire', {company: 'Acme', name: 'Cy'}) YIELD value RETURN value");
    expect(db.executeSync("CALL skills.run('colleagues', {company: 'Acme'}) YIELD value RETURN count(*)").records[0][0]).toBe(3);
    // A read-only call cannot even reach skills.runWrite.
    expect(() => db.executeSync("CALL skills.runWrite('hire', {company: 'Acme', name: 'Di'}) YIELD value RETURN value", {}, { readOnly: true })).toThrow(/read-only/);
    expect(db.executeSync("CALL skills.remove('hire') YIELD removed RETURN removed").records).toEqual([[true]]);
    expect(db.executeSync("CALL skills.remove('hire') YIELD removed RETURN removed").records).toEqual([[false]]);
    expect(db.skills.count()).toBe(1);
  });

  it('refuses bad registrations and bad arguments with typed errors', () => {
    const db = Database.openInMemory();
    db.executeSync(REGISTER_COLLEAGUES);
    const reg = (name: string, q: string, params = '{}') => () => db.executeSync(`CALL skills.register(${name}, 'd', $q, {parameters: ${params}}) YIELD name RETURN name`, { q });
    expect(detailOf(reg("'1bad'", 'RETURN 1'))).toBe('InvalidSkillName');
    expect(detailOf(reg("'x'", 'MATCH (n RETURN n'))).toBe('InvalidSkillQuery');
    expect(detailOf(reg("'x'", 'RETURN $undeclared'))).toBe('InvalidSkillQuery');
    expect(detailOf(reg("'x'", 'RETURN $a', "{a: 'COLOUR'}"))).toBe('InvalidArgumentValue');
    expect(detailOf(() => db.executeSync("CALL skills.run('colleagues', {}) YIELD value RETURN value"))).toBe('SkillParameterMissing');
    expect(detailOf(() => db.executeSync("CALL skills.run('colleagues', {company: 42}) YIELD value RETURN value"))).toBe('SkillParameterType');
    expect(detailOf(() => db.executeSync("CALL skills.run('colleagues', {company: 'A', extra: 1}) YIELD value RETURN value"))).toBe('UnknownSkillParameter');
    expect(detailOf(() => db.executeSync("CALL skills.run('nope') YIELD value RETURN value"))).toBe('SkillNotFound');
    // Optional parameters arrive as null.
    db.executeSync("CALL skills.register('echo', 'Echoes', 'RETURN coalesce($x, \\'none\\') AS x', {parameters: {x: 'STRING?'}}) YIELD name RETURN name");
    expect(db.executeSync("CALL skills.run('echo') YIELD value RETURN value.x").records).toEqual([['none']]);
  });

  it('keeps skills in the data directory across a reopen', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'graphdb-skills-'));
    dirs.push(dir);
    let db = await Database.open({ dataDir: dir });
    await db.execute(REGISTER_COLLEAGUES);
    db.close();
    expect(JSON.parse(readFileSync(join(dir, 'skills.json'), 'utf8')).skills[0].name).toBe('colleagues');
    db = await Database.open({ dataDir: dir });
    expect(db.skills.list().map((s) => [s.name, s.mode, s.parameters.company.type])).toEqual([['colleagues', 'read', 'STRING']]);
    db.close();
  });
});

describe('skills are transactional with the query', () => {
  const REGISTER_THEN_FAIL = `CALL skills.register('doomed', 'Registered by a query that then fails', 'RETURN 1 AS one')
    YIELD name CREATE (:Made) WITH name RETURN 1 / 0`;

  it('a query that fails after skills.register leaves no skill, in memory and in the data directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'graphdb-skills-tx-'));
    dirs.push(dir);
    let db = await Database.open({ dataDir: dir });
    await db.execute(REGISTER_COLLEAGUES);
    await expect(db.execute(REGISTER_THEN_FAIL)).rejects.toThrow(/zero/i);
    expect(db.skills.list().map((s) => s.name)).toEqual(['colleagues']);
    expect(db.executeSync('MATCH (m:Made) RETURN count(m)').records).toEqual([[0]]);
    expect(detailOf(() => db.executeSync("CALL skills.run('doomed') YIELD value RETURN value"))).toBe('SkillNotFound');
    // A removal in a failing query is undone too.
    expect(() => db.executeSync("CALL skills.remove('colleagues') YIELD removed WITH removed RETURN 1 / 0")).toThrow();
    expect(db.skills.list().map((s) => s.name)).toEqual(['colleagues']);
    expect(JSON.parse(readFileSync(join(dir, 'skills.json'), 'utf8')).skills.map((s: { name: string }) => s.name)).toEqual(['colleagues']);
    db.close();
    db = await Database.open({ dataDir: dir });
    expect(db.skills.list().map((s) => s.name)).toEqual(['colleagues']);
    db.close();
  });

  it('the query sees its own registration; a replacement that fails keeps the old skill', () => {
    const db = Database.openInMemory();
    db.executeSync(REGISTER_COLLEAGUES);
    const seen = db.executeSync(`CALL skills.register('one', 'One', 'RETURN 1 AS x') YIELD name
      CALL skills.run('one') YIELD value RETURN name, value.x AS x`);
    expect(seen.records).toEqual([['one', 1]]);
    expect(() => db.executeSync("CALL skills.register('colleagues', 'Replaced', 'RETURN 2 AS x') YIELD name WITH name RETURN 1 / 0")).toThrow();
    expect(db.skills.get('colleagues')?.description).toBe('People who work at a company');
    expect(db.skills.list().map((s) => s.name)).toEqual(['colleagues', 'one']);
  });

  it('inside an explicit transaction: kept on commit, dropped on rollback or on a failing statement', async () => {
    const db = Database.openInMemory();
    const register = (name: string) => ({ query: `CALL skills.register('${name}', 'd', 'RETURN 1 AS x') YIELD name RETURN name` });
    await db.executeInTransaction([register('rolledBack'), { query: "CALL skills.list() YIELD name RETURN collect(name)" }], { commit: false }).then((rs) => {
      expect(rs[1].records).toEqual([[['rolledBack']]]);
    });
    expect(db.skills.count()).toBe(0);
    await expect(db.executeInTransaction([register('failed'), { query: 'RETURN 1 / 0' }], { commit: true })).rejects.toThrow();
    expect(db.skills.count()).toBe(0);
    await db.executeInTransaction([register('kept'), { query: 'CREATE (:K)' }], { commit: true });
    expect(db.skills.list().map((s) => s.name)).toEqual(['kept']);
  });
});
