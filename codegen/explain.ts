/**
 * Renders a physical plan as an indented operator tree for EXPLAIN, `:plan` and
 * `--dump-plan`: one line per operator with its arguments (slots shown with the user's
 * variable names) and the optimizer's row estimate where it made one.
 */

import { planChildren, type PlanOp, type Predicate, type BoundExpr } from '../src/planner/plan.js';

type Names = ReadonlyMap<string, string>;

function name(slot: string, names: Names): string {
  const n = names.get(slot);
  return n === undefined ? slot : `${n}`;
}

function exprText(b: BoundExpr): string {
  return b.expr.kind === 'Var' ? b.expr.name.trim() : b.expr.kind;
}

function predicateText(p: Predicate, names: Names): string {
  switch (p.kind) {
    case 'expr':
      return `expr(${exprText(p.bexpr)})`;
    case 'hasLabels':
      return `${name(p.slot, names)}:${p.labels.join(':')}`;
    case 'labelExpr':
    case 'relType':
      return `${name(p.slot, names)} matches label expression`;
    case 'propMap':
      return `${name(p.slot, names)} {properties}`;
    case 'relsDistinct':
      return `${name(p.a, names)} <> ${name(p.b, names)}`;
    case 'relsAllDistinct':
      return `all distinct (${p.slots.length} relationships)`;
    case 'isNode':
      return `${name(p.slot, names)} is a node`;
    case 'pathMode':
      return `${name(p.slot, names)} is ${p.mode}`;
  }
}

/** `filter inside the search, estimated selectivity 0.010 from …; <how the procedure applies it>`. */
function rowFilterText(f: { selectivity: number; basis: string[]; strategy?: string }): string {
  const from = f.basis.length > 0 ? ` from ${f.basis.join(' and ')}` : ' (fixed guess)';
  return `filter inside the search, estimated selectivity ${f.selectivity.toPrecision(2)}${from}${f.strategy ? `; ${f.strategy}` : ''}`;
}

function describe(op: PlanOp, names: Names): string {
  const n = (s: string) => name(s, names);
  switch (op.op) {
    case 'Start':
    case 'Argument':
      return op.op;
    case 'NodeScan':
      return op.label !== undefined
        ? `NodeByLabelScan ${n(op.slot)}:${op.label}  ~${Math.round(op.estimate)} rows`
        : `AllNodesScan ${n(op.slot)}  ~${Math.round(op.estimate)} rows`;
    case 'NodeById':
      return `NodeByIdSeek ${n(op.slot)}`;
    case 'NodeIndexSeek':
      return `NodeIndexSeek${op.equals ? '' : 'ByRange'} ${n(op.slot)}:${op.label}(${op.key})  ~${Math.round(op.estimate)} rows`;
    case 'Expand':
      return `Expand${op.into ? 'Into' : 'All'} (${n(op.from)})${op.direction === 'in' ? '<-' : '-'}[${n(op.rel)}${op.types.length ? ':' + op.types.join('|') : ''}]${op.direction === 'out' ? '->' : '-'}(${n(op.to)})  ~${op.estimate.toFixed(2)} per row`;
    case 'VarExpand':
      return `VarLengthExpand${op.distinctEnds ? '(Pruning)' : ''}${op.into ? 'Into' : ''} (${n(op.from)})-[${n(op.rel)}${op.types.length ? ':' + op.types.join('|') : ''}*${op.min}..${Number.isFinite(op.max) ? op.max : ''}]-(${n(op.to)})`;
    case 'GroupExpand':
      return `QuantifiedGroup${op.into ? 'Into' : ''} (${n(op.from)})((…)){${op.min},${Number.isFinite(op.max) ? op.max : ''}}(${n(op.to)})`;
    case 'ShortestPath':
      return `${op.k !== undefined ? `Shortest${op.k}` : ''}${op.all ? 'AllShortestPaths' : 'ShortestPath'} (${n(op.from)})-[${n(op.rel)}]-(${n(op.to)}) AS ${n(op.path)}`;
    case 'Filter':
      return `Filter ${op.predicates.map((p) => predicateText(p, names)).join(' AND ')}`;
    case 'Optional':
      return `Optional (nulls: ${op.nullSlots.map(n).join(', ')})`;
    case 'Unwind':
      return `Unwind AS ${n(op.slot)}`;
    case 'LoadCsv':
      return `LoadCSV${op.withHeaders ? ' WITH HEADERS' : ''} AS ${n(op.slot)}`;
    case 'Project':
      return `Projection ${op.items.map((i) => n(i.slot)).join(', ')}`;
    case 'BuildPath':
      return `BuildPath ${n(op.slot)}`;
    case 'Aggregate':
      return `Aggregation keys: [${op.groups.map((g) => n(g.slot)).join(', ')}] aggregates: [${op.aggregates.map((a) => `${a.name}${a.distinct ? ' DISTINCT' : ''}`).join(', ')}]`;
    case 'Distinct':
      return `Distinct ${op.slots.map(n).join(', ')}`;
    case 'Sort':
      return `Sort ${op.keys.map((k) => `${exprText(k.bexpr)}${k.descending ? ' DESC' : ''}`).join(', ')}`;
    case 'Skip':
      return 'Skip';
    case 'Limit':
      return 'Limit';
    case 'Eager':
      return 'Eager';
    case 'Create':
      return `Create ${op.elements.map((e) => n(e.slot)).join(', ')}`;
    case 'Merge':
      return `Merge ${op.slots.map(n).join(', ')}`;
    case 'SetItems':
      return `SetProperties (${op.items.length} items)`;
    case 'Remove':
      return `Remove (${op.items.length} items)`;
    case 'Delete':
      return op.detach ? 'DetachDelete' : 'Delete';
    case 'ProcedureCall':
      return op.rowFilter ? `ProcedureCall ${op.procedure.name} (${rowFilterText(op.rowFilter)})` : `ProcedureCall ${op.procedure.name}`;
    case 'Produce':
      return `ProduceResults ${op.columns.map((c) => c.name).join(', ')}`;
    case 'Discard':
      return 'EmptyResult';
    case 'Union':
      return op.all ? 'UnionAll' : 'Union';
    case 'SubqueryApply':
      return `${op.optional ? 'Optional' : ''}SubqueryApply${op.unit ? ' (unit)' : ''}`;
    case 'NestedUnion':
      return op.all ? 'UnionAll' : 'Union';
    case 'Foreach':
      return `Foreach ${n(op.slot)}`;
  }
}

/** The plan as a tree; `rowsOf` (PROFILE) adds the rows each operator produced. */
export function explainPlan(root: PlanOp, names: Names, rowsOf?: (op: PlanOp) => number | undefined): string {
  const lines: string[] = [];
  const walk = (op: PlanOp, indent: string, last: boolean, top: boolean) => {
    const rows = rowsOf?.(op);
    lines.push(`${top ? '' : indent + (last ? '└─ ' : '├─ ')}${describe(op, names)}${rows !== undefined ? `  [rows: ${rows}]` : ''}`);
    const kids = planChildren(op);
    const next = top ? '' : indent + (last ? '   ' : '│  ');
    kids.forEach((k, i) => walk(k, next, i === kids.length - 1, false));
  };
  walk(root, '', true, true);
  return lines.join('\n');
}
