/**
 * The skill file format (`SKILL.md`), read by `graphdb skills import <dir>`:
 *
 *   ---
 *   name: colleagues
 *   description: People who work at a company
 *   parameters:
 *     company: STRING -- the company's name
 *     limit: INTEGER? -- at most this many (optional)
 *   ---
 *   Free text for people (ignored by graphdb).
 *
 *   ```cypher
 *   MATCH (p:Person)-[:WORKS_AT]->(:Company {name: $company}) RETURN p.name AS name
 *   ```
 *
 * Front matter holds `name`, `description` and optionally `parameters` (one indented line
 * per parameter: `name: TYPE`, `?` after the type for optional, `-- text` for a
 * description). The query is the first fenced block marked `cypher`, `gql` or `graphdb`
 * (else the first fenced block).
 */

import { ArgumentError } from '../errors.js';

export interface SkillFile {
  name: string;
  description: string;
  query: string;
  /** name → type text (`STRING`, `INTEGER?`) and description. */
  parameters: Map<string, { type: string; description: string }>;
}

function fail(path: string, why: string): ArgumentError {
  return new ArgumentError(`${path}: ${why}`, 'InvalidSkillFile');
}

function unquote(v: string): string {
  const t = v.trim();
  return (t.startsWith('"') && t.endsWith('"')) || (t.startsWith("'") && t.endsWith("'")) ? t.slice(1, -1) : t;
}

export function parseSkillFile(text: string, path: string): SkillFile {
  const lines = text.replace(/^\ufeff/, '').split(/\r?\n/);
  if (lines[0]?.trim() !== '---') throw fail(path, 'a skill file starts with front matter between --- lines');
  const end = lines.indexOf('---', 1);
  if (end < 0) throw fail(path, 'the front matter is not closed by a --- line');
  const fields = new Map<string, string>();
  const parameters = new Map<string, { type: string; description: string }>();
  let inParameters = false;
  for (const line of lines.slice(1, end)) {
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    const indented = /^\s+/.test(line);
    const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*:\s*(.*)$/.exec(line);
    if (!m) throw fail(path, `cannot read the front matter line ${JSON.stringify(line)}`);
    if (indented && inParameters) {
      const [typePart, ...rest] = m[2].split('--');
      parameters.set(m[1], { type: typePart.trim(), description: rest.join('--').trim() });
      continue;
    }
    inParameters = m[1] === 'parameters' && m[2].trim() === '';
    if (!inParameters) fields.set(m[1], unquote(m[2]));
  }
  const name = fields.get('name');
  const description = fields.get('description');
  if (!name) throw fail(path, 'the front matter needs a name');
  if (!description) throw fail(path, 'the front matter needs a description');
  const body = lines.slice(end + 1).join('\n');
  const blocks = [...body.matchAll(/^```[ \t]*([A-Za-z]*)[^\n]*\n([\s\S]*?)^```/gm)];
  const block = blocks.find((b) => ['cypher', 'gql', 'graphdb'].includes(b[1].toLowerCase())) ?? blocks[0];
  if (!block || block[2].trim() === '') throw fail(path, 'no fenced query block (```cypher … ```) after the front matter');
  return { name, description, query: block[2].trim(), parameters };
}
