/**
 * Reads the openCypher TCK feature files and lists every query they run: the docstrings
 * of `When executing query:` and `And having executed:` steps, with Scenario Outline
 * placeholders already substituted (through Gherkin's pickle compiler). Used by the
 * parser conformance test; the TCK files are read in place, never copied.
 */

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AstBuilder, GherkinClassicTokenMatcher, Parser, compile } from '@cucumber/gherkin';
import { IdGenerator } from '@cucumber/messages';

export interface TckQuery {
  /** Feature file path relative to the features folder. */
  file: string;
  scenario: string;
  query: string;
  /** `setup` for `having executed:`, `main` for `executing query:`. */
  role: 'setup' | 'main';
  /** The detail code when the scenario expects a SyntaxError at compile time (main query only). */
  expectsSyntaxError?: string;
}

/** The TCK features folder: `$GRAPHDB_TCK_DIR` or `../shared/tck/features` beside the repo. */
export function tckFeaturesDir(): string | undefined {
  const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
  const candidates = [process.env.GRAPHDB_TCK_DIR, resolve(repoRoot, '..', 'shared', 'tck', 'features')];
  for (const c of candidates) {
    if (!c) continue;
    const dir = existsSync(join(c, 'features')) ? join(c, 'features') : c;
    if (existsSync(dir) && statSync(dir).isDirectory()) return dir;
  }
  return undefined;
}

function featureFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...featureFiles(p));
    else if (entry.name.endsWith('.feature')) out.push(p);
  }
  return out.sort();
}

export function loadTckQueries(dir: string): TckQuery[] {
  const result: TckQuery[] = [];
  const newId = IdGenerator.incrementing();
  for (const path of featureFiles(dir)) {
    const file = relative(dir, path);
    const parser = new Parser(new AstBuilder(newId), new GherkinClassicTokenMatcher());
    const doc = parser.parse(readFileSync(path, 'utf8'));
    const pickles = compile(doc, file, newId);
    for (const pickle of pickles) {
      let expects: string | undefined;
      for (const step of pickle.steps) {
        const m = /^a SyntaxError should be raised at compile time: (\w+)/.exec(step.text);
        if (m) expects = m[1];
      }
      for (const step of pickle.steps) {
        const doc = step.argument?.docString?.content;
        if (doc === undefined) continue;
        if (step.text.startsWith('executing query')) {
          result.push({ file, scenario: pickle.name, query: doc, role: 'main', expectsSyntaxError: expects });
        } else if (step.text.startsWith('having executed')) {
          result.push({ file, scenario: pickle.name, query: doc, role: 'setup' });
        }
      }
    }
  }
  return result;
}
