/**
 * Reading the TCK's feature files: finds every `.feature` under a directory, parses the
 * Gherkin with `@cucumber/gherkin` and compiles it to pickles (which expands each Scenario
 * Outline over every Examples row, substituting `<placeholders>` in step text, doc strings
 * and tables). Each pickle becomes a `TckScenario` carrying plain steps the runner interprets.
 */

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { AstBuilder, GherkinClassicTokenMatcher, Parser, compile } from '@cucumber/gherkin';
import { IdGenerator } from '@cucumber/messages';

export interface TckStep {
  /** Step text without its keyword, trimmed (e.g. `executing query:`). */
  text: string;
  /** The doc string argument, if any. */
  docString?: string;
  /** The data table argument, if any: rows of cell texts (Gherkin escapes already undone). */
  table?: string[][];
}

export interface TckScenario {
  /** Feature file path relative to the features dir, with `/` separators (`clauses/match/Match1.feature`). */
  file: string;
  /** Folder of the feature relative to the features dir (`clauses/match`). */
  folder: string;
  /** The feature's title. */
  feature: string;
  /** Scenario name; outline rows get ` [example N]` appended (1-based within the outline). */
  name: string;
  /** Line of the scenario (or of the Examples row) in the feature file. */
  line: number;
  steps: TckStep[];
}

/** All `.feature` files below `dir`, sorted, as absolute paths. */
export function findFeatureFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const entry of readdirSync(d).sort()) {
      const p = join(d, entry);
      if (statSync(p).isDirectory()) walk(p);
      else if (entry.endsWith('.feature')) out.push(p);
    }
  };
  walk(dir);
  return out;
}

/** Parses one feature's text into scenarios; `file` is its path relative to the features dir. */
export function parseFeature(text: string, file: string): TckScenario[] {
  const newId = IdGenerator.incrementing();
  const parser = new Parser(new AstBuilder(newId), new GherkinClassicTokenMatcher());
  const doc = parser.parse(text);
  const pickles = compile(doc, file, newId);
  const feature = doc.feature?.name ?? file;
  const slash = file.lastIndexOf('/');
  const folder = slash >= 0 ? file.slice(0, slash) : '.';
  const exampleCounts = new Map<string, number>();
  return pickles.map((p) => {
    let name = p.name;
    if (p.astNodeIds.length > 1) {
      // An outline row: the first id is the scenario, the second the Examples row.
      const scenarioId = p.astNodeIds[0]!;
      const n = (exampleCounts.get(scenarioId) ?? 0) + 1;
      exampleCounts.set(scenarioId, n);
      name = `${name} [example ${n}]`;
    }
    return {
      file,
      folder,
      feature,
      name,
      line: p.location?.line ?? 0,
      steps: p.steps.map((s) => ({
        text: s.text.trim(),
        docString: s.argument?.docString?.content,
        table: s.argument?.dataTable?.rows.map((r) => r.cells.map((c) => c.value)),
      })),
    };
  });
}

/** Loads every scenario of every feature below `dir`. */
export function loadScenarios(dir: string): TckScenario[] {
  const all: TckScenario[] = [];
  for (const path of findFeatureFiles(dir)) {
    const file = relative(dir, path).split(sep).join('/');
    all.push(...parseFeature(readFileSync(path, 'utf8'), file));
  }
  return all;
}
