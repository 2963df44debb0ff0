/**
 * The semantic checker: one pass over a parsed statement, after the parser and before the
 * planner, that rejects queries which parse but mean nothing valid. It follows openCypher's
 * variable scoping clause by clause (MATCH, UNWIND, CREATE, MERGE, CALL … YIELD introduce
 * names; WITH and RETURN project; ORDER BY sees projected names and, when the projection
 * neither aggregates nor de-duplicates, the names before it), checks where aggregates may
 * stand, what CREATE and MERGE may create, SKIP/LIMIT values, UNION columns, and the
 * types that the text alone proves wrong. The first problem found is thrown as a
 * QuerySemanticError (or a compile-phase ValueTypeError / QuerySyntaxError / ProcedureError
 * where the openCypher TCK expects one) carrying the TCK's detail code and the position of
 * the offending node.
 *
 * The checker is layered, one file per concern: scopes and pattern binding
 * (semanticScope.ts), aggregates (semanticAggregates.ts), expressions
 * (semanticExpressions.ts), projections (semanticProjection.ts); this file checks queries
 * and clauses.
 */
import type { Clause, Query, SingleQuery, Statement, CallClause, SetItem, RemoveItem } from './ast.js';
import { ProcedureError, QuerySyntaxError } from '../errors.js';
import { semantic } from './semanticHelpers.js';
import { ProjectionChecker } from './semanticProjection.js';
import type { CheckOptions, ProcedureSignature, QueryKind, Scope } from './semanticScope.js';
import {
  ANY,
  BOOLEAN,
  FLOAT,
  INTEGER,
  NODE,
  PATH,
  RELATIONSHIP,
  STRING,
  acceptsDeclared,
  elementType,
  isOneOf,
  typeName,
  type StaticType,
} from './semanticTypes.js';

export { isAggregate, containsAggregate, isAggregateFunctionName, AGGREGATE_FUNCTIONS } from './semanticHelpers.js';
export type { StaticType } from './semanticTypes.js';
export type { CheckOptions, ProcedureSignature } from './semanticScope.js';

/**
 * Checks a parsed statement and throws the first semantic error found. The second argument
 * is either the options or, for short, just the `isKnownFunction` callback.
 */
export function checkStatement(stmt: Statement, options?: CheckOptions | ((name: string) => boolean)): void {
  const opts: CheckOptions = typeof options === 'function' ? { isKnownFunction: options } : (options ?? {});
  if (stmt.body.kind !== 'Query') return; // schema commands carry nothing to check here
  new Checker(opts).query(stmt.body, new Map(), 'top');
}

const UPDATING_CLAUSES: ReadonlySet<Clause['kind']> = new Set(['Create', 'Merge', 'Set', 'Remove', 'Delete', 'Foreach']);

function clauseName(c: Clause): string {
  switch (c.kind) {
    case 'Match':
      return c.optional ? 'OPTIONAL MATCH' : 'MATCH';
    case 'SubqueryCall':
      return 'CALL { … }';
    case 'LoadCsv':
      return 'LOAD CSV';
    case 'OrderByPage':
      return 'ORDER BY';
    default:
      return c.kind.toUpperCase();
  }
}


class Checker extends ProjectionChecker {
  // ------------------------------------------------------------ queries

  /** Checks a query (all UNION parts) and returns its column names. */
  query(q: Query, outer: Scope | ((part: SingleQuery) => Scope), kind: QueryKind): string[] {
    if (q.unionAll.length > 1 && q.unionAll.some((all) => all !== q.unionAll[0])) {
      semantic('InvalidClauseComposition', 'UNION and UNION ALL cannot be mixed in one query', q.pos);
    }
    let columns: string[] | undefined;
    for (const part of q.parts) {
      const standalone = kind === 'top' && q.parts.length === 1;
      const cols = this.singleQuery(part, typeof outer === 'function' ? outer(part) : outer, kind, standalone);
      if (columns === undefined) {
        columns = cols;
      } else if (!sameColumns(columns, cols)) {
        semantic(
          'DifferentColumnsInUnion',
          `All parts of a UNION must return the same column names: (${columns.join(', ')}) differs from (${cols.join(', ')})`,
          part.pos,
        );
      }
    }
    return columns ?? [];
  }

  protected singleQuery(sq: SingleQuery, outer: Scope, kind: QueryKind, mayBeStandalone: boolean): string[] {
    let scope: Scope = new Map(outer);
    let columns: string[] = [];
    const clauses = sq.clauses;
    const standaloneCall = mayBeStandalone && clauses.length === 1 && clauses[0]!.kind === 'Call';
    clauses.forEach((clause, i) => {
      const last = i === clauses.length - 1;
      if (clause.kind === 'Return' && !last) {
        semantic('InvalidClauseComposition', 'RETURN can only be used at the end of a query', clause.pos);
      }
      if (UPDATING_CLAUSES.has(clause.kind) && (kind === 'exists' || kind === 'count' || kind === 'collect')) {
        semantic(
          'InvalidClauseComposition',
          `An ${kind.toUpperCase()} subquery cannot contain an updating clause such as ${clauseName(clause)}`,
          clause.pos,
        );
      }
      const result = this.clause(clause, scope, standaloneCall);
      // EXISTS, COUNT and COLLECT bodies see the enclosing variables past their own WITHs (Neo4j 5).
      scope = clause.kind === 'With' && (kind === 'exists' || kind === 'count' || kind === 'collect') ? new Map([...outer, ...result.scope]) : result.scope;
      if (result.columns) columns = result.columns;
    });
    const lastClause = clauses[clauses.length - 1];
    if (lastClause && (kind === 'top' || kind === 'call' || kind === 'collect')) {
      const ok =
        lastClause.kind === 'Return' ||
        (kind !== 'collect' &&
          (UPDATING_CLAUSES.has(lastClause.kind) || lastClause.kind === 'Call' || lastClause.kind === 'SubqueryCall'));
      if (!ok) {
        semantic(
          'InvalidClauseComposition',
          kind === 'collect'
            ? 'A COLLECT subquery must end with a RETURN clause'
            : `A query cannot end with ${clauseName(lastClause)}: it must end with RETURN or an updating clause`,
          lastClause.pos,
        );
      }
    }
    return columns;
  }

  // ------------------------------------------------------------ clauses

  protected clause(c: Clause, scopeIn: Scope, standaloneCall: boolean): { scope: Scope; columns?: string[] } {
    switch (c.kind) {
      case 'Match': {
        const scope = new Map(scopeIn);
        const relsHere = new Set<string>();
        for (const p of c.patterns) this.bindPath(p, scope, 'match', relsHere);
        if (c.where) this.predicate(c.where, scope, 'WHERE');
        return { scope };
      }
      case 'Unwind': {
        this.noAggregates(c.expr, 'UNWIND');
        const t = this.expr(c.expr, scopeIn);
        const scope = new Map(scopeIn);
        this.declare(scope, c.variable, elementType(t), c.pos);
        return { scope };
      }
      case 'With':
      case 'Return':
        return this.projection(c, scopeIn);
      case 'Create': {
        const scope = new Map(scopeIn);
        for (const p of c.patterns) this.bindPath(p, scope, 'create', new Set());
        return { scope };
      }
      case 'Merge': {
        const scope = new Map(scopeIn);
        this.bindPath(c.pattern, scope, 'merge', new Set());
        for (const item of [...c.onCreate, ...c.onMatch]) this.setItem(item, scope);
        return { scope };
      }
      case 'Set':
        for (const item of c.items) this.setItem(item, scopeIn);
        return { scope: scopeIn };
      case 'Remove':
        for (const item of c.items) this.removeItem(item, scopeIn);
        return { scope: scopeIn };
      case 'Delete':
        for (const e of c.exprs) {
          if (e.kind === 'LabelCheck') {
            semantic('InvalidDelete', 'DELETE removes nodes, relationships and paths; use REMOVE to remove a label', e.pos);
          }
          this.noAggregates(e, 'DELETE');
          const t = this.expr(e, scopeIn);
          if (isOneOf(t, ['boolean', 'integer', 'float', 'string', 'map'])) {
            semantic('InvalidArgumentType', `DELETE expects a node, relationship or path, not a value of type ${typeName(t)}`, e.pos);
          }
        }
        return { scope: scopeIn };
      case 'Call':
        return this.call(c, scopeIn, standaloneCall);
      case 'SubqueryCall': {
        const inner = this.subqueryScope(c, scopeIn);
        if (c.inTransactions?.batchSize) this.expr(c.inTransactions.batchSize, new Map());
        const cols = this.query(c.query, inner, 'call');
        const scope = new Map(scopeIn);
        for (const col of cols) this.declare(scope, col, ANY, c.pos);
        return { scope };
      }
      case 'Foreach': {
        this.noAggregates(c.source, 'FOREACH');
        const t = this.expr(c.source, scopeIn);
        let inner = this.withLocal(scopeIn, c.variable, elementType(t));
        for (const sub of c.clauses) {
          if (!UPDATING_CLAUSES.has(sub.kind)) {
            semantic('InvalidClauseComposition', `FOREACH may only contain updating clauses, not ${clauseName(sub)}`, sub.pos);
          }
          inner = this.clause(sub, inner, false).scope;
        }
        return { scope: scopeIn };
      }
      case 'LoadCsv': {
        this.noAggregates(c.url, 'LOAD CSV');
        this.expr(c.url, scopeIn);
        const scope = new Map(scopeIn);
        this.declare(scope, c.variable, ANY, c.pos);
        return { scope };
      }
      case 'Filter':
        this.predicate(c.where, scopeIn, 'FILTER');
        return { scope: scopeIn };
      case 'Let': {
        const scope = new Map(scopeIn);
        for (const b of c.bindings) {
          this.noAggregates(b.expr, 'LET');
          const t = this.expr(b.expr, scope);
          this.declare(scope, b.variable, t, c.pos);
        }
        return { scope };
      }
      case 'OrderByPage':
        for (const s of c.orderBy ?? []) {
          this.noAggregates(s.expr, 'ORDER BY');
          this.expr(s.expr, scopeIn);
        }
        if (c.skip) this.skipLimit(c.skip, 'SKIP');
        if (c.limit) this.skipLimit(c.limit, 'LIMIT');
        return { scope: scopeIn };
    }
  }

  protected setItem(item: SetItem, scope: Scope): void {
    switch (item.kind) {
      case 'SetProperty':
        this.expr(item.target, scope);
        this.noAggregates(item.value, 'SET');
        this.expr(item.value, scope);
        return;
      case 'SetDynamicProperty':
        this.expr(item.target, scope);
        this.noAggregates(item.key, 'SET');
        this.expr(item.key, scope);
        this.noAggregates(item.value, 'SET');
        this.expr(item.value, scope);
        return;
      case 'SetProperties':
        this.requireVariable(item.variable, scope, item.pos);
        this.noAggregates(item.value, 'SET');
        this.expr(item.value, scope);
        return;
      case 'SetLabels':
        this.requireVariable(item.variable, scope, item.pos);
        return;
    }
  }

  protected removeItem(item: RemoveItem, scope: Scope): void {
    if (item.kind === 'RemoveProperty') this.expr(item.target, scope);
    else this.requireVariable(item.variable, scope, item.pos);
  }

  // ------------------------------------------------------------ CALL

  protected call(c: CallClause, scopeIn: Scope, standalone: boolean): { scope: Scope; columns?: string[] } {
    const argTypes: StaticType[] = [];
    for (const a of c.args ?? []) {
      this.noAggregates(a, 'procedure call arguments');
      argTypes.push(this.expr(a, scopeIn));
    }
    let sig: ProcedureSignature | undefined;
    if (this.opts.lookupProcedure) {
      sig = this.opts.lookupProcedure(c.procedure);
      if (!sig) throw new ProcedureError(`There is no procedure named \`${c.procedure}\``, 'ProcedureNotFound', 'compile', c.pos);
      if (c.args === undefined) {
        if (!standalone && sig.inputs.length > 0) {
          semantic(
            'InvalidArgumentPassingMode',
            `Procedure \`${c.procedure}\` takes arguments; inside a larger query they must be passed explicitly in parentheses`,
            c.pos,
          );
        }
      } else {
        const required = sig.inputs.findIndex((f) => f.default !== undefined);
        const min = required < 0 ? sig.inputs.length : required;
        if (c.args.length < min || c.args.length > sig.inputs.length) {
          semantic(
            'InvalidNumberOfArguments',
            `Procedure \`${c.procedure}\` takes ${sig.inputs.length} argument(s) but ${c.args.length} were given`,
            c.pos,
          );
        }
        c.args.forEach((a, i) => {
          const input = sig!.inputs[i]!;
          if (!acceptsDeclared(input.type, argTypes[i]!)) {
            semantic(
              'InvalidArgumentType',
              `Argument \`${input.name}\` of procedure \`${c.procedure}\` must be of type ${input.type}, not ${typeName(argTypes[i]!)}`,
              a.pos,
            );
          }
        });
      }
    }
    const scope = new Map(scopeIn);
    const outputType = (name: string): StaticType => {
      const decl = sig?.outputs.find((o) => o.name === name)?.type.replace(/\?$/, '').trim().toUpperCase();
      switch (decl) {
        case 'INTEGER':
          return INTEGER;
        case 'FLOAT':
          return FLOAT;
        case 'STRING':
          return STRING;
        case 'BOOLEAN':
          return BOOLEAN;
        case 'NODE':
          return NODE;
        case 'RELATIONSHIP':
          return RELATIONSHIP;
        case 'PATH':
          return PATH;
        default:
          return ANY;
      }
    };
    let columns: string[] | undefined;
    if (c.yields === '*') {
      if (!standalone) {
        throw new QuerySyntaxError('YIELD * is only allowed when the CALL is the whole query', c.pos, 'UnexpectedSyntax');
      }
      columns = sig?.outputs.map((o) => o.name);
    } else if (c.yields) {
      for (const y of c.yields) {
        const name = y.alias ?? y.name;
        this.declare(scope, name, outputType(y.name), y.pos);
      }
      columns = c.yields.map((y) => y.alias ?? y.name);
    } else if (standalone) {
      columns = sig?.outputs.map((o) => o.name);
    }
    if (c.where) this.predicate(c.where, scope, 'WHERE');
    return { scope, columns: standalone ? (columns ?? []) : undefined };
  }
}

function sameColumns(a: string[], b: string[]): boolean {
  if (a.length !== b.length) return false;
  const set = new Set(a);
  return b.every((name) => set.has(name));
}
