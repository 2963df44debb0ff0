/**
 * The typed abstract syntax tree of a query. The ANTLR parse tree is turned into this by
 * `astBuilder.ts`; everything after parsing (semantic checks, planning, code generation)
 * reads only these types. Every node carries the position where it starts in the text.
 */

import type { SourcePosition } from '../errors.js';

export type Pos = SourcePosition;

// ---------------------------------------------------------------- expressions

export type Expr =
  | LiteralExpr
  | ParamExpr
  | VarExpr
  | PropertyExpr
  | IndexExpr
  | SliceExpr
  | ListExpr
  | MapExpr
  | MapProjectionExpr
  | UnaryExpr
  | BinaryExpr
  | ComparisonChainExpr
  | IsNullExpr
  | LabelCheckExpr
  | FunctionCallExpr
  | CountStarExpr
  | CaseExpr
  | ListComprehensionExpr
  | PatternComprehensionExpr
  | QuantifierExpr
  | ReduceExpr
  | PatternPredicateExpr
  | ExistsSubqueryExpr
  | CountSubqueryExpr
  | CollectSubqueryExpr
  | TypePredicateExpr;

/**
 * A literal scalar. Integer literals are `bigint` (exact, so that an out-of-range literal is
 * caught); float literals are `number`, whatever their value (`1.0` is a float).
 */
export interface LiteralExpr {
  kind: 'Literal';
  value: null | boolean | bigint | number | string;
  pos: Pos;
}

export interface ParamExpr {
  kind: 'Param';
  /** Name without the `$`; positional parameters (`$1`) have their digits as name. */
  name: string;
  pos: Pos;
}

export interface VarExpr {
  kind: 'Var';
  name: string;
  pos: Pos;
}

/** `object.key` */
export interface PropertyExpr {
  kind: 'Property';
  object: Expr;
  key: string;
  pos: Pos;
}

/** `object[index]` — list index or dynamic map/property key. */
export interface IndexExpr {
  kind: 'Index';
  object: Expr;
  index: Expr;
  pos: Pos;
}

/** `object[from..to]`, either bound optional. */
export interface SliceExpr {
  kind: 'Slice';
  object: Expr;
  from?: Expr;
  to?: Expr;
  pos: Pos;
}

export interface ListExpr {
  kind: 'List';
  items: Expr[];
  pos: Pos;
}

export interface MapExpr {
  kind: 'Map';
  entries: { key: string; value: Expr }[];
  pos: Pos;
}

/** `v { .a, b: expr, c, .* }` */
export interface MapProjectionExpr {
  kind: 'MapProjection';
  object: Expr;
  items: MapProjectionItem[];
  pos: Pos;
}

export type MapProjectionItem =
  | { kind: 'PropertySelector'; key: string } // .key
  | { kind: 'LiteralEntry'; key: string; value: Expr } // key: expr
  | { kind: 'VariableSelector'; name: string } // name (shorthand for name: name)
  | { kind: 'AllProperties' }; // .*

export interface UnaryExpr {
  kind: 'Unary';
  op: 'not' | '-' | '+';
  operand: Expr;
  pos: Pos;
}

export type BinaryOp =
  | 'or'
  | 'xor'
  | 'and'
  | '+'
  | '-'
  | '*'
  | '/'
  | '%'
  | '^'
  | 'in'
  | 'startsWith'
  | 'endsWith'
  | 'contains'
  | '=~'
  | '='
  | '<>'
  | '<'
  | '>'
  | '<='
  | '>=';

export interface BinaryExpr {
  kind: 'Binary';
  op: BinaryOp;
  left: Expr;
  right: Expr;
  pos: Pos;
}

export type ComparisonOp = '=' | '<>' | '<' | '>' | '<=' | '>=';

/**
 * `a < b <= c`: openCypher reads a chain as `a < b AND b <= c` with `b` evaluated once.
 * A single comparison is a BinaryExpr, never a chain of one.
 */
export interface ComparisonChainExpr {
  kind: 'ComparisonChain';
  operands: Expr[];
  ops: ComparisonOp[];
  pos: Pos;
}

export interface IsNullExpr {
  kind: 'IsNull';
  operand: Expr;
  negated: boolean;
  pos: Pos;
}

/** `n:A:B` as an expression (every label must be present), or a GQL label expression `n IS A|B`. */
export interface LabelCheckExpr {
  kind: 'LabelCheck';
  operand: Expr;
  labels: LabelExpr;
  pos: Pos;
}

/** `name(args)`, `ns.name(DISTINCT args)`; `name` keeps the text's case, namespaces joined by '.'. */
export interface FunctionCallExpr {
  kind: 'FunctionCall';
  name: string;
  distinct: boolean;
  args: Expr[];
  pos: Pos;
}

/** `count(*)` */
export interface CountStarExpr {
  kind: 'CountStar';
  pos: Pos;
}

/** `CASE [test] WHEN a THEN b ... [ELSE c] END` */
export interface CaseExpr {
  kind: 'Case';
  test?: Expr;
  whens: { when: Expr; then: Expr }[];
  else?: Expr;
  pos: Pos;
}

/** `[x IN list WHERE pred | proj]` */
export interface ListComprehensionExpr {
  kind: 'ListComprehension';
  variable: string;
  source: Expr;
  where?: Expr;
  projection?: Expr;
  pos: Pos;
}

/** `[p = (a)-->(b) WHERE pred | proj]` */
export interface PatternComprehensionExpr {
  kind: 'PatternComprehension';
  pattern: PathPattern;
  where?: Expr;
  projection: Expr;
  pos: Pos;
}

/** `all(x IN list WHERE pred)`, likewise any, none, single. */
export interface QuantifierExpr {
  kind: 'Quantifier';
  quantifier: 'all' | 'any' | 'none' | 'single';
  variable: string;
  source: Expr;
  where?: Expr;
  pos: Pos;
}

/** `reduce(acc = init, x IN list | expr)` */
export interface ReduceExpr {
  kind: 'Reduce';
  accumulator: string;
  init: Expr;
  variable: string;
  source: Expr;
  expr: Expr;
  pos: Pos;
}

/** A relationship pattern used as a boolean expression: `WHERE (a)-->(b)`. */
export interface PatternPredicateExpr {
  kind: 'PatternPredicate';
  pattern: PathPattern;
  pos: Pos;
}

/**
 * `EXISTS { MATCH ... }`, `EXISTS { (a)-->(b) WHERE ... }`.
 * Exactly one of `query` and `patterns` is set.
 */
export interface ExistsSubqueryExpr {
  kind: 'ExistsSubquery';
  query?: Query;
  patterns?: PathPattern[];
  where?: Expr;
  pos: Pos;
}

/** `COUNT { ... }`, same shape as EXISTS. */
export interface CountSubqueryExpr {
  kind: 'CountSubquery';
  query?: Query;
  patterns?: PathPattern[];
  where?: Expr;
  pos: Pos;
}

/** `COLLECT { MATCH ... RETURN x }` */
export interface CollectSubqueryExpr {
  kind: 'CollectSubquery';
  query: Query;
  pos: Pos;
}

/** GQL `expr IS [NOT] TYPED <type>` / `expr :: <type>`. */
export interface TypePredicateExpr {
  kind: 'TypePredicate';
  operand: Expr;
  /** Upper-cased type name as written, e.g. `INTEGER`, `STRING NOT NULL`, `LIST<INTEGER>`. */
  typeName: string;
  negated: boolean;
  pos: Pos;
}

// ---------------------------------------------------------------- patterns

/** A label expression: plain `:A:B` is `And(A, B)`; GQL adds `|`, `&`, `!` and `%`. */
export type LabelExpr =
  | { kind: 'Label'; name: string }
  | { kind: 'And'; items: LabelExpr[] }
  | { kind: 'Or'; items: LabelExpr[] }
  | { kind: 'Not'; item: LabelExpr }
  | { kind: 'Wildcard' }
  /** `$(e)` / `$all(e)`: every name `e` gives; `$any(e)`: one of them. */
  | { kind: 'Dynamic'; expr: Expr; any: boolean };

export interface NodePattern {
  kind: 'NodePattern';
  variable?: string;
  /** Undefined when the pattern names no label. */
  labels?: LabelExpr;
  /** A map literal or a parameter. */
  properties?: Expr;
  /** GQL element pattern predicate `(n WHERE n.x > 1)`. */
  where?: Expr;
  pos: Pos;
}

export type Direction = 'out' | 'in' | 'both';

export interface RelPattern {
  kind: 'RelPattern';
  variable?: string;
  /** Types: `[:A|B]` is `Or(A, B)`. Undefined when no type is named. */
  types?: LabelExpr;
  direction: Direction;
  properties?: Expr;
  where?: Expr;
  /** Variable length `*`, `*2`, `*2..5`, `*..5`, `*2..`: absent for a single hop. */
  length?: { min?: number; max?: number };
  pos: Pos;
}

/** A quantified group `((a)-[r]->(b)){1,3}` inside a path (GQL). */
export interface QuantifiedGroup {
  kind: 'QuantifiedGroup';
  path: PathPattern;
  min: number;
  /** Undefined means unbounded. */
  max?: number;
  /** GQL predicate inside the group: `((a)-[r]->(b) WHERE r.w > 1){1,3}`. */
  where?: Expr;
  pos: Pos;
}

/** One element of a path after the first node: a relationship (or group) and the node it reaches. */
export type PathStep =
  | { rel: RelPattern; node: NodePattern }
  | { group: QuantifiedGroup; node: NodePattern };

export type PathMode = 'WALK' | 'TRAIL' | 'SIMPLE' | 'ACYCLIC';

/**
 * `p = (a)-[r]->(b)<-[s]-(c)`. `shortest` is set for `shortestPath(...)`,
 * `allShortestPaths(...)` and GQL search prefixes.
 */
export interface PathPattern {
  kind: 'PathPattern';
  variable?: string;
  start: NodePattern;
  steps: PathStep[];
  shortest?: { kind: 'shortest' | 'allShortest' | 'anyK' | 'shortestK'; k?: number };
  mode?: PathMode;
  pos: Pos;
}

// ---------------------------------------------------------------- clauses

export interface ReturnItem {
  expr: Expr;
  alias?: string;
  /** The item's text as written, trimmed: the column name when there is no alias. */
  text: string;
  pos: Pos;
}

export interface SortItem {
  expr: Expr;
  descending: boolean;
  pos: Pos;
}

export interface Projection {
  distinct: boolean;
  /** `RETURN *` / `WITH *`; `items` then holds any extra items after the star. */
  star: boolean;
  items: ReturnItem[];
  orderBy?: SortItem[];
  skip?: Expr;
  limit?: Expr;
}

export interface MatchClause {
  kind: 'Match';
  optional: boolean;
  patterns: PathPattern[];
  where?: Expr;
  pos: Pos;
}

export interface UnwindClause {
  kind: 'Unwind';
  expr: Expr;
  variable: string;
  pos: Pos;
}

export interface WithClause extends Projection {
  kind: 'With';
  where?: Expr;
  pos: Pos;
}

export interface ReturnClause extends Projection {
  kind: 'Return';
  pos: Pos;
}

export interface CreateClause {
  kind: 'Create';
  patterns: PathPattern[];
  pos: Pos;
}

export interface MergeClause {
  kind: 'Merge';
  pattern: PathPattern;
  onCreate: SetItem[];
  onMatch: SetItem[];
  pos: Pos;
}

export type SetItem =
  /** `target.key = value`; target is any expression that yields a node, relationship or map. */
  | { kind: 'SetProperty'; target: Expr; key: string; value: Expr; pos: Pos }
  /** `target[keyExpr] = value` (dynamic key). */
  | { kind: 'SetDynamicProperty'; target: Expr; key: Expr; value: Expr; pos: Pos }
  /** `n = map` (replace all) or `n += map` (merge). */
  | { kind: 'SetProperties'; variable: string; value: Expr; merge: boolean; pos: Pos }
  /** `n:A:B` */
  | { kind: 'SetLabels'; variable: string; labels: string[]; dynamic?: Expr[]; pos: Pos };

export interface SetClause {
  kind: 'Set';
  items: SetItem[];
  pos: Pos;
}

export type RemoveItem =
  | { kind: 'RemoveProperty'; target: Expr; key: string; pos: Pos }
  | { kind: 'RemoveLabels'; variable: string; labels: string[]; dynamic?: Expr[]; pos: Pos };

export interface RemoveClause {
  kind: 'Remove';
  items: RemoveItem[];
  pos: Pos;
}

export interface DeleteClause {
  kind: 'Delete';
  detach: boolean;
  exprs: Expr[];
  pos: Pos;
}

/** `CALL ns.proc(args) YIELD a, b AS c WHERE ...`; `args` undefined for the implicit-argument form `CALL ns.proc`. */
export interface CallClause {
  kind: 'Call';
  procedure: string;
  args?: Expr[];
  /** Undefined when there is no YIELD; `'*'` for `YIELD *`. */
  yields?: { name: string; alias?: string; pos: Pos }[] | '*';
  where?: Expr;
  pos: Pos;
}

/** `CALL { subquery }` with optional importing `CALL (a, b) { }` and `IN TRANSACTIONS`. */
export interface SubqueryCallClause {
  kind: 'SubqueryCall';
  query: Query;
  /** Variables imported by the GQL/Neo4j 5 scope form `CALL (a, b) { }`; undefined when not used. */
  importing?: string[] | '*';
  optional: boolean;
  inTransactions?: { batchSize?: Expr };
  pos: Pos;
}

/** `FOREACH (x IN list | updates)` */
export interface ForeachClause {
  kind: 'Foreach';
  variable: string;
  source: Expr;
  clauses: Clause[];
  pos: Pos;
}

/** `LOAD CSV [WITH HEADERS] FROM url AS row [FIELDTERMINATOR ',']` */
export interface LoadCsvClause {
  kind: 'LoadCsv';
  withHeaders: boolean;
  url: Expr;
  variable: string;
  fieldTerminator?: string;
  pos: Pos;
}

/** GQL `FILTER [WHERE] expr` */
export interface FilterClause {
  kind: 'Filter';
  where: Expr;
  pos: Pos;
}

/** GQL `LET x = expr, y = expr` */
export interface LetClause {
  kind: 'Let';
  bindings: { variable: string; expr: Expr }[];
  pos: Pos;
}

/** GQL `ORDER BY ... OFFSET/SKIP ... LIMIT ...` as a standalone statement. */
export interface OrderByPageClause {
  kind: 'OrderByPage';
  orderBy?: SortItem[];
  skip?: Expr;
  limit?: Expr;
  pos: Pos;
}

export type Clause =
  | MatchClause
  | UnwindClause
  | WithClause
  | ReturnClause
  | CreateClause
  | MergeClause
  | SetClause
  | RemoveClause
  | DeleteClause
  | CallClause
  | SubqueryCallClause
  | ForeachClause
  | LoadCsvClause
  | FilterClause
  | LetClause
  | OrderByPageClause;

export interface SingleQuery {
  kind: 'SingleQuery';
  clauses: Clause[];
  pos: Pos;
}

/** Parts joined by UNION / UNION ALL; `unionAll[i]` tells how parts[i] joins parts[i+1]. */
export interface Query {
  kind: 'Query';
  parts: SingleQuery[];
  unionAll: boolean[];
  pos: Pos;
}

// ---------------------------------------------------------------- schema commands

export type SchemaCommand =
  | {
      kind: 'CreateIndex';
      name?: string;
      ifNotExists: boolean;
      /** Node label or relationship type. */
      entity: 'node' | 'relationship';
      label: string;
      /** Every label or type of `(n:A|B)` (full-text indexes); `label` is the first. */
      labels?: string[];
      properties: string[];
      indexType: 'range' | 'text' | 'vector' | 'fulltext' | 'point' | 'lookup';
      options?: Expr;
      pos: Pos;
    }
  | { kind: 'DropIndex'; name: string; ifExists: boolean; pos: Pos }
  | {
      kind: 'CreateConstraint';
      name?: string;
      ifNotExists: boolean;
      entity: 'node' | 'relationship';
      label: string;
      properties: string[];
      constraint: 'unique' | 'notNull' | 'nodeKey';
      pos: Pos;
    }
  | { kind: 'DropConstraint'; name: string; ifExists: boolean; pos: Pos }
  | ShowCommand;

/**
 * `SHOW …`, optionally with Neo4j 5's tail: `tail` holds the clauses that run over the
 * listed rows (the YIELD as a WITH carrying the WHERE, then the RETURN when there is one);
 * `yielded` names the columns a tail without RETURN returns (`'*'`: all, in listing order).
 */
export interface ShowCommand {
  kind: 'Show';
  what: 'indexes' | 'constraints' | 'procedures' | 'functions' | 'databases';
  /** `'default'`: a tail of WHERE alone, which returns the command's default columns. */
  tail?: { clauses: Clause[]; yielded: string[] | '*' | 'default' };
  /** `SHOW DATABASE name`: the database asked for. */
  database?: string;
  /** `SHOW VECTOR INDEXES` / `SHOW FULLTEXT INDEXES`: the index kind asked for. */
  indexType?: string;
  pos: Pos;
}

/** The parser's result: a query, a schema command, either of them wrapped in EXPLAIN / PROFILE. */
export interface Statement {
  kind: 'Statement';
  body: Query | SchemaCommand;
  explain?: 'explain' | 'profile';
  pos: Pos;
}
