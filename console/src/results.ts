/**
 * The result views that are plain DOM, but for the table (table.ts): cells as Cypher-like
 * text, CSV, the JSON view, the plan tree, and the write counters line.
 */

import type { Cell, QueryAnswer, QueryStats } from './api.js';
import type { Plan, PlanNode } from './plan.js';

function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, cls?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls !== undefined) e.className = cls;
  return e;
}

function isObject(c: Cell): c is { [key: string]: Cell } {
  return typeof c === 'object' && c !== null && !Array.isArray(c);
}

function propsText(p: Cell): string {
  if (!isObject(p)) return '';
  const parts = Object.entries(p).map(([k, v]) => `${k}: ${cellText(v)}`);
  return parts.length === 0 ? '' : ` {${parts.join(', ')}}`;
}

/** A cell as Cypher-like text: `(:Label {k: v})` for a node, `[:TYPE]` for a relationship. */
export function cellText(c: Cell): string {
  if (c === null) return 'null';
  if (typeof c === 'string') return JSON.stringify(c);
  if (typeof c !== 'object') return String(c);
  if (Array.isArray(c)) return '[' + c.map(cellText).join(', ') + ']';
  if (typeof c.id === 'number' && Array.isArray(c.labels)) return `(${(c.labels as string[]).map((l) => ':' + l).join('')}${propsText(c.properties)})`;
  if (typeof c.id === 'number' && typeof c.type === 'string') return `[:${c.type}${propsText(c.properties)}]`;
  if (Array.isArray(c.nodes) && Array.isArray(c.relationships)) {
    const nodes = c.nodes as Cell[];
    const rels = c.relationships as Cell[];
    return nodes.map((n, i) => cellText(n) + (i < rels.length ? '-' + cellText(rels[i]) + '-' : '')).join('');
  }
  return '{' + Object.entries(c).map(([k, v]) => `${k}: ${cellText(v)}`).join(', ') + '}';
}

/** The answer as CSV (RFC 4180 quoting), each cell as the table shows it but strings unquoted. */
export function answerCsv(answer: QueryAnswer): string {
  const field = (c: Cell): string => {
    const text = typeof c === 'string' ? c : c === null ? '' : cellText(c);
    return /[",\r\n]/.test(text) ? '"' + text.replace(/"/g, '""') + '"' : text;
  };
  return [answer.columns.map((c) => field(c)), ...answer.rows.map((r) => r.map(field))].map((r) => r.join(',')).join('\r\n') + '\r\n';
}

export function renderJson(target: HTMLElement, answer: QueryAnswer): void {
  target.textContent = JSON.stringify(answer, null, 2);
}

function planItem(n: PlanNode): HTMLLIElement {
  const li = el('li');
  li.append(el('span', n.operator, 'plan-op'));
  if (n.detail !== '') li.append(' ', el('span', n.detail, 'plan-detail'));
  if (n.rows !== undefined) li.append(el('span', `${n.rows} rows`, 'plan-rows'));
  if (n.children.length > 0) {
    const ul = el('ul');
    for (const c of n.children) ul.append(planItem(c));
    li.append(ul);
  }
  return li;
}

export function renderPlan(target: HTMLElement, plan: Plan | undefined): void {
  target.replaceChildren();
  if (plan === undefined) {
    target.append(el('p', 'Run a query with EXPLAIN or PROFILE in front to see its plan.', 'muted'));
    return;
  }
  const tree = el('ul', undefined, 'plan-tree');
  tree.append(planItem(plan.root));
  target.append(tree);
  for (const line of plan.footer) target.append(el('p', line, 'plan-footer'));
}

const COUNTERS: [keyof QueryStats, string, string][] = [
  ['nodesCreated', 'node created', 'nodes created'],
  ['nodesDeleted', 'node deleted', 'nodes deleted'],
  ['relationshipsCreated', 'relationship created', 'relationships created'],
  ['relationshipsDeleted', 'relationship deleted', 'relationships deleted'],
  ['labelsAdded', 'label added', 'labels added'],
  ['labelsRemoved', 'label removed', 'labels removed'],
  ['propertiesSet', 'property set', 'properties set'],
];

/** The write counters that are not zero, as text ("2 nodes created, 1 property set"). */
export function countersText(stats: QueryStats): string {
  return COUNTERS.filter(([k]) => Number(stats[k]) > 0)
    .map(([k, one, many]) => `${stats[k]} ${Number(stats[k]) === 1 ? one : many}`)
    .join(', ');
}
