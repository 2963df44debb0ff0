/**
 * Skill files (`SKILL.md`): the parser (front matter, parameters, the fenced query block,
 * errors naming the file) and `graphdb skills import <dir>` / `skills list` through the
 * CLI's own entry point on a real data directory, read back after a reopen.
 */

import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { main } from '../../src/cli/main.js';
import { Database } from '../../src/engine/database.js';
import { parseSkillFile } from '../../src/skills/skill-file.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return d;
}

async function cli(args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const sink = (into: string[]): Writable =>
    new Writable({
      write(chunk: Buffer | string, _enc, done) {
        into.push(chunk.toString());
        done();
      },
    });
  const status = await main(['node', 'graphdb', ...args], { stdin: new PassThrough(), stdout: sink(out), stderr: sink(err) });
  return { status, stdout: out.join(''), stderr: err.join('') };
}

const COLLEAGUES = `---
name: colleagues
description: "People who work at a company"
parameters:
  company: STRING -- the company's name
  since: INTEGER? -- only those hired since this year
---
Lists colleagues.

\`\`\`cypher
MATCH (p:Person)-[w:WORKS_AT]->(:Company {name: $company})
WHERE $since IS NULL OR w.since >= $since
RETURN p.name AS name
\`\`\`
`;

describe('skill files', () => {
  it('parses front matter, parameters and the query block', () => {
    const skill = parseSkillFile(COLLEAGUES, 'x/SKILL.md');
    expect(skill.name).toBe('colleagues');
    expect(skill.description).toBe('People who work at a company');
    expect([...skill.parameters]).toEqual([
      ['company', { type: 'STRING', description: "the company's name" }],
      ['since', { type: 'INTEGER?', description: 'only those hired since this year' }],
    ]);
    expect(skill.query).toMatch(/^MATCH \(p:Person\)/);
    expect(() => parseSkillFile('no front matter', 'a/SKILL.md')).toThrow(/a\/SKILL.md: a skill file starts with front matter/);
    expect(() => parseSkillFile('---\nname: x\n---\n```cypher\nRETURN 1\n```', 'b/SKILL.md')).toThrow(/needs a description/);
    expect(() => parseSkillFile('---\nname: x\ndescription: d\n---\nno block', 'c/SKILL.md')).toThrow(/no fenced query block/);
  });

  it('imports a directory of skills with the CLI into a data directory', async () => {
    const skillsDir = tempDir('graphdb-skill-files-');
    mkdirSync(join(skillsDir, 'colleagues'));
    writeFileSync(join(skillsDir, 'colleagues', 'SKILL.md'), COLLEAGUES);
    mkdirSync(join(skillsDir, 'hire'));
    writeFileSync(
      join(skillsDir, 'hire', 'SKILL.md'),
      '---\nname: hire\ndescription: Adds a person\nparameters:\n  name: STRING\n---\n```gql\nCREATE (:Person {name: $name})\n```\n',
    );
    const dataDir = tempDir('graphdb-skill-data-');
    const imported = await cli(['--data-dir', dataDir, 'skills', 'import', skillsDir]);
    expect(imported.stderr).toMatch(/2 skills imported/);
    expect(imported.status).toBe(0);
    expect(imported.stdout).toBe('imported colleagues (read)\nimported hire (write)\n');
    const listed = await cli(['--data-dir', dataDir, 'skills', 'list']);
    expect(listed.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { name: string }).name)).toEqual(['colleagues', 'hire']);
    const db = await Database.open({ dataDir });
    try {
      expect(db.skills.get('colleagues')?.parameters.since).toEqual({ type: 'INTEGER', description: 'only those hired since this year', required: false });
    } finally {
      db.close();
    }
    // A file whose query does not compile stops the import and says which skill.
    writeFileSync(join(skillsDir, 'SKILL.md'), '---\nname: broken\ndescription: d\n---\n```cypher\nMATCH (n RETURN n\n```\n');
    const bad = await cli(['--data-dir', dataDir, 'skills', 'import', skillsDir]);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/skill broken does not compile/);
  });
});
