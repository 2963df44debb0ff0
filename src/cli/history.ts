/**
 * The REPL's persistent history: `~/.graphdb_history`, or the file the `GRAPHDB_HISTORY`
 * environment variable names (empty: no history file). One entry per line, oldest first;
 * an entry that spans lines (a multi-line statement) is stored with its line breaks
 * escaped as `\n`. Failing to read or write the file never stops the REPL.
 */

import { readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const HISTORY_SIZE = 1000;

/** The history file to use, or undefined when history is switched off. */
export function historyFile(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const configured = env.GRAPHDB_HISTORY;
  if (configured !== undefined) return configured === '' ? undefined : configured;
  return join(homedir(), '.graphdb_history');
}

function escapeEntry(entry: string): string {
  return entry.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

function unescapeEntry(line: string): string {
  return line.replace(/\\(\\|n)/g, (_, c: string) => (c === 'n' ? '\n' : '\\'));
}

/** Entries newest first, as node:readline keeps them; [] when the file is missing or unreadable. */
export function loadHistory(file: string): string[] {
  try {
    const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '');
    return lines.slice(-HISTORY_SIZE).map(unescapeEntry).reverse();
  } catch {
    return [];
  }
}

/** Writes entries given newest first (readline's order); returns false when the file cannot be written. */
export function saveHistory(file: string, newestFirst: readonly string[]): boolean {
  try {
    const lines = newestFirst.slice(0, HISTORY_SIZE).reverse().map(escapeEntry);
    writeFileSync(file, lines.join('\n') + (lines.length ? '\n' : ''), { mode: 0o600 });
    return true;
  } catch {
    return false;
  }
}
