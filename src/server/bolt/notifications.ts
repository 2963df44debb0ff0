/**
 * The notifications Neo4j puts in a summary where graphdb can tell the same thing, for
 * EXPLAIN and PROFILE (which have the plan at hand): a Cartesian product (a label or all-node
 * scan run again for every row of another: graphdb's plan nests the second scan under the
 * first) and a label or relationship type the database has never had. Each is a map as
 * drivers read it (`summary.notifications`): code, title, description, severity, category
 * and the position in the query of what it is about.
 */

import type { PackValue } from './packstream.js';
import { planLines } from './plan.js';

type Notification = Map<string, PackValue>;

/** The scans that start from nothing: nested under another operator, they repeat per row. */
const INDEPENDENT_SCAN = /^(NodeByLabelScan|AllNodesScan)$/;

function notification(code: string, title: string, description: string, category: string, query: string, offset: number): Notification {
  const before = query.slice(0, Math.max(0, offset));
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return new Map<string, PackValue>([
    ['code', code],
    ['title', title],
    ['description', description],
    ['severity', 'WARNING'],
    ['category', category],
    ['position', new Map<string, PackValue>([['offset', Math.max(0, offset)], ['line', line], ['column', column]])],
  ]);
}

/** Whether the plan scans independently under another operator that is not its start. */
function cartesianScan(planText: string): string | undefined {
  const lines = planLines(planText);
  for (let i = 0; i < lines.length - 1; i++) {
    const here = lines[i];
    const below = lines[i + 1];
    if (INDEPENDENT_SCAN.test(here.name) && below.depth > here.depth && below.name !== 'Start') return here.details;
  }
  return undefined;
}

/** Labels (`:Label` in a node pattern) and relationship types (`[:TYPE]`) a query names, with their offsets. */
function namedTokens(query: string): { labels: [string, number][]; types: [string, number][] } {
  const labels: [string, number][] = [];
  const types: [string, number][] = [];
  // Strings and comments may hold anything: blank them out, keeping offsets.
  const code = query.replace(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (m) => ' '.repeat(m.length));
  for (const m of code.matchAll(/\(\s*(?:[A-Za-z_]\w*)?\s*((?::\s*[A-Za-z_]\w*\s*)+)/g)) {
    const group = m[1];
    const start = (m.index ?? 0) + m[0].length - group.length;
    for (const l of group.matchAll(/:\s*([A-Za-z_]\w*)/g)) labels.push([l[1], start + (l.index ?? 0)]);
  }
  for (const m of code.matchAll(/\[\s*(?:[A-Za-z_]\w*)?\s*:\s*([A-Za-z_]\w*)/g)) types.push([m[1], (m.index ?? 0) + m[0].lastIndexOf(m[1]) - 1]);
  return { labels, types };
}

/** The notifications of `query`, given its plan text and the labels and types the database has. */
export function planNotifications(query: string, planText: string, known: { labels: ReadonlySet<string>; types: ReadonlySet<string> }): Notification[] {
  const out: Notification[] = [];
  const scan = cartesianScan(planText);
  if (scan !== undefined) {
    const at = query.search(/\bMATCH\b/i);
    out.push(notification('Neo.ClientNotification.Statement.CartesianProduct', 'This query builds a cartesian product between disconnected patterns.',
      `If a part of a query contains multiple disconnected patterns, this will build a cartesian product between all those parts. This may produce a large amount of data and slow down query processing. graphdb scans ${scan} again for every row before it; consider connecting the patterns or adding a WITH between them.`, 'PERFORMANCE', query, at));
  }
  // A write may bring its labels and types into being; Neo4j warns of unknown ones where it reads.
  if (/\b(CREATE|MERGE|SET)\b/i.test(query)) return out;
  const { labels, types } = namedTokens(query);
  const seen = new Set<string>();
  for (const [label, at] of labels) {
    if (known.labels.has(label) || seen.has(`l:${label}`)) continue;
    seen.add(`l:${label}`);
    out.push(notification('Neo.ClientNotification.Statement.UnknownLabelWarning', 'The provided label is not in the database.',
      `One of the labels in your query is not available in the database, make sure you didn't misspell it or that the label is available when you run this statement in your application (the missing label name is: ${label})`, 'UNRECOGNIZED', query, at));
  }
  for (const [type, at] of types) {
    if (known.types.has(type) || seen.has(`t:${type}`)) continue;
    seen.add(`t:${type}`);
    out.push(notification('Neo.ClientNotification.Statement.UnknownRelationshipTypeWarning', 'The provided relationship type is not in the database.',
      `One of the relationship types in your query is not available in the database, make sure you didn't misspell it or that the label is available when you run this statement in your application (the missing relationship type is: ${type})`, 'UNRECOGNIZED', query, at));
  }
  return out;
}
