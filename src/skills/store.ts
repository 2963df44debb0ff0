/**
 * Where skills live: in memory for an in-memory database, and with a data directory in
 * `<dataDir>/skills.json`, rewritten whole on each change (written to a temporary file,
 * fsynced, renamed over the old one, directory fsynced), so a crash leaves either the old
 * or the new set, never a torn one. The file is read on first use.
 */

import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StorageError } from '../errors.js';
import { isParameterType, SKILL_NAME, type Skill } from './skill.js';

export const SKILLS_FILE = 'skills.json';

interface SkillsFile {
  version: 1;
  skills: Skill[];
}

function isSkill(x: unknown): x is Skill {
  if (typeof x !== 'object' || x === null) return false;
  const s = x as Record<string, unknown>;
  return (
    typeof s.name === 'string' && SKILL_NAME.test(s.name) && typeof s.description === 'string' && typeof s.query === 'string' &&
    (s.mode === 'read' || s.mode === 'write') && typeof s.parameters === 'object' && s.parameters !== null &&
    Object.values(s.parameters as Record<string, unknown>).every(
      (p) => typeof p === 'object' && p !== null && isParameterType(String((p as Record<string, unknown>).type)),
    )
  );
}

function fsyncPath(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export class SkillStore {
  private skills: Map<string, Skill> | undefined;

  /** `dataDir` is read on first use: a database learns its directory after construction. */
  constructor(private readonly dataDir: () => string | undefined) {}

  private loaded(): Map<string, Skill> {
    if (this.skills) return this.skills;
    const skills = new Map<string, Skill>();
    const dir = this.dataDir();
    if (dir !== undefined && existsSync(join(dir, SKILLS_FILE))) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(readFileSync(join(dir, SKILLS_FILE), 'utf8'));
      } catch (err) {
        throw new StorageError(`The skills file ${join(dir, SKILLS_FILE)} cannot be read: ${(err as Error).message}`, 'SkillsFileUnreadable');
      }
      const list = (parsed as Partial<SkillsFile>).skills;
      if (!Array.isArray(list)) throw new StorageError(`The skills file ${join(dir, SKILLS_FILE)} has no skills list`, 'SkillsFileUnreadable');
      for (const s of list) if (isSkill(s)) skills.set(s.name, s);
    }
    this.skills = skills;
    return skills;
  }

  list(): Skill[] {
    return [...this.loaded().values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  get(name: string): Skill | undefined {
    return this.loaded().get(name);
  }

  count(): number {
    try {
      return this.loaded().size;
    } catch {
      return 0;
    }
  }

  /** Adds or replaces a skill; durable before it returns. */
  put(skill: Skill): void {
    const next = new Map(this.loaded());
    next.set(skill.name, skill);
    this.save(next);
  }

  /** Removes a skill; false when there was none of that name. */
  remove(name: string): boolean {
    const current = this.loaded();
    if (!current.has(name)) return false;
    const next = new Map(current);
    next.delete(name);
    this.save(next);
    return true;
  }

  private save(next: Map<string, Skill>): void {
    const dir = this.dataDir();
    if (dir !== undefined) {
      const file: SkillsFile = { version: 1, skills: [...next.values()] };
      const path = join(dir, SKILLS_FILE);
      const tmp = `${path}.tmp`;
      try {
        writeFileSync(tmp, JSON.stringify(file, null, 2) + '\n');
        fsyncPath(tmp);
        renameSync(tmp, path);
        fsyncPath(dir);
      } catch (err) {
        throw new StorageError(`The skills file cannot be written: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, 'SkillsFileUnwritable');
      }
    }
    this.skills = next;
  }
}
