/**
 * Turns the ANTLR parse tree of a statement into the typed AST of `ast.ts`: statements
 * (EXPLAIN / PROFILE), queries and UNION, every clause, and schema commands. Expressions
 * and patterns are built by `parseExpressions.ts` and `parsePatterns.ts`. Purely
 * syntactic rules the grammar is too permissive for are enforced here, as
 * QuerySyntaxErrors.
 */

import type {
  CallClause,
  Clause,
  Expr,
  Projection,
  Query,
  RemoveItem,
  ReturnItem,
  SchemaCommand,
  ShowCommand,
  SetItem,
  SingleQuery,
  SortItem,
  Statement,
  SubqueryCallClause,
} from './ast.js';
import {
  type CallClauseContext,
  type ClauseContext,
  type ConstraintPropertiesContext,
  type CreateConstraintContext,
  type CreateIndexContext,
  KeyConstraintContext,
  MergePropertiesItemContext,
  NodeSchemaPatternContext,
  NotNullConstraintContext,
  type OrderByContext,
  type ProjectionBodyContext,
  type PropertyRefContext,
  type PropertyTargetContext,
  type QueryContext,
  RelSchemaPatternContext,
  RemoveLabelsItemContext,
  RemovePropertyItemContext,
  type RemoveItemContext,
  type SchemaCommandContext,
  type SchemaPatternContext,
  SetAllPropertiesItemContext,
  SetLabelsItemContext,
  SetPropertyItemContext,
  type SetItemContext,
  ShowConstraintsContext,
  ShowFunctionsContext,
  ShowTailContext,
  ShowIndexesContext,
  ShowDatabasesContext,
  ShowProceduresContext,
  type SingleQueryContext,
  type StatementContext,
  type SubqueryCallClauseContext,
  UniqueConstraintContext,
  type IndexNameContext,
  type NodeLabelsContext,
} from './generated/GqlParser.js';
import { posOf, schemaNameText, sourceText, symbolicNameText, syntaxError, tokenPos, variableName } from './parseCommon.js';
import { ExpressionBuilder } from './parseExpressions.js';
import { decodeString } from './parseLiterals.js';

// ---------------------------------------------------------------- projections

// ---------------------------------------------------------------- updates

// ---------------------------------------------------------------- calls

// ---------------------------------------------------------------- schema commands

/** The clause layer of the AST builder: statements, queries, clauses, schema commands. */
/** Builds the AST of a parsed statement. */
export function buildStatement(ctx: StatementContext): Statement {
  return new AstBuilder().buildStatement(ctx);
}

class AstBuilder extends ExpressionBuilder {
  buildStatement(ctx: StatementContext): Statement {
    const schema = ctx.schemaCommand();
    const queries = ctx.query();
    let body: Query | SchemaCommand;
    if (schema) body = this.buildSchemaCommand(schema);
    else if (queries.length > 0) body = chainNext(queries.map((c) => this.buildQuery(c)), queries);
    else throw syntaxError('Expected a query', ctx);
    const statement: Statement = { kind: 'Statement', body, pos: posOf(ctx) };
    if (ctx.EXPLAIN()) statement.explain = 'explain';
    else if (ctx.PROFILE()) statement.explain = 'profile';
    return statement;
  }

  buildQuery(ctx: QueryContext): Query {
    return {
      kind: 'Query',
      parts: ctx.singleQuery().map((c) => this.buildSingleQuery(c)),
      unionAll: ctx.unionJoin().map((u) => u.ALL() !== null),
      pos: posOf(ctx),
    };
  }

  buildSingleQuery(ctx: SingleQueryContext): SingleQuery {
    const clauseCtxs = ctx.clause();
    const clauses = clauseCtxs.map((c) => this.buildClause(c));
    // openCypher allows `YIELD *` only in a standalone procedure call.
    clauses.forEach((clause, i) => {
      if (clause.kind === 'Call' && clause.yields === '*' && clauses.length > 1) {
        throw syntaxError('YIELD * is only allowed when the procedure call is the whole query', clauseCtxs[i]);
      }
    });
    return { kind: 'SingleQuery', clauses, pos: posOf(ctx) };
  }

  buildClause(ctx: ClauseContext): Clause {
    const pos = posOf(ctx);
    const match = ctx.matchClause();
    if (match) {
      const where = match.whereClause();
      const clause: Clause = {
        kind: 'Match',
        optional: match.OPTIONAL() !== null,
        patterns: this.buildPatternList(match.patternList()),
        pos,
      };
      if (where) clause.where = this.buildExpression(where.expression());
      return clause;
    }
    const unwind = ctx.unwindClause();
    if (unwind) {
      // GQL `FOR x IN list` is UNWIND with the operands the other way round.
      return { kind: 'Unwind', expr: this.buildExpression(unwind.expression()), variable: variableName(unwind.variable()), pos };
    }
    const withClause = ctx.withClause();
    if (withClause) {
      const clause: Clause = { kind: 'With', ...this.buildProjection(withClause.projectionBody()), pos };
      const where = withClause.whereClause();
      if (where) clause.where = this.buildExpression(where.expression());
      return clause;
    }
    const ret = ctx.returnClause();
    if (ret) return { kind: 'Return', ...this.buildProjection(ret.projectionBody()), pos };
    const create = ctx.createClause();
    if (create) return { kind: 'Create', patterns: this.buildPatternList(create.patternList()), pos };
    const merge = ctx.mergeClause();
    if (merge) {
      const onCreate: SetItem[] = [];
      const onMatch: SetItem[] = [];
      for (const action of merge.mergeAction()) {
        const items = action.setItem().map((c) => this.buildSetItem(c));
        (action.CREATE() ? onCreate : onMatch).push(...items);
      }
      return { kind: 'Merge', pattern: this.buildPatternPart(merge.patternPart()), onCreate, onMatch, pos };
    }
    const set = ctx.setClause();
    if (set) return { kind: 'Set', items: set.setItem().map((c) => this.buildSetItem(c)), pos };
    const remove = ctx.removeClause();
    if (remove) return { kind: 'Remove', items: remove.removeItem().map((c) => this.buildRemoveItem(c)), pos };
    const del = ctx.deleteClause();
    if (del) return { kind: 'Delete', detach: del.DETACH() !== null, exprs: del.expression().map((c) => this.buildExpression(c)), pos };
    const subquery = ctx.subqueryCallClause();
    if (subquery) return this.buildSubqueryCall(subquery);
    const call = ctx.callClause();
    if (call) return this.buildCall(call);
    const foreach = ctx.foreachClause();
    if (foreach) {
      return {
        kind: 'Foreach',
        variable: variableName(foreach.variable()),
        source: this.buildExpression(foreach.expression()),
        clauses: foreach.clause().map((c) => this.buildClause(c)),
        pos,
      };
    }
    const load = ctx.loadCsvClause();
    if (load) {
      const clause: Clause = {
        kind: 'LoadCsv',
        withHeaders: load.HEADERS() !== null,
        url: this.buildExpression(load.expression()),
        variable: variableName(load.variable()),
        pos,
      };
      const terminator = load.STRING_LITERAL();
      if (terminator) clause.fieldTerminator = decodeString(terminator.getText(), tokenPos(terminator.symbol));
      return clause;
    }
    const filter = ctx.filterClause();
    if (filter) return { kind: 'Filter', where: this.buildExpression(filter.expression()), pos };
    const let_ = ctx.letClause();
    if (let_) {
      return {
        kind: 'Let',
        bindings: let_.letBinding().map((b) => ({ variable: variableName(b.variable()), expr: this.buildExpression(b.expression()) })),
        pos,
      };
    }
    const page = ctx.orderByPageClause();
    if (page) {
      const clause: Clause = { kind: 'OrderByPage', pos };
      const orderBy = page.orderBy();
      if (orderBy) clause.orderBy = this.buildOrderBy(orderBy);
      const skip = page.skipPart();
      if (skip) clause.skip = this.buildExpression(skip.expression());
      const limit = page.limitPart();
      if (limit) clause.limit = this.buildExpression(limit.expression());
      return clause;
    }
    throw syntaxError('Unsupported clause', ctx);
  }

  buildProjection(ctx: ProjectionBodyContext): Projection {
    const items = ctx.projectionItems();
    const projection: Projection = {
      distinct: ctx.DISTINCT() !== null,
      star: items.STAR() !== null,
      items: items.projectionItem().map((item): ReturnItem => {
        const exprCtx = item.expression();
        const returnItem: ReturnItem = { expr: this.buildExpression(exprCtx), text: sourceText(exprCtx).trim(), pos: posOf(item) };
        const alias = item.variable();
        if (alias) returnItem.alias = variableName(alias);
        return returnItem;
      }),
    };
    const orderBy = ctx.orderBy();
    if (orderBy) projection.orderBy = this.buildOrderBy(orderBy);
    const skip = ctx.skipPart();
    if (skip) projection.skip = this.buildExpression(skip.expression());
    const limit = ctx.limitPart();
    if (limit) projection.limit = this.buildExpression(limit.expression());
    return projection;
  }

  buildOrderBy(ctx: OrderByContext): SortItem[] {
    return ctx.sortItem().map((s) => ({
      expr: this.buildExpression(s.expression()),
      descending: s.DESC() !== null || s.DESCENDING() !== null,
      pos: posOf(s),
    }));
  }

  /** Splits `a.b.c` / `a.b[k]` into the target expression and its last key. */
  splitTarget(ctx: PropertyTargetContext): { target: Expr; last: { key: string } | { keyExpr: Expr } } {
    const suffixes = ctx.targetSuffix();
    let target: Expr = this.buildAtom(ctx.atom());
    const pos = posOf(ctx);
    for (let i = 0; i < suffixes.length - 1; i++) {
      const s = suffixes[i];
      const name = s.schemaName();
      const index = s.expression();
      if (name) target = { kind: 'Property', object: target, key: schemaNameText(name), pos };
      else if (index) target = { kind: 'Index', object: target, index: this.buildExpression(index), pos };
    }
    const lastCtx = suffixes[suffixes.length - 1];
    const lastName = lastCtx.schemaName();
    if (lastName) return { target, last: { key: schemaNameText(lastName) } };
    const lastIndex = lastCtx.expression();
    if (!lastIndex) throw syntaxError('Expected a property', lastCtx);
    return { target, last: { keyExpr: this.buildExpression(lastIndex) } };
  }

  buildSetItem(ctx: SetItemContext): SetItem {
    const pos = posOf(ctx);
    if (ctx instanceof SetPropertyItemContext) {
      const { target, last } = this.splitTarget(ctx.propertyTarget());
      const value = this.buildExpression(ctx.expression());
      if ('key' in last) return { kind: 'SetProperty', target, key: last.key, value, pos };
      return { kind: 'SetDynamicProperty', target, key: last.keyExpr, value, pos };
    }
    if (ctx instanceof SetAllPropertiesItemContext) {
      return { kind: 'SetProperties', variable: variableName(ctx.variable()), value: this.buildExpression(ctx.expression()), merge: false, pos };
    }
    if (ctx instanceof MergePropertiesItemContext) {
      return { kind: 'SetProperties', variable: variableName(ctx.variable()), value: this.buildExpression(ctx.expression()), merge: true, pos };
    }
    if (ctx instanceof SetLabelsItemContext) {
      return { kind: 'SetLabels', variable: variableName(ctx.variable()), ...this.labelItems(ctx.nodeLabels()), pos };
    }
    throw syntaxError('Unsupported SET item', ctx);
  }

  /** The labels of `SET n:A:$(e)` / `REMOVE …`: plain names, and the expressions of dynamic ones. */
  private labelItems(ctx: NodeLabelsContext): { labels: string[]; dynamic?: Expr[] } {
    const dynamic = ctx.dynamicLabel().map((d) => {
      const built = this.buildDynamicLabel(d);
      if (built.any) throw syntaxError('$any(…) cannot be used in SET or REMOVE: every label given is set or removed', d);
      return built.expr;
    });
    return { labels: ctx.schemaName().map(schemaNameText), ...(dynamic.length > 0 ? { dynamic } : {}) };
  }

  buildRemoveItem(ctx: RemoveItemContext): RemoveItem {
    const pos = posOf(ctx);
    if (ctx instanceof RemoveLabelsItemContext) {
      return { kind: 'RemoveLabels', variable: variableName(ctx.variable()), ...this.labelItems(ctx.nodeLabels()), pos };
    }
    if (ctx instanceof RemovePropertyItemContext) {
      const { target, last } = this.splitTarget(ctx.propertyTarget());
      if (!('key' in last)) throw syntaxError('REMOVE needs a property name, not a computed key', ctx);
      return { kind: 'RemoveProperty', target, key: last.key, pos };
    }
    throw syntaxError('Unsupported REMOVE item', ctx);
  }

  buildCall(ctx: CallClauseContext): CallClause {
    const nameCtx = ctx.procedureName();
    const clause: CallClause = {
      kind: 'Call',
      procedure: nameCtx.schemaName().map(schemaNameText).join('.'),
      pos: posOf(ctx),
    };
    const args = ctx.procedureArguments();
    if (args) clause.args = args.expression().map((c) => this.buildExpression(c));
    const yieldPart = ctx.yieldPart();
    if (yieldPart) {
      if (yieldPart.STAR()) clause.yields = '*';
      else {
        clause.yields = yieldPart.yieldItem().map((y) => {
          const item: { name: string; alias?: string; pos: typeof clause.pos } = {
            name: symbolicNameText(y.symbolicName()),
            pos: posOf(y),
          };
          const alias = y.variable();
          if (alias) item.alias = variableName(alias);
          return item;
        });
        const where = yieldPart.whereClause();
        if (where) clause.where = this.buildExpression(where.expression());
      }
    }
    return clause;
  }

  buildSubqueryCall(ctx: SubqueryCallClauseContext): SubqueryCallClause {
    const clause: SubqueryCallClause = {
      kind: 'SubqueryCall',
      query: this.buildQuery(ctx.query()),
      optional: ctx.OPTIONAL() !== null,
      pos: posOf(ctx),
    };
    const scope = ctx.subqueryScope();
    if (scope) clause.importing = scope.STAR() ? '*' : scope.variable().map(variableName);
    const tx = ctx.inTransactions();
    if (tx) {
      const batch = tx.expression();
      clause.inTransactions = batch ? { batchSize: this.buildExpression(batch) } : {};
    }
    return clause;
  }

  buildCreateIndex(ctx: CreateIndexContext): SchemaCommand {
    const kindText = ctx.indexKind()?.getText().toLowerCase() ?? 'range';
    const indexType = (kindText === 'btree' ? 'range' : kindText) as Extract<SchemaCommand, { kind: 'CreateIndex' }>['indexType'];
    const pos = posOf(ctx);
    const pattern = ctx.schemaPattern();
    if (!pattern) {
      // Legacy form: CREATE INDEX ON :Label(prop, ...)
      const names = ctx.schemaName().map(schemaNameText);
      return { kind: 'CreateIndex', ifNotExists: false, entity: 'node', label: names[0], properties: names.slice(1), indexType, pos };
    }
    const { entity, label } = schemaTarget(pattern);
    const labelNames = (pattern instanceof NodeSchemaPatternContext || pattern instanceof RelSchemaPatternContext ? pattern.schemaLabels()?.schemaName() : undefined) ?? [];
    const props = ctx.indexProperties();
    const command: SchemaCommand = {
      kind: 'CreateIndex',
      ifNotExists: ctx.IF() !== null,
      entity,
      label,
      properties: props ? props.propertyRef().map(propertyKey) : [],
      indexType,
      pos,
    };
    if (labelNames.length > 1) command.labels = labelNames.map(schemaNameText);
    const name = indexNameOf(ctx.indexName());
    if (name !== undefined) command.name = name;
    const options = ctx.mapLiteral();
    if (options) command.options = this.buildMapLiteral(options);
    return command;
  }

  buildSchemaCommand(ctx: SchemaCommandContext): SchemaCommand {
    const pos = posOf(ctx);
    const createIndex = ctx.createIndex();
    if (createIndex) return this.buildCreateIndex(createIndex);
    const createConstraint = ctx.createConstraint();
    if (createConstraint) return buildCreateConstraint(createConstraint);
    const dropIndex = ctx.dropIndex();
    if (dropIndex) return { kind: 'DropIndex', name: indexNameOf(dropIndex.indexName()) ?? '', ifExists: dropIndex.IF() !== null, pos };
    const dropConstraint = ctx.dropConstraint();
    if (dropConstraint) {
      return { kind: 'DropConstraint', name: indexNameOf(dropConstraint.indexName()) ?? '', ifExists: dropConstraint.IF() !== null, pos };
    }
    const show = ctx.showCommand();
    const listing: [ShowCommand['what'], ShowTailContext | null] | undefined =
      show instanceof ShowIndexesContext
        ? ['indexes', show.showTail()]
        : show instanceof ShowConstraintsContext
          ? ['constraints', show.showTail()]
          : show instanceof ShowProceduresContext
            ? ['procedures', show.showTail()]
            : show instanceof ShowFunctionsContext
              ? ['functions', show.showTail()]
              : show instanceof ShowDatabasesContext
                ? ['databases', show.showTail()]
                : undefined;
    if (listing) {
      const [what, tail] = listing;
      const indexType = show instanceof ShowIndexesContext ? show.indexKind()?.getText().toUpperCase() : undefined;
      const databaseSymbol = show instanceof ShowDatabasesContext ? show.symbolicName() : null;
      const databaseName = databaseSymbol ? symbolicNameText(databaseSymbol) : undefined;
      return {
        kind: 'Show',
        what,
        pos,
        ...(tail ? { tail: this.buildShowTail(tail) } : {}),
        ...(indexType === undefined ? {} : { indexType }),
        ...(databaseName === undefined ? {} : { database: databaseName }),
      };
    }
    throw syntaxError('Unsupported schema command', ctx);
  }

  /** `YIELD … WHERE … RETURN …` after SHOW, as the clauses that run over the listed rows. */
  buildShowTail(ctx: ShowTailContext): NonNullable<ShowCommand['tail']> {
    const pos = posOf(ctx);
    const where = ctx.whereClause();
    const body = ctx.projectionBody();
    if (!body) {
      const filter: Clause = { kind: 'With', distinct: false, star: true, items: [], pos };
      if (where) filter.where = this.buildExpression(where.expression());
      return { clauses: [filter], yielded: 'default' };
    }
    const yieldClause: Clause = { kind: 'With', ...this.buildProjection(body), pos };
    if (where) yieldClause.where = this.buildExpression(where.expression());
    const clauses: Clause[] = [yieldClause];
    const ret = ctx.returnClause();
    if (ret) clauses.push({ kind: 'Return', ...this.buildProjection(ret.projectionBody()), pos: posOf(ret) });
    const yielded = yieldClause.star ? '*' : yieldClause.items.map((it) => it.alias ?? it.text);
    return { clauses, yielded };
  }
}

/**
 * GQL `q1 NEXT q2`: the rows q1 returns are the input of q2. Desugared into one query by
 * turning q1's final RETURN into a WITH (items without an alias keep their column name).
 */
function chainNext(queries: Query[], ctxs: QueryContext[]): Query {
  let acc = queries[0];
  for (let i = 1; i < queries.length; i++) {
    const next = queries[i];
    if (acc.parts.length !== 1 || next.parts.length !== 1) {
      throw syntaxError('NEXT between queries that use UNION is not supported', ctxs[i]);
    }
    const clauses = acc.parts[0].clauses;
    const last = clauses[clauses.length - 1];
    if (last?.kind !== 'Return') throw syntaxError('The statement before NEXT must end with RETURN', ctxs[i - 1]);
    const asWith: Clause = {
      ...last,
      kind: 'With',
      items: last.items.map((it) => (it.alias !== undefined || it.expr.kind === 'Var' ? it : { ...it, alias: it.text })),
    };
    acc = {
      ...acc,
      parts: [{ ...acc.parts[0], clauses: [...clauses.slice(0, -1), asWith, ...next.parts[0].clauses] }],
    };
  }
  return acc;
}

function indexNameOf(ctx: IndexNameContext | null): string | undefined {
  return ctx ? symbolicNameText(ctx.symbolicName()) : undefined;
}

function propertyKey(ctx: PropertyRefContext): string {
  return schemaNameText(ctx.schemaName());
}

function schemaTarget(ctx: SchemaPatternContext): { entity: 'node' | 'relationship'; label: string } {
  if (ctx instanceof NodeSchemaPatternContext) {
    const labels = ctx.schemaLabels();
    return { entity: 'node', label: labels ? schemaNameText(labels.schemaName(0)!) : '' };
  }
  if (ctx instanceof RelSchemaPatternContext) {
    const labels = ctx.schemaLabels();
    return { entity: 'relationship', label: labels ? schemaNameText(labels.schemaName(0)!) : '' };
  }
  throw syntaxError('Expected a node or relationship pattern', ctx);
}

function constraintProps(ctx: ConstraintPropertiesContext): string[] {
  return ctx.propertyRef().map(propertyKey);
}

function buildCreateConstraint(ctx: CreateConstraintContext): SchemaCommand {
  const { entity, label } = schemaTarget(ctx.schemaPattern());
  const kind = ctx.constraintKind();
  let constraint: 'unique' | 'notNull' | 'nodeKey';
  if (kind instanceof UniqueConstraintContext) constraint = 'unique';
  else if (kind instanceof NotNullConstraintContext) constraint = 'notNull';
  else if (kind instanceof KeyConstraintContext) constraint = 'nodeKey';
  else throw syntaxError('Unsupported constraint kind', kind);
  const command: SchemaCommand = {
    kind: 'CreateConstraint',
    ifNotExists: ctx.IF() !== null,
    entity,
    label,
    properties: constraintProps(ctx.constraintProperties()),
    constraint,
    pos: posOf(ctx),
  };
  const name = indexNameOf(ctx.indexName());
  if (name !== undefined) command.name = name;
  return command;
}
