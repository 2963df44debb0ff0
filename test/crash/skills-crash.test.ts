/**
 * Skills survive a crash once acknowledged: a graphdb TCP server on a data directory
 * registers skills one per query over several connections (each registration also writes a
 * node, so the skill file and the WAL are both in play), every third query registers and
 * then fails; the server is killed with SIGKILL at a random moment. After a restart every
 * acknowledged skill is there, no skill of a failed query is, and at most the one
 * registration in flight per connection is there besides.
 */

import { afterAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/engine/database.js';
import { removeTempDirs, tempDir } from '../store/persist-helpers.js';
import { exited, startServer, writeLoop } from './crash-harness.js';

afterAll(removeTempDirs);

const CONNECTIONS = 2;

/** Query i of connection c: registers skill s<c>_<i>; every third one then fails (division by zero). */
const register = (c: number) => (i: number) =>
  `CALL skills.register('s${c}_${i}', 'skill ${i}', 'RETURN ${i} AS i') YIELD name CREATE (:S {c: ${c}, i: ${i}})` +
  (i % 3 === 2 ? ' WITH name RETURN 1 / 0' : ' RETURN name');

describe('skills across kill -9', () => {
  it('keeps every acknowledged registration and none of a failed query', async () => {
    const dir = tempDir('graphdb-skills-crash-');
    const server = await startServer(dir);
    const loops = Array.from({ length: CONNECTIONS }, (_, c) => writeLoop(server.port, register(c)));
    const enough = Date.now() + 60_000;
    while (loops.some((l) => l.writer.acked.length < 3) && Date.now() < enough) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, Math.random() * 300));
    server.child.kill('SIGKILL');
    await Promise.all(loops.map((l) => l.done));
    await exited(server.child);

    const db = await Database.open({ dataDir: dir, storage: { log: null } });
    try {
      const skills = new Set(db.skills.list().map((s) => s.name));
      for (let c = 0; c < CONNECTIONS; c++) {
        const { writer } = loops[c];
        expect(writer.acked.length, `connection ${c} got no acknowledgement`).toBeGreaterThan(0);
        // Every failure is the deliberate one (every third query), and it left no skill.
        expect(writer.errors.every((e) => /zero/i.test(e)), writer.errors.join('\n')).toBe(true);
        const lost = writer.acked.filter((i) => !skills.has(`s${c}_${i}`));
        expect(lost, `connection ${c}: acknowledged skills lost`).toEqual([]);
        const present = [...skills].filter((s) => s.startsWith(`s${c}_`)).map((s) => Number(s.slice(`s${c}_`.length)));
        expect(present.filter((i) => i % 3 === 2), `connection ${c}: skills of failed queries`).toEqual([]);
        const unacked = present.filter((i) => !writer.acked.includes(i));
        expect(unacked.length).toBeLessThanOrEqual(1);
        if (unacked.length === 1) expect(unacked[0]).toBe(writer.inFlight);
        // A recovered skill still runs.
        const i = writer.acked[writer.acked.length - 1];
        expect(db.executeSync(`CALL skills.run('s${c}_${i}') YIELD value RETURN value.i`).records).toEqual([[i]]);
      }
    } finally {
      db.close();
    }
  });
});
