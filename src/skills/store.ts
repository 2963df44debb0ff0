/**
 * Where skills live: in memory for an in-memory database, and with a data directory in
 * `<dataDir>/skills.json`, rewritten whole on each change (written to a temporary file,
 * fsynced, renamed over the old one, directory fsynced), so a crash leaves either the old
 * or the new set, never a torn one. The file is read on first use.
 *
 * Changes are transactional with the query that makes them: `put` and `remove` only stage
 * them (the same transaction sees them at once); `Database` calls `commit()` once the
 * transaction's graph changes are committed — the file is written then, before the query is
 * acknowledged — and `rollback()` when the transaction is undone, which drops them. Why a
 * file beside the WAL rather than WAL records: docs/RAG.md, "Storage".
 */

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { StorageError } from '../errors.js';
import { writeFileDurably } from '../store/persist/fsync-dir.js';
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

export class SkillStore {
  private skills: Map<string, Skill> | undefined;
  /** The open transaction's changes: name → the new skill, or null for a removal. */
  private readonly staged = new Map<string, Skill | null>();

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

  /** The skills as the open transaction sees them (the committed set when none is open). */
  private current(): Map<string, Skill> {
    const committed = this.loaded();
    if (this.staged.size === 0) return committed;
    const view = new Map(committed);
    for (const [name, skill] of this.staged) {
      if (skill) view.set(name, skill);
      else view.delete(name);
    }
    return view;
  }

  list(): Skill[] {
    return [...this.current().values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  get(name: string): Skill | undefined {
    const staged = this.staged.get(name);
    return staged !== undefined ? (staged ?? undefined) : this.loaded().get(name);
  }

  count(): number {
    try {
      return this.current().size;
    } catch {
      return 0;
    }
  }

  /** Adds or replaces a skill in the open transaction. */
  put(skill: Skill): void {
    this.loaded();
    this.staged.set(skill.name, skill);
  }

  /** Removes a skill in the open transaction; false when there was none of that name. */
  remove(name: string): boolean {
    if (this.get(name) === undefined) return false;
    this.staged.set(name, null);
    return true;
  }

  /**
   * Makes the transaction's staged changes the committed set, durable before it returns. On a
   * failed write they are dropped and the committed set stays as it was (StorageError).
   */
  commit(): void {
    if (this.staged.size === 0) return;
    const next = new Map(this.loaded());
    for (const [name, skill] of this.staged) {
      if (skill) next.set(name, skill);
      else next.delete(name);
    }
    this.staged.clear();
    this.save(next);
  }

  /** Whether the open transaction changed any skill. */
  get hasStaged(): boolean {
    return this.staged.size > 0;
  }

  /** Drops the transaction's staged changes. */
  rollback(): void {
    this.staged.clear();
  }

  private save(next: Map<string, Skill>): void {
    const dir = this.dataDir();
    if (dir !== undefined) {
      const file: SkillsFile = { version: 1, skills: [...next.values()] };
      try {
        writeFileDurably(join(dir, SKILLS_FILE), JSON.stringify(file, null, 2) + '\n');
      } catch (err) {
        throw new StorageError(
          `The skills file cannot be written, so the transaction's skill changes are dropped (its graph changes are committed): ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
          'SkillsFileUnwritable',
        );
      }
    }
    this.skills = next;
  }
}
