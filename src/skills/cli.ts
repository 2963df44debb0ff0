/**
 * `graphdb skills import <dir> [--data-dir D]`: registers every skill file under `dir` (the
 * directory's own SKILL.md and each subdirectory's), each through `skills.register`, so the
 * same checks apply as to a skill registered by a query. Prints one line per skill; any bad
 * file stops the import with status 1 after naming it. `graphdb skills list` prints them.
 */

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import type { Database } from '../engine/database.js';
import { EXIT_OK } from '../cli/cli-error.js';
import { type CliIo, writeLine } from '../cli/io.js';
import { parseSkillFile, type SkillFile } from './skill-file.js';

const REGISTER = 'CALL skills.register($name, $description, $query, {parameters: $parameters}) YIELD name, mode RETURN name, mode';

/** SKILL.md files of `dir` and its direct subdirectories, in name order. */
export function skillFiles(dir: string): string[] {
  const out: string[] = [];
  if (existsSync(join(dir, 'SKILL.md'))) out.push(join(dir, 'SKILL.md'));
  for (const entry of readdirSync(dir).sort()) {
    const path = join(dir, entry, 'SKILL.md');
    if (statSync(join(dir, entry)).isDirectory() && existsSync(path)) out.push(path);
  }
  return out;
}

export async function importSkills(db: Database, dir: string, report: (line: string) => void): Promise<number> {
  const files = skillFiles(dir);
  const parsed: SkillFile[] = files.map((f) => parseSkillFile(readFileSync(f, 'utf8'), f));
  for (const skill of parsed) {
    const parameters = Object.fromEntries([...skill.parameters].map(([n, p]) => [n, { type: p.type.replace(/\?$/, ''), description: p.description, required: !p.type.endsWith('?') }]));
    const result = await db.execute(REGISTER, { name: skill.name, description: skill.description, query: skill.query, parameters });
    report(`${String(result.records[0][0])} (${String(result.records[0][1])})`);
  }
  return parsed.length;
}

export function registerSkillsCommand(program: Command, io: CliIo, setStatus: (status: number) => void, open: (cmd: Command) => Promise<Database>): void {
  const skills = program.command('skills').description('manage skills: named, parameterised queries for agents (import, list)');
  skills
    .command('import')
    .description('register the skills in <dir> (its SKILL.md and each subdirectory\'s); see docs/RAG.md for the format')
    .argument('<dir>', 'a directory of skill files')
    .action(async (dir: string, _o: unknown, cmd: Command) => {
      const db = await open(cmd);
      try {
        const n = await importSkills(db, dir, (line) => writeLine(io.stdout, `imported ${line}`));
        writeLine(io.stderr, `graphdb: ${n} skill${n === 1 ? '' : 's'} imported`);
      } finally {
        db.close();
      }
      setStatus(EXIT_OK);
    });
  skills
    .command('list')
    .description('print the registered skills, one JSON object per line')
    .action(async (_o: unknown, cmd: Command) => {
      const db = await open(cmd);
      try {
        for (const s of db.skills.list()) writeLine(io.stdout, JSON.stringify({ name: s.name, description: s.description, mode: s.mode, parameters: s.parameters }));
      } finally {
        db.close();
      }
      setStatus(EXIT_OK);
    });
}
