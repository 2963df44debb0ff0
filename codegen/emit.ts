/**
 * Lowers a physical plan to the source of one JavaScript function, in the data-centric
 * produce/consume style: each operator's `produce` emits the loops that make its rows and
 * splices its parent's `consume` code inside them, so a pipeline of scans, expansions and
 * filters becomes nested `for` loops over the store's arrays. Pipeline breakers (sort,
 * aggregation, distinct, eager) materialise into local buffers. Every loop decrements a
 * budget and calls `rt.tick(ctx)` when it runs out, which enforces the query deadline.
 *
 * The generated function has the signature `(rt, g, C, P, ctx) => Value[][]`: runtime,
 * graph, constants table, parameters (Map), execution context.
 */

import type { Expr } from '../src/frontend/ast.js';
import { planChildren, type BoundExpr, type CreateElement, type PlanOp, type Predicate, type Scope, type BoundSetItem, type BoundRemoveItem } from '../src/planner/plan.js';
import { ExprCompiler, type EmitContext } from './expr.js';
import type { Planner } from '../src/planner/planner.js';
import { simpleLabels } from '../src/planner/planner.js';
import { lookupAggregate } from '../functions/aggregates.js';
import { QuerySemanticError } from '../src/errors.js';
import { relSlotsHeldAsIds, slotsMentioned } from './slot-usage.js';
import { rangePredicates, topKColumn } from './scan-selection.js';
import { INT, NUMBER } from '../src/store/columns/property-column.js';

type Consume = () => string;
type EntityKind = 'node' | 'rel';

const TICK = 'if (--ctx.budget < 0) rt.tick(ctx);';

/** A droppable entity binding as `Emitter.bind` marks it (slot, then the statement). */
const MARKED_BINDING = /\/\*bind:(v\d+)\*\/(.*?)\/\*end-bind\*\//g;
/** A slot local in generated source. */
const SLOT_NAME = /\bv\d+\b/g;

export class Emitter implements EmitContext {
  readonly constants: unknown[] = [];
  private readonly constantIndex = new Map<unknown, number>();
  private readonly slots = new Set<string>();
  private readonly temps: string[] = [];
  private readonly prologue: string[] = [];
  private counter = 0;
  private readonly exprs: ExprCompiler;

  constructor(private readonly planner: Planner) {
    this.exprs = new ExprCompiler(this);
  }

  /** Relationship slots that hold bare ids (see slot-usage.ts); set per root plan. */
  private relIdSlots: ReadonlySet<string> = new Set();

  /**
   * Node and relationship slots whose id sits in a local, while the code being emitted is
   * inside the loop that bound them (read-only queries only: nothing can delete the entity or
   * move its properties). Property reads (and, for nodes, label checks) on such a slot go to
   * the columns by id and never load the entity object.
   */
  private readonly knownIds = new Map<string, { id: string; kind: EntityKind }>();

  private nodeIdOf(slot: string): string | undefined {
    const known = this.knownIds.get(slot);
    return known?.kind === 'node' ? known.id : undefined;
  }

  /**
   * A read of property `key` of the entity in `slot` by its id, when a loop holds the id:
   * `rt.valueAt(column, id)` with the key's column resolved once in the prologue.
   */
  propertyById(slot: string, key: string): string | undefined {
    const known = this.knownIds.get(slot);
    if (known === undefined) return undefined;
    const store = known.kind === 'node' ? 'nodeProps' : 'relProps';
    const column = this.columnLocal(store, key);
    // Integers in an INT column and plain numbers in a NUMBER column are read inline (the
    // kinds of codegen-facing PropertyColumn fields); everything else through rt.valueAt.
    const c = column;
    const id = known.id;
    const present = `${id} < ${c}.capacity && (${c}.present[${id} >>> 5] & (1 << (${id} & 31))) !== 0`;
    const untagged = `(${c}.bits[${id} >>> 5] & (1 << (${id} & 31))) === 0`;
    return `(${c} === undefined ? null : ${c}.kind === ${INT} && ${present} ? ${c}.ints[${id}] : ${c}.kind === ${NUMBER} && ${present} && ${untagged} ? ${c}.nums[${id}] : rt.valueAt(${c}, ${id}))`;
  }

  /** A prologue local holding the column of `key` in `store` (undefined when no entity ever held the key). */
  private columnLocal(store: 'nodeProps' | 'relProps', key: string): string {
    return this.prologueLocal(`${store}:${key}`, 'col', () => `g.${store}.column(${this.constant(key)})`);
  }

  /**
   * Label scans whose loop visits only the ids a column kernel picks out of the label's set
   * (`select` gets the set's local and returns the kernel call), registered by the operator
   * above the scan while it emits its input. Read-only queries only, and not in PROFILE
   * builds (the scan's own row count would change).
   */
  private readonly scanSelections = new Map<PlanOp, (set: string) => string>();

  private canSelect(op: PlanOp): op is Extract<PlanOp, { op: 'NodeScan' }> {
    return op.op === 'NodeScan' && op.label !== undefined && !this.planner.mutates && !this.profiling && !this.scanSelections.has(op);
  }

  private withSelection(scan: PlanOp, select: (set: string) => string, produce: () => string): string {
    this.scanSelections.set(scan, select);
    try {
      return produce();
    } finally {
      this.scanSelections.delete(scan);
    }
  }

  /** `consume()` emitted with `slot`'s id known to be in local `id`. */
  private withKnownId(slot: string, id: string, kind: EntityKind, consume: Consume): string {
    if (this.planner.mutates || this.knownIds.has(slot)) return consume();
    this.knownIds.set(slot, { id, kind });
    try {
      return consume();
    } finally {
      this.knownIds.delete(slot);
    }
  }

  /**
   * `slot = g.nodeAt(id);` (or `relAt`), marked so that `emitFunction` can drop it when
   * nothing else in the function mentions the slot: then every read of the entity went to
   * the columns by id, and its object is never loaded (or, for a bulk-loaded one, never made).
   */
  private bind(slot: string, id: string, kind: EntityKind): string {
    const s = this.slot(slot);
    const binding = `${s} = g.${kind === 'node' ? 'nodeAt' : 'relAt'}(${id});`;
    if (this.planner.mutates) return binding;
    return `/*bind:${s}*/${binding}/*end-bind*/`;
  }

  /**
   * `body` with the marked bindings of slots nothing else reads removed and the other marks
   * stripped. A binding mentions no slot but its own, so one scan of the body without any
   * binding finds every slot still read.
   */
  private dropUnreadBindings(body: string): { body: string; unread: Set<string> } {
    const read = new Set(body.replace(MARKED_BINDING, '').match(SLOT_NAME) ?? []);
    const unread = new Set<string>();
    const kept = body.replace(MARKED_BINDING, (_, slot: string, binding: string) => {
      if (read.has(slot)) return binding;
      unread.add(slot);
      return '';
    });
    return { body: kept, unread };
  }

  /** A prologue local holding the id set of `label` (undefined when no node ever had it). */
  private labelSetLocal(label: string): string {
    return this.prologueLocal(`label:${label}`, 'L', () => `g.labelSet(${this.constant(label)})`);
  }

  private readonly prologueLocals = new Map<string, string>();

  /** A local the prologue sets once per execution to `init()`, shared by every use under `key`. */
  private prologueLocal(key: string, prefix: string, init: () => string): string {
    let name = this.prologueLocals.get(key);
    if (name === undefined) {
      name = this.id(prefix);
      this.prologueLocals.set(key, name);
      this.prologue.push(`const ${name} = ${init()};`);
    }
    return name;
  }

  // ---------------------------------------------------------------- EmitContext

  /** One `rt.propertyRef` per key and execution, made in the prologue; reads go through it to the key's column. */
  propertyRef(key: string): string {
    return this.prologueLocal(`ref:${key}`, 'pk', () => `rt.propertyRef(${this.constant(key)})`);
  }

  constant(value: unknown): string {
    // Strings and numbers are shared; objects are registered once each.
    let i = this.constantIndex.get(value);
    if (i === undefined) {
      i = this.constants.length;
      this.constants.push(value);
      this.constantIndex.set(value, i);
    }
    return `C[${i}]`;
  }

  temp(): string {
    const t = `t${this.counter++}`;
    this.temps.push(t);
    return t;
  }

  local(): string {
    return `l${this.counter++}`;
  }

  /** Names of the parameters the query reads. */
  readonly params = new Set<string>();

  /** Parameters are read once per execution, in the prologue, not once per row. */
  useParam(name: string): string {
    this.params.add(name);
    return this.prologueLocal(`param:${name}`, 'prm', () => `rt.param(P, ${this.constant(name)})`);
  }

  private id(prefix: string): string {
    return `${prefix}${this.counter++}`;
  }

  subquery(e: Expr, scope: Scope, compile: (e: Expr, scope: Scope) => string): string {
    this.nested++;
    try {
      return this.subqueryPlan(e, scope, compile);
    } finally {
      this.nested--;
    }
  }

  private subqueryPlan(e: Expr, scope: Scope, compile: (e: Expr, scope: Scope) => string): string {
    switch (e.kind) {
      case 'PatternPredicate':
        return this.exists(this.planner.planPatterns([e.pattern], undefined, { op: 'Argument' }, scope).op);
      case 'PatternComprehension': {
        const plan = this.planner.planPatterns([e.pattern], e.where, { op: 'Argument' }, scope);
        const acc = this.id('acc');
        const proj = compile(e.projection, plan.scope);
        return `(() => { const ${acc} = []; ${this.produce(plan.op, () => `${acc}.push(${proj});`)} return ${acc}; })()`;
      }
      case 'ExistsSubquery':
      case 'CountSubquery': {
        let op: PlanOp;
        if (e.patterns) {
          op = this.planner.planPatterns(e.patterns, e.where, { op: 'Argument' }, scope).op;
        } else if (e.query) {
          op = this.planner.planExpressionSubquery(e.query, scope, e.pos).root;
        } else {
          return 'false';
        }
        if (e.kind === 'ExistsSubquery') return this.exists(op);
        const n = this.id('cnt');
        return `(() => { let ${n} = 0; ${this.produce(op, () => `${n}++;`)} return ${n}; })()`;
      }
      case 'CollectSubquery': {
        const r = this.planner.planExpressionSubquery(e.query, scope, e.pos);
        if (r.columns.length !== 1) {
          throw new QuerySemanticError('A COLLECT subquery must return exactly one column', 'InvalidSubqueryReturn', e.pos);
        }
        const acc = this.id('acc');
        const slot = this.slot(r.slots[0]);
        return `(() => { const ${acc} = []; ${this.produce(r.root, () => `${acc}.push(${slot});`)} return ${acc}; })()`;
      }
      default:
        return compile(e, scope);
    }
  }

  /**
   * Whether `op` produces at least one row, stopping at the first. `return` leaves the
   * function early, except from a consumer that an operator runs in a local closure
   * (OPTIONAL MATCH, MERGE, UNION): then a per-use sentinel is thrown and caught instead.
   */
  private exists(op: PlanOp): string {
    if (!runsConsumerInClosure(op)) return `(() => { ${this.produce(op, () => 'return true;')} return false; })()`;
    const stop = this.constant({ stop: this.counter++ });
    const found = this.id('found');
    return [
      `(() => { let ${found} = false; try {`,
      this.produce(op, () => `${found} = true; throw ${stop};`),
      `} catch (e) { if (e !== ${stop}) throw e; } return ${found}; })()`,
    ].join('\n');
  }

  // ---------------------------------------------------------------- entry

  /** The full function body for a plan. */
  emitFunction(root: PlanOp): string {
    this.relIdSlots = relSlotsHeldAsIds(root);
    this.root = root;
    const { body, unread } = this.dropUnreadBindings(this.produce(root, () => ''));
    const slots = [...this.slots].filter((s) => !unread.has(s));
    const decls: string[] = [];
    if (slots.length) decls.push(`let ${slots.map((s) => `${s} = null`).join(', ')};`);
    if (this.temps.length) decls.push(`let ${this.temps.join(', ')};`);
    return ['"use strict";', 'const out = ctx.resultBuffer();', ...decls, ...this.prologue, body, 'return out;'].join('\n');
  }

  private expr(b: BoundExpr): string {
    for (const slot of b.scope.values()) this.slots.add(slot);
    return this.exprs.compile(b.expr, b.scope);
  }

  private slot(s: string): string {
    this.slots.add(s);
    return s;
  }

  /**
   * A local holding the ids of relationship types. Read-only queries resolve them once in
   * the prologue; a writing query may create a type mid-way, so it resolves them where the
   * expansion runs.
   */
  private typeIds(types: string[]): string {
    const name = this.id('T');
    if (this.planner.mutates) {
      this.temps.push(name);
      this.deferredTypeIds.push(`${name} = rt.typeIds(g, ${this.constant(types)});`);
    } else {
      this.prologue.push(`const ${name} = rt.typeIds(g, ${this.constant(types)});`);
    }
    return name;
  }

  private readonly deferredTypeIds: string[] = [];

  /** Type-id resolutions registered while emitting the current operator, to place at its start. */
  private takeDeferred(): string {
    return this.deferredTypeIds.splice(0).join(' ');
  }

  // ---------------------------------------------------------------- operators

  /** Operators in the order they were first emitted; with profiling, `ctx.rows[i]` counts operator i's rows. */
  readonly profiledOps: PlanOp[] = [];
  profiling = false;

  /** The operators whose emission is in progress, root first (the current one last). */
  private readonly path: PlanOp[] = [];
  private root: PlanOp | undefined;
  /** Depth of subquery expressions being emitted: their plans feed code that is not an operator. */
  private nested = 0;

  produce(op: PlanOp, consume: Consume): string {
    this.path.push(op);
    try {
      return this.produceTracked(op, consume);
    } finally {
      this.path.pop();
    }
  }

  /**
   * The slots of `carry` that operators downstream of the current one can read: what a
   * pipeline breaker must keep per row. Only for the main plan (a subquery's plan feeds code
   * that is not an operator, so every carried slot is kept there).
   */
  private carriedSlotsRead(carry: string[]): string[] {
    if (this.nested > 0 || this.path[0] !== this.root) return carry;
    const read = new Set<string>();
    for (let k = this.path.length - 2; k >= 0; k--) for (const slot of slotsMentioned(this.path[k], this.path[k + 1])) read.add(slot);
    return carry.filter((slot) => read.has(slot));
  }

  private produceTracked(op: PlanOp, consume: Consume): string {
    if (this.profiling && op.op !== 'Start' && op.op !== 'Argument') {
      let k = this.profiledOps.indexOf(op);
      if (k < 0) k = this.profiledOps.push(op) - 1;
      const inner = consume;
      consume = () => `ctx.rows[${k}]++;\n${inner()}`;
    }
    return this.produceOp(op, consume);
  }

  private produceOp(op: PlanOp, consume: Consume): string {
    switch (op.op) {
      case 'Start':
      case 'Argument':
        return consume();

      case 'NodeScan': {
        const s = this.slot(op.slot);
        const i = this.id('i');
        const n = this.id('n');
        if (op.label !== undefined) {
          const nid = this.id('nid');
          const set = this.id('set');
          const ids = this.id('ids');
          // A column kernel may narrow the ids the loop visits, block by block (see scanSelections).
          const select = this.scanSelections.get(op);
          const run = select === undefined ? set : this.id('run');
          return this.produce(op.input, () =>
            [
              `{ const ${set} = g.labelSet(${this.constant(op.label)});`,
              select === undefined
                ? `if (${set} !== undefined) { { const ${ids} = ${set}.ids;`
                : `if (${set} !== undefined) { const ${run} = ${select(set)}; while (${run}.next()) { const ${ids} = ${run}.ids;`,
              `for (let ${i} = 0, ${n} = ${run}.length; ${i} < ${n}; ${i}++) { ${TICK}`,
              `const ${nid} = ${ids}[${i}]; ${this.bind(op.slot, nid, 'node')}`,
              this.withKnownId(op.slot, nid, 'node', consume),
              '} } } }',
            ].join('\n'),
          );
        }
        return this.produce(op.input, () =>
          [
            `{ for (let ${i} = 0, ${n} = g.nodes.length; ${i} < ${n}; ${i}++) { ${TICK}`,
            this.planner.mutates
              ? `${s} = g.nodeAt(${i}); if (${s} === undefined || ${s}.deleted) continue;`
              : `if (!g.hasLiveNode(${i})) continue; ${this.bind(op.slot, i, 'node')}`,
            this.withKnownId(op.slot, i, 'node', consume),
            '} }',
          ].join('\n'),
        );
      }

      case 'NodeById': {
        const s = this.slot(op.slot);
        return this.produce(op.input, () => `${s} = rt.nodeById(g, ${this.expr(op.id)});\nif (${s} !== null) {\n${consume()}\n}`);
      }

      case 'NodeIndexSeek': {
        const s = this.slot(op.slot);
        const ids = this.id('ids');
        const nid = this.id('nid');
        const i = this.id('i');
        const index = `ctx.schema.index(${this.constant(op.label)}, ${this.constant(op.key)})`;
        const lookup = op.equals
          ? `rt.indexSeek(${index}, ${this.expr(op.equals)})`
          : `rt.indexRange(${index}, ${op.lower ? this.expr(op.lower.bexpr) : 'null'}, ${op.lower?.inclusive ?? false}, ${op.upper ? this.expr(op.upper.bexpr) : 'null'}, ${op.upper?.inclusive ?? false})`;
        return this.produce(op.input, () =>
          [
            `{ const ${ids} = ${lookup};`,
            `for (let ${i} = 0; ${i} < ${ids}.length; ${i}++) { ${TICK}`,
            this.planner.mutates
              ? `${s} = g.nodeAt(${ids}[${i}]); if (${s} === undefined || ${s}.deleted) continue;`
              : `const ${nid} = ${ids}[${i}]; if (!g.hasLiveNode(${nid})) continue; ${this.bind(op.slot, nid, 'node')}`,
            this.withKnownId(op.slot, nid, 'node', consume),
            '} }',
          ].join('\n'),
        );
      }

      case 'Expand':
        return this.produce(op.input, () => {
          // Resolve this expansion's type ids before its consumer registers its own.
          const types = op.types.length ? this.typeIds(op.types) : undefined;
          const resolve = this.takeDeferred();
          return `${resolve}\n${this.expand(op, consume, types)}`;
        });

      case 'VarExpand': {
        if (op.walk && !Number.isFinite(op.max)) {
          throw new QuerySemanticError('A WALK with an unbounded length has infinitely many matches; give the pattern an upper bound', 'UnboundedWalk');
        }
        const from = this.slot(op.from);
        const rel = this.slot(op.rel);
        const to = this.slot(op.to);
        const types = op.types.length ? this.typeIds(op.types) : 'null';
        const resolve = this.takeDeferred();
        const p = this.id('p');
        const list = this.id('paths');
        const max = Number.isFinite(op.max) ? String(op.max) : 'Infinity';
        if (op.distinctEnds) {
          const end = this.id('end');
          return this.produce(op.input, () =>
            [
              resolve,
              `if (${from} !== null) { for (const ${end} of rt.distinctEnds(g, ctx, ${from}, ${types}, ${this.constant(op.direction)}, ${op.min}, ${max})) {`,
              op.into ? `if (${end} !== ${to}) continue;` : `${to} = ${end};`,
              `${rel} = null;`,
              consume(),
              '} }',
            ].join('\n'),
          );
        }
        return this.produce(op.input, () =>
          [
            resolve,
            `if (${from} !== null) { const ${list} = rt.varExpand(g, ctx, ${from}, ${types}, ${this.constant(op.direction)}, ${op.min}, ${max}${op.walk ? ', true' : ''});`,
            `for (const ${p} of ${list}) {`,
            op.into ? `if (${p}.end !== ${to}) continue;` : `${to} = ${p}.end;`,
            `${rel} = ${op.reversed ? `${p}.rels.slice().reverse()` : `${p}.rels`};`,
            consume(),
            '} }',
          ].join('\n'),
        );
      }

      case 'GroupExpand': {
        const step = this.id('step');
        const res = this.id('res');
        const m = this.id('m');
        const node = this.id('node');
        const from = this.slot(op.from);
        const to = this.slot(op.to);
        const row = `[${this.slot(op.innerEnd)}, [${op.innerRels.map((r) => this.slot(r)).join(', ')}], [${op.groupVars.map((v) => this.slot(v.inner)).join(', ')}]]`;
        const max = Number.isFinite(op.max) ? String(op.max) : 'Infinity';
        return this.produce(op.input, () =>
          [
            `if (${from} !== null) {`,
            `const ${step} = (${node}) => { ${this.slot(op.innerStart)} = ${node}; const ${res} = [];`,
            this.produce(op.inner, () => `${res}.push(${row});`),
            `return ${res}; };`,
            `for (const ${m} of rt.repeatGroup(ctx, ${from}, ${op.min}, ${max}, ${op.groupVars.length}, ${step})) {`,
            op.into ? `if (${m}.end !== ${to}) continue;` : `${to} = ${m}.end;`,
            `${this.slot(op.rels)} = ${m}.rels;`,
            ...op.groupVars.map((v, j) => `${this.slot(v.outer)} = ${m}.vars[${j}];`),
            consume(),
            '} }',
          ].join('\n'),
        );
      }

      case 'ShortestPath': {
        const types = op.types.length ? this.typeIds(op.types) : 'null';
        const resolve = this.takeDeferred();
        const p = this.id('sp');
        const max = Number.isFinite(op.max) ? String(op.max) : 'Infinity';
        const search =
          op.k !== undefined
            ? `rt.kShortestPaths(g, ctx, ${this.slot(op.from)}, ${this.slot(op.to)}, ${types}, ${this.constant(op.direction)}, ${op.min}, ${max}, ${op.k})`
            : `rt.shortestPaths(g, ctx, ${this.slot(op.from)}, ${this.slot(op.to)}, ${types}, ${this.constant(op.direction)}, ${op.min}, ${max}, ${op.all})`;
        return this.produce(op.input, () =>
          [
            resolve,
            `for (const ${p} of ${search}) {`,
            `${this.slot(op.rel)} = ${p}.rels; ${this.slot(op.path)} = ${p}.path;`,
            consume(),
            '}',
          ].join('\n'),
        );
      }

      case 'Filter': {
        // Leading range predicates on one key of a label scan's node run as a column kernel.
        const range = this.canSelect(op.input) ? rangePredicates(op.predicates, op.input.slot) : undefined;
        const rest = range === undefined ? op.predicates : op.predicates.slice(range.count);
        const filtered = () => (rest.length === 0 ? consume() : `if (${rest.map((p) => this.predicate(p)).join(' && ')}) {\n${consume()}\n}`);
        if (range === undefined) return this.produce(op.input, filtered);
        const column = this.columnLocal('nodeProps', range.key);
        const ops = this.constant(range.ops);
        const bounds = range.bounds.map((b) => this.expr(b));
        return this.withSelection(op.input, (set) => `rt.scanRange(ctx, ${set}, ${column}, ${ops}, [${bounds.join(', ')}])`, () => this.produce(op.input, filtered));
      }

      case 'Optional':
        return this.produce(op.input, () => this.orNulls(op.inner, op.nullSlots, consume));

      case 'Unwind': {
        const span = rangeCallArgs(op.bexpr);
        if (span !== undefined) return this.produce(op.input, () => this.eachInRange(span.map((a) => this.expr({ expr: a, scope: op.bexpr.scope })), op.slot, consume()));
        return this.produce(op.input, () => this.eachElement(`rt.toList(${this.expr(op.bexpr)})`, op.slot, consume()));
      }

      case 'LoadCsv': {
        const sep = op.fieldTerminator === undefined ? 'null' : this.constant(op.fieldTerminator);
        // Each row records where it came from, for linenumber() and file() downstream.
        return this.produce(op.input, () => {
          const source = this.id('csv');
          const i = this.id('i');
          return [
            `{ const ${source} = rt.loadCsv(${this.expr(op.url)}, ${op.withHeaders}, ${sep}, ctx.csv);`,
            `for (let ${i} = 0; ${i} < ${source}.rows.length; ${i}++) { ${TICK}`,
            `ctx.fn.csvPosition.file = ${source}.file; ctx.fn.csvPosition.line = ${source}.lines[${i}];`,
            `${this.slot(op.slot)} = ${source}.rows[${i}];`,
            consume(),
            '} }',
          ].join('\n');
        });
      }

      case 'Project':
        return this.produce(op.input, () => {
          // Compute every item before assigning any, so items may read slots others overwrite.
          if (op.items.length === 1) return `${this.slot(op.items[0].slot)} = ${this.expr(op.items[0].bexpr)};\n${consume()}`;
          const temps = op.items.map(() => this.temp());
          return [
            ...op.items.map((it, j) => `${temps[j]} = ${this.expr(it.bexpr)};`),
            ...op.items.map((it, j) => `${this.slot(it.slot)} = ${temps[j]};`),
            consume(),
          ].join('\n');
        });

      case 'BuildPath':
        return this.produce(op.input, () => {
          const segs = op.segments.map((s) => this.slot(s.slot));
          return `${this.slot(op.slot)} = rt.buildPath(${this.slot(op.start)}, [${segs.join(', ')}]);\n${consume()}`;
        });

      case 'Aggregate':
        return this.aggregate(op, consume);

      case 'Distinct': {
        const seen = this.id('seen');
        const key = this.id('key');
        const slots = op.slots.map((s) => this.slot(s));
        const keyCode = slots.length === 1 ? `rt.groupKey(${slots[0]})` : `rt.groupKeyOf([${slots.join(', ')}])`;
        return `const ${seen} = new Set();\n${this.produce(op.input, () =>
          `{ const ${key} = ${keyCode}; if (!${seen}.has(${key})) { ${seen}.add(rt.heldValue(ctx, ${key}));\n${consume()}\n} }`,
        )}`;
      }

      case 'Sort': {
        const buf = this.id('buf');
        const row = this.id('row');
        const carry = this.carriedSlotsRead(op.carry).map((s) => this.slot(s));
        // Keys are compiled inside the input's loops (see aggregate()).
        const keys = () => op.keys.map((k) => this.expr(k.bexpr));
        const base = carry.length;
        const cmp = op.keys
          .map((k, j) => `c = rt.orderCompare(x[${base + j}], y[${base + j}]); if (c !== 0) return ${k.descending ? '-c' : 'c'};`)
          .join(' ');
        const cmpFn = this.id('cmp');
        const keep = this.id('keep');
        // Top-k: with a LIMIT only the first skip + limit rows can be returned, so the buffer
        // is sorted and cut back whenever it doubles (a stable sort keeps ties in input order).
        // Once cut, the last kept row bounds the rest: a row whose keys do not sort strictly
        // before it is dropped before any row array is allocated for it. Held rows spend the
        // query's cell budget; the rows a cut drops give theirs back.
        let push = () => `${buf}.push(rt.held(ctx, [${[...carry, ...keys()].join(', ')}]));`;
        let boundDecl = '';
        if (op.topK) {
          const bound = this.id('bound');
          const before = this.id('before');
          const kt = op.keys.map(() => this.id('k'));
          const args = kt.map((_, j) => `a${j}`);
          // The bound's keys sit in locals; two numbers (not NaN) compare inline, the rest
          // through rt.orderCompare.
          const bk = op.keys.map(() => this.id('bk'));
          const cmpKeys = op.keys
            .map((k, j) => {
              const a = `a${j}`;
              const b = bk[j];
              const numeric = `typeof ${a} === 'number' && typeof ${b} === 'number' && ${a} === ${a} && ${b} === ${b}`;
              return `c = ${numeric} ? (${a} < ${b} ? -1 : ${a} > ${b} ? 1 : 0) : rt.orderCompare(${a}, ${b}); if (c !== 0) return ${k.descending ? '-c' : 'c'} < 0;`;
            })
            .join(' ');
          boundDecl = ` let ${bound}, ${bk.join(', ')}; const ${before} = (${args.join(', ')}) => { let c; ${cmpKeys} return false; };`;
          const takeBound = `if (${bound} !== undefined) { ${bk.map((b, j) => `${b} = ${bound}[${base + j}];`).join(' ')} }`;
          push = () =>
            [
              `{ ${keys()
                .map((k, j) => `const ${kt[j]} = ${k};`)
                .join(' ')}`,
              `if (${bound} === undefined || ${before}(${kt.join(', ')})) {`,
              `${buf}.push(rt.held(ctx, [${[...carry, ...kt].join(', ')}]));`,
              `if (${buf}.length >= 2 * ${keep} + 1024) { ${buf}.sort(${cmpFn}); rt.release(ctx, ${buf}, ${keep}); ${buf}.length = ${keep}; ${bound} = ${buf}[${keep} - 1]; ${takeBound} } } }`,
            ].join(' ');
        }
        // ORDER BY a column of a label scan's node … LIMIT: a column kernel passes on only the
        // rows that can make the cut (runtime/graph/column-scan.ts); the rest never get here.
        const first = op.topK !== undefined ? topKColumn(op) : undefined;
        const input = () =>
          first === undefined || !this.canSelect(first.scan)
            ? this.produce(op.input, push)
            : this.withSelection(first.scan, (set) => `rt.topKCandidates(ctx, ${set}, ${this.columnLocal('nodeProps', first.key)}, ${keep}, ${op.keys[0].descending})`, () => this.produce(op.input, push));
        const keepDecl = op.topK
          ? `const ${keep} = ${op.topK.skip ? `rt.countValue(${this.expr(op.topK.skip)}, ${this.constant('SKIP')}) + ` : ''}rt.countValue(${this.expr(op.topK.limit)}, ${this.constant('LIMIT')});`
          : '';
        return [
          `{ const ${buf} = []; const ${cmpFn} = (x, y) => { let c; ${cmp} return 0; }; ${keepDecl}${boundDecl}`,
          input(),
          `${buf}.sort(${cmpFn});${op.topK ? ` if (${buf}.length > ${keep}) ${buf}.length = ${keep};` : ''}`,
          `for (const ${row} of ${buf}) { ${TICK}`,
          ...carry.map((s, j) => `${s} = ${row}[${j}];`),
          consume(),
          '} }',
        ].join('\n');
      }

      case 'Skip': {
        const n = this.id('skip');
        const seen = this.id('skipped');
        return [
          `{ const ${n} = rt.countValue(${this.expr(op.count)}, ${this.constant('SKIP')}); let ${seen} = 0;`,
          this.produce(op.input, () => `if (${seen} < ${n}) { ${seen}++; } else {\n${consume()}\n}`),
          '}',
        ].join('\n');
      }

      case 'Limit': {
        const n = this.id('limit');
        const cnt = this.id('taken');
        const stop = this.constant({ stop: this.counter++ });
        return [
          `{ const ${n} = rt.countValue(${this.expr(op.count)}, ${this.constant('LIMIT')}); let ${cnt} = 0;`,
          // The input always runs, so writes below a LIMIT 0 still happen; rows stop at the limit.
          `try {`,
          this.produce(op.input, () => `if (${cnt} >= ${n}) throw ${stop};\n${cnt}++;\n${consume()}\nif (${cnt} >= ${n} && ${n} > 0) throw ${stop};`),
          `} catch (e) { if (e !== ${stop}) throw e; } }`,
        ].join('\n');
      }

      case 'Eager': {
        const buf = this.id('buf');
        const row = this.id('row');
        const carry = op.carry.map((s) => this.slot(s));
        return [
          `{ const ${buf} = [];`,
          this.produce(op.input, () => `${buf}.push(rt.held(ctx, [${carry.join(', ')}]));`),
          `for (const ${row} of ${buf}) { ${TICK}`,
          ...carry.map((s, j) => `${s} = ${row}[${j}];`),
          consume(),
          '} }',
        ].join('\n');
      }

      case 'Create':
        return this.produce(op.input, () => `${this.createElements(op.elements)}\n${consume()}`);

      case 'Merge': {
        const found = this.id('found');
        const k = this.id('k');
        return this.produce(op.input, () =>
          [
            `{ let ${found} = false; const ${k} = () => {`,
            consume(),
            '};',
            `${op.slots.map((s) => `${this.slot(s)} = null;`).join(' ')}`,
            `rt.checkMergeable(${op.slots.length});`,
            this.produce(op.match, () => `${found} = true; ${this.setItems(op.onMatch)} ${k}();`),
            `if (!${found}) { ${this.createElements(op.create, true)} ${this.setItems(op.onCreate)} ${k}(); } }`,
          ].join('\n'),
        );
      }

      case 'SetItems':
        return this.produce(op.input, () => `${this.setItems(op.items)}\n${consume()}`);

      case 'Remove':
        return this.produce(op.input, () => `${this.removeItems(op.items)}\n${consume()}`);

      case 'Delete':
        return this.produce(op.input, () =>
          `${op.targets.map((t) => `rt.deleteValue(g, ${this.expr(t)}, ${op.detach});`).join('\n')}\n${consume()}`,
        );

      case 'ProcedureCall': {
        const row = this.id('prow');
        const proc = this.constant(op.procedure);
        const args = () => `[${op.args.map((a) => this.expr(a)).join(', ')}]`;
        if (op.procedure.outputs.length === 0) {
          // A procedure without outputs leaves the row stream as it is.
          return this.produce(op.input, () => `for (const ${row} of rt.callProcedure(${proc}, ctx, ${args()})) { void ${row}; }\n${consume()}`);
        }
        const filter = op.rowFilter;
        const filterArgs = filter
          ? (() => {
              const r = this.id('frow');
              const assign = op.yields.map((y) => `${this.slot(y.slot)} = ${r}[${y.index}];`).join(' ');
              return `, (${r}) => { ${assign} return ${this.expr(filter.predicate)} === true; }, ${this.constant(filter.selectivity)}`;
            })()
          : '';
        return this.produce(op.input, () =>
          [
            `for (const ${row} of rt.callProcedure(${proc}, ctx, ${args()}${filterArgs})) { ${TICK}`,
            ...op.yields.map((y) => `${this.slot(y.slot)} = ${row}[${y.index}];`),
            consume(),
            '}',
          ].join('\n'),
        );
      }

      case 'SubqueryApply': {
        if (op.unit) return this.produce(op.input, () => `${this.produce(op.inner, () => '')}\n${consume()}`);
        if (!op.optional) return this.produce(op.input, () => this.produce(op.inner, consume));
        return this.produce(op.input, () => this.orNulls(op.inner, op.nullSlots, consume));
      }

      case 'NestedUnion': {
        const k = this.id('k');
        const seen = this.id('seen');
        const slots = op.slots.map((s) => this.slot(s));
        const keyCode = `rt.groupKeyOf([${slots.join(', ')}])`;
        const body = op.all ? consume() : `{ const key = ${keyCode}; if (!${seen}.has(key)) { ${seen}.add(key); ${consume()} } }`;
        return [
          `{ ${op.all ? '' : `const ${seen} = new Set();`} const ${k} = () => {`,
          body,
          '};',
          ...op.parts.map((p) =>
            this.produce(p.plan, () => `${p.slots.map((s, j) => `${slots[j]} = ${this.slot(s)};`).join(' ')} ${k}();`),
          ),
          '}',
        ].join('\n');
      }

      case 'Foreach':
        return this.produce(op.input, () =>
          [this.eachElement(`rt.toList(${this.expr(op.bexpr)})`, op.slot, this.produce(op.inner, () => '')), consume()].join('\n'),
        );

      case 'Produce':
        // A result without columns (a standalone CALL of a void procedure) has no rows.
        if (op.columns.length === 0) return this.produce(op.input, () => '');
        // A door's row limit stops the query as the result passes it (ctx.maxRows: Infinity elsewhere).
        return this.produce(op.input, () => `if (out.push(rt.held(ctx, [${op.columns.map((c) => this.slot(c.slot)).join(', ')}])) > ctx.maxRows) rt.tooManyRows(ctx);${consume()}`);

      case 'Discard':
        return this.produce(op.input, () => '');

      case 'Union': {
        const parts = op.parts.map((p) => this.produce(p, consume));
        if (op.all) return parts.join('\n');
        return [...parts, 'rt.distinctRows(out);'].join('\n');
      }
    }
  }

  /** A loop binding `slot` to each element of the array `listCode` evaluates to, around `body`. */
  /**
   * UNWIND range(...): counts through the integers instead of making the list first, which for
   * millions of them took tens of milliseconds no deadline check could cut (and their memory).
   */
  private eachInRange(args: string[], slot: string, body: string): string {
    const span = this.id('span');
    const i = this.id('i');
    const x = this.id('x');
    const s = this.slot(slot);
    return [
      `{ const ${span} = rt.rangeSpan(${args.join(', ')});`,
      `for (let ${i} = 0, ${x} = ${span}.start; ${i} < ${span}.count; ${i}++, ${x} += ${span}.step) { ${TICK}`,
      `${s} = ${span}.list === null ? ${x} : ${span}.list[${i}];`,
      body,
      '} }',
    ].join('\n');
  }

  private eachElement(listCode: string, slot: string, body: string): string {
    const list = this.id('list');
    const i = this.id('i');
    const s = this.slot(slot);
    return [
      `{ const ${list} = ${listCode};`,
      `for (let ${i} = 0; ${i} < ${list}.length; ${i}++) { ${TICK}`,
      `${s} = ${list}[${i}];`,
      body,
      '} }',
    ].join('\n');
  }

  /**
   * Every row of `inner` for the current row, or — when it has none — the current row once
   * with `nullSlots` set to null (OPTIONAL MATCH, OPTIONAL CALL). The continuation is a
   * local closure so it is emitted once for both paths.
   */
  private orNulls(inner: PlanOp, nullSlots: string[], consume: Consume): string {
    const found = this.id('found');
    const k = this.id('k');
    return [
      `{ let ${found} = false; const ${k} = () => {`,
      consume(),
      '};',
      this.produce(inner, () => `${found} = true; ${k}();`),
      `if (!${found}) { ${nullSlots.map((s) => `${this.slot(s)} = null;`).join(' ')} ${k}(); } }`,
    ].join('\n');
  }

  /**
   * `types`: the local holding the ids of `op.types` (undefined when the expansion takes any
   * type). Inlines the store's adjacency iterator (src/store/adjacency.ts): per type, the
   * node's CSR row in the block's base, then its delta list, skipping tombstoned ids.
   */
  private expand(op: Extract<PlanOp, { op: 'Expand' }>, consume: Consume, types: string | undefined): string {
    const from = this.slot(op.from);
    const rel = this.slot(op.rel);
    const to = this.slot(op.to);
    const v = this.id('nid');
    const blk = this.id('blk');
    const seg = this.id('seg');
    const R = this.id('R');
    const N = this.id('N');
    const lo = this.id('lo');
    const hi = this.id('hi');
    const r = this.id('r');
    const i = this.id('i');
    const adj = this.id('adj');
    const t = this.id('t');
    const d = this.id('d');
    const toId = this.id('tid');
    const intoId = this.nodeIdOf(op.to) ?? `${to}.id`;
    const nodeCheck = op.into ? `if (${N}[${i}] !== ${intoId}) continue;` : `const ${toId} = ${N}[${i}]; ${this.bind(op.to, toId, 'node')}`;
    const relAsId = this.relIdSlots.has(op.rel);
    const bindRel = relAsId ? `${rel} = ${r};` : this.bind(op.rel, r, 'rel');
    const selfLoopSkip = op.direction === 'both' ? `if (${d} === 1 && ${N}[${i}] === ${v}) continue;` : '';
    const dl = this.id('dl');
    const row = this.id('row');
    const body = () => (op.into ? consume() : this.withKnownId(op.to, toId, 'node', consume));
    const segments = (block: string) =>
      [
        `for (let ${seg} = 0; ${seg} < 2; ${seg}++) { let ${R}, ${N}, ${lo}, ${hi};`,
        `if (${seg} === 0) { const ${row} = ${v} - ${block}.rowStart; if (${row} < 0 || ${v} >= ${block}.rowEnd) continue; ${R} = ${block}.rels; ${N} = ${block}.nbrs; ${lo} = ${block}.offsets[${row}]; ${hi} = ${block}.offsets[${row} + 1]; }`,
        `else { const ${dl} = ${block}.delta[${v}]; if (${dl} === undefined) continue; ${R} = ${dl}.rels; ${N} = ${dl}.nbrs; ${lo} = 0; ${hi} = ${R}.length; }`,
        `for (let ${i} = ${lo}; ${i} < ${hi}; ${i}++) { ${TICK}`,
        // The tombstones are re-read per entry: a write in the loop body may replace them.
        `const ${r} = ${R}[${i}]; if ((g.deadRels.bits[${r} >>> 5] & (1 << (${r} & 31))) !== 0) continue;`,
        selfLoopSkip,
        nodeCheck,
        bindRel,
        relAsId ? body() : this.withKnownId(op.rel, r, 'rel', body),
        '} }',
      ].join('\n');
    // A node whose id a loop holds is bound (not null): no test, and no read of its slot.
    const notNull = (slot: string, local: string) => (this.nodeIdOf(slot) !== undefined ? [] : [`${local} !== null`]);
    const guard = [...notNull(op.from, from), ...(op.into ? notNull(op.to, to) : [])].join(' && ') || 'true';
    const fromId = this.nodeIdOf(op.from) ?? `${from}.id`;
    // In a read-only query an expand-into first asks a neighbour set whether the ends can meet.
    let probe = '';
    if (op.into && !this.planner.mutates) {
      const name = this.id('probe');
      this.prologue.push(`const ${name} = rt.intoProbe();`);
      probe = ` if (!rt.mayConnect(${name}, g, ${this.constant(op.direction)}, ${types ?? 'null'}, ${v}, ${intoId})) {} else`;
    }
    const adjacency =
      op.direction === 'both'
        ? `const ${v} = ${fromId};${probe} for (let ${d} = 0; ${d} < 2; ${d}++) { const ${adj} = ${d} === 0 ? g.adjOut : g.adjIn;`
        : `const ${v} = ${fromId};${probe} { const ${adj} = g.${op.direction === 'out' ? 'adjOut' : 'adjIn'};`;
    let loops: string;
    if (types !== undefined && op.types.length === 1) {
      const T = types;
      loops = `if (${T}.length === 1) { const ${blk} = ${adj}[${T}[0]]; if (${blk} !== undefined) {\n${segments(blk)}\n} }`;
    } else if (types !== undefined) {
      const T = types;
      loops = `for (const ${t} of ${T}) { const ${blk} = ${adj}[${t}]; if (${blk} === undefined) continue;\n${segments(blk)}\n}`;
    } else {
      loops = `for (let ${t} = 0; ${t} < ${adj}.length; ${t}++) { const ${blk} = ${adj}[${t}]; if (${blk} === undefined) continue;\n${segments(blk)}\n}`;
    }
    return `if (${guard}) { ${adjacency}\n${loops}\n} }`;
  }

  private predicate(p: Predicate): string {
    switch (p.kind) {
      case 'expr':
        return `${this.expr(p.bexpr)} === true`;
      case 'hasLabels': {
        const s = this.slot(p.slot);
        const known = this.nodeIdOf(p.slot);
        if (known !== undefined) return p.labels.map((l) => `${this.labelSetLocal(l)}?.has(${known}) === true`).join(' && ');
        if (p.labels.length === 1) return `${s} !== null && ${s}.labels.includes(${this.constant(p.labels[0])})`;
        return `rt.hasAllLabels(${s}, ${this.constant(p.labels)})`;
      }
      case 'labelExpr':
        return `rt.labelCheck(${this.slot(p.slot)}, ${this.constant(p.expr)}) === true`;
      case 'relType':
        return `rt.relTypeMatches(${this.slot(p.slot)}, ${this.constant(p.expr)})`;
      case 'propMap': {
        const e = p.map.expr;
        if (e.kind === 'Map') {
          if (e.entries.length === 0) return 'true';
          const read = (key: string) => this.propertyById(p.slot, key) ?? `rt.property(${this.slot(p.slot)}, ${this.constant(key)})`;
          return e.entries.map((en) => `rt.equals(${read(en.key)}, ${this.expr({ expr: en.value, scope: p.map.scope })}) === true`).join(' && ');
        }
        const s = this.slot(p.slot);
        return `rt.matchProperties(${s}, ${this.expr(p.map)})`;
      }
      case 'relsDistinct': {
        const a = this.slot(p.a);
        const b = this.slot(p.b);
        if (!p.aList && !p.bList) return `${a} !== ${b}`;
        if (p.aList && !p.bList) return `!${a}.includes(${b})`;
        if (!p.aList && p.bList) return `!${b}.includes(${a})`;
        return `rt.disjoint(${a}, ${b})`;
      }
      case 'relsAllDistinct':
        return `rt.allDistinctRels([${p.slots.map((s) => this.slot(s)).join(', ')}])`;
      case 'isNode':
        return `rt.isBoundNode(${this.slot(p.slot)})`;
      case 'pathMode':
        return `rt.pathModeHolds(${this.slot(p.slot)}, ${this.constant(p.mode)})`;
    }
  }

  private aggregate(op: Extract<PlanOp, { op: 'Aggregate' }>, consume: Consume): string {
    const groups = this.id('groups');
    const grp = this.id('grp');
    const key = this.id('key');
    const gslots = op.groups.map((g) => this.slot(g.slot));
    // Expressions are compiled where they run (inside the input's loops), so they can read
    // the node ids those loops hold.
    const gvals = () => op.groups.map((g) => this.expr(g.bexpr));
    const factories = op.aggregates.map((a) => {
      if (a.name === 'count(*)') return this.constant(countStarFactory);
      const def = lookupAggregate(a.name);
      if (!def) throw new QuerySemanticError(`Unknown aggregate function ${a.name}`, 'UnknownFunction');
      if (a.args.length < def.minArgs || a.args.length > def.args) {
        throw new QuerySemanticError(`Function ${def.name}() takes ${def.minArgs === def.args ? def.args : `${def.minArgs} to ${def.args}`} argument(s), got ${a.args.length}`, 'InvalidNumberOfArguments');
      }
      return this.constant(def);
    });
    const nG = gslots.length;
    if (nG === 0) return this.globalAggregate(op, factories, consume);
    const newGroup = `[${[...gslots.map((_, j) => `gv${j}`), ...factories.map((f, j) => `${f}.create(${op.aggregates[j].distinct})`)].join(', ')}]`;
    const steps = () =>
      op.aggregates
        .map((a, j) => {
          const args = a.args.map((x) => this.expr(x));
          return `${grp}[${nG + j}].step(${args.join(', ')});`;
        })
        .join(' ');
    const keyCode = nG === 1 ? `rt.groupKey(gv0)` : `rt.groupKeyOf([${gslots.map((_, j) => `gv${j}`).join(', ')}])`;
    const row = this.id('g');
    return [
      `{ const ${groups} = new Map();`,
      this.produce(op.input, () =>
        [
          `{ ${gvals()
            .map((v, j) => `const gv${j} = ${v};`)
            .join(' ')}`,
          `const ${key} = ${keyCode}; let ${grp} = ${groups}.get(${key});`,
          `if (${grp} === undefined) { ${grp} = rt.held(ctx, ${newGroup}); ${groups}.set(${key}, ${grp}); }`,
          steps(),
          '}',
        ].join('\n'),
      ),
      `for (const ${row} of ${groups}.values()) { ${TICK}`,
      ...gslots.map((s, j) => `${s} = ${row}[${j}];`),
      ...op.aggregates.map((a, j) => `${this.slot(a.slot)} = ${row}[${nG + j}].result();`),
      consume(),
      '} }',
    ].join('\n');
  }

  /**
   * Aggregation without grouping keys: one group, so its accumulators live in locals and
   * `count(*)` is a plain counter.
   */
  private globalAggregate(op: Extract<PlanOp, { op: 'Aggregate' }>, factories: string[], consume: Consume): string {
    const accs = op.aggregates.map((a) => (a.name === 'count(*)' ? this.id('cnt') : this.id('agg')));
    const decls = op.aggregates.map((a, j) =>
      a.name === 'count(*)' ? `let ${accs[j]} = 0;` : `const ${accs[j]} = ${factories[j]}.create(${a.distinct});`,
    );
    const steps = () =>
      op.aggregates
        .map((a, j) => (a.name === 'count(*)' ? `${accs[j]}++;` : `${accs[j]}.step(${a.args.map((x) => this.expr(x)).join(', ')});`))
        .join(' ');
    return [
      `{ ${decls.join(' ')}`,
      this.produce(op.input, steps),
      ...op.aggregates.map((a, j) => `${this.slot(a.slot)} = ${a.name === 'count(*)' ? accs[j] : `${accs[j]}.result()`};`),
      consume(),
      '}',
    ].join('\n');
  }

  private createElements(elements: CreateElement[], merge = false): string {
    return elements
      .map((el) => {
        switch (el.kind) {
          case 'node':
            return `${this.slot(el.slot)} = rt.createNode(g, ${this.labelList(el.labels, el.dynamic)}, ${el.props ? this.expr(el.props) : 'null'}, ${merge});`;
          case 'boundNode':
            return `rt.requireNodeForCreate(${this.slot(el.slot)});`;
          case 'rel':
            return `${this.slot(el.slot)} = rt.createRel(g, ${el.dynamicType ? `rt.dynamicType(${this.expr(el.dynamicType)})` : this.constant(el.type)}, ${this.slot(el.from)}, ${this.slot(el.to)}, ${el.props ? this.expr(el.props) : 'null'}, ${merge});`;
          case 'path':
            return `${this.slot(el.slot)} = rt.buildPath(${this.slot(el.start)}, [${el.segments.map((s) => this.slot(s)).join(', ')}]);`;
        }
      })
      .join('\n');
  }

  private setItems(items: BoundSetItem[]): string {
    return items
      .map((it) => {
        switch (it.kind) {
          case 'SetProperty':
            return `rt.setProperty(g, ${this.expr(it.target)}, ${this.constant(it.key)}, ${this.expr(it.value)});`;
          case 'SetDynamicProperty':
            return `rt.setDynamicProperty(g, ${this.expr(it.target)}, ${this.expr(it.key)}, ${this.expr(it.value)});`;
          case 'SetProperties':
            return `rt.setProperties(g, ${this.slot(it.slot)}, ${this.expr(it.value)}, ${it.merge});`;
          case 'SetLabels':
            return `rt.addLabels(g, ${this.slot(it.slot)}, ${this.labelList(it.labels, it.dynamic)});`;
        }
      })
      .join(' ');
  }

  private removeItems(items: BoundRemoveItem[]): string {
    return items
      .map((it) =>
        it.kind === 'RemoveProperty'
          ? `rt.removeProperty(g, ${this.expr(it.target)}, ${this.constant(it.key)});`
          : `rt.removeLabels(g, ${this.slot(it.slot)}, ${this.labelList(it.labels, it.dynamic)});`,
      )
      .join(' ');
  }

  /** The labels to write: a constant list, or with `$(…)` expressions, the list made at run time. */
  private labelList(labels: string[], dynamic: BoundExpr[] | undefined): string {
    if (dynamic === undefined || dynamic.length === 0) return this.constant(labels);
    return `rt.withDynamicLabels(${this.constant(labels)}, [${dynamic.map((d) => this.expr(d)).join(', ')}])`;
  }
}

/** count(*) counts rows, nulls included. */
const countStarFactory = {
  create(): { n: number; step(): void; result(): number } {
    return {
      n: 0,
      step() {
        this.n++;
      },
      result() {
        return this.n;
      },
    };
  },
};

export { simpleLabels };

/** Whether any operator of the plan runs its consumer inside a local closure. */
function runsConsumerInClosure(op: PlanOp): boolean {
  if (op.op === 'Optional' || op.op === 'Merge' || op.op === 'NestedUnion') return true;
  return planChildren(op).some(runsConsumerInClosure);
}

/** The arguments of `range(start, end[, step])` when that call is the whole UNWIND expression. */
function rangeCallArgs(b: BoundExpr): Expr[] | undefined {
  const e = b.expr;
  if (e.kind !== 'FunctionCall' || e.distinct || e.name.toLowerCase() !== 'range') return undefined;
  return e.args.length === 2 || e.args.length === 3 ? e.args : undefined;
}
