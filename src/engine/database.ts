/**
 * `Database`: the one handle every access layer and embedder uses. It owns the graph, the
 * procedure registry and the compiled-query cache, and runs each query as parse → semantic
 * check → plan → generate → execute inside a store transaction, so a query either commits
 * whole or leaves no trace. Queries run synchronously on the event loop, which serialises
 * writers; the async methods exist so that durable commits can await their log flush. A write
 * that a query worker ran on its replica arrives as change records (`applyWorkerWrite`), applied
 * a slice per turn of the event loop; any entry that reads or changes the graph meanwhile
 * finishes it first.
 */

import { parseStatement } from '../frontend/parse-entry.js';
import { checkStatement } from '../frontend/semantic.js';
import type { Statement, SchemaCommand, ShowCommand } from '../frontend/ast.js';
import { anyChanges, Graph, zeroStats } from '../store/graph.js';
import { constraintNameFor, Schema } from '../store/schema.js';
import { ProcedureRegistry } from '../../procedures/registry.js';
import { ExecutionHost, newIdentity, type HostInternals } from './procedure-host.js';
import { registerBuiltinProcedures } from '../../procedures/builtin.js';
import { Planner, type Statistics } from '../planner/planner.js';
import { compilePlan, isStale, LruCache, type CompiledQuery } from '../../codegen/compile.js';
import { explainPlan } from '../../codegen/explain.js';
import { ExecContext } from '../../runtime/graph/context.js';
import { FileAccessPolicy } from '../../runtime/graph/file-access.js';
import { activate, deactivate, DEFAULT_MEMORY_LIMITS, Governor, type MemoryLimits } from '../../runtime/governor.js';
import { fromJs } from '../../runtime/format.js';
import type { Value } from '../../runtime/values.js';
import type {
  DatabaseOptions,
  EngineStats,
  QueryOptions,
  QueryParams,
  QueryResult,
  QueryStats,
} from './types.js';
import { PRIMARY_ONLY } from './workers/protocol.js';
import type { WorkerDatabaseOptions } from './workers/worker-options.js';
import {
  AccessDeniedError,
  ArgumentError,
  GraphDbError,
  isTransientError,
  ParameterMissingError,
  ProcedureError,
  QueryCancelledError,
  QuerySemanticError,
  ResourceLimitError,
  toGraphDbError,
  TransactionConflictError,
  ValueTypeError,
} from '../errors.js';
import { lookupFunction } from '../../functions/registry.js';
import { AGGREGATE_NAMES } from '../planner/exprUtil.js';
import { SHOW_ROWS_PARAM, showRows, showTailQuery } from './showQuery.js';
import { defaultColumns, showListing } from './show-listings.js';
import type { DurableStore, StorageOptions } from '../store/persist/durable-store.js';
import { EncodedCommit, type LoggedChange } from '../store/persist/record-codec.js';
import { APPLY_SLICE_MS, decodeInSlices, type PackedPayloads } from './workers/commit-slices.js';
import { nextTurn } from '../event-loop.js';
import type { ChangeRecord } from '../store/changes.js';
import { applySchemaDefinition, schemaDefinition } from '../store/persist/schema-def.js';
import type { SyncHandle } from '../sync/attach.js';
import { LazyModule } from '../lazy-module.js';
import { createFulltextIndex, createVectorIndex, EXTENSION_SHOW_COLUMNS, extensionIndexRows } from './extension-ddl.js';
import { registerRetrieval, type Retrieval } from './retrieval.js';
import { propertySelectivity } from '../vector/filter-statistics.js';
import { engineMemory } from '../store/memory.js';
import { validateObservationChanges } from '../observation/validate.js';
import { registerObservationProcedures } from '../observation/procedures.js';
import { registerRagProcedures } from '../rag/procedures.js';
import { SkillStore } from '../skills/store.js';
import { registerSkillProcedures } from '../skills/procedures.js';
import type { ReplicationHook } from '../replication/hook.js';
import { registerReplicationProcedures } from '../replication/procedures.js';
import { WriterSlot } from './writer-slot.js';
import { ReadSnapshots, refusePrimaryOnly, type ReadPin, type RemoteSnapshots } from './read-snapshots.js';
import { notInTransaction, Transaction, type StatementOptions, type TransactionHost, type TransactionOptions } from './transaction.js';
import { decodeRecords, encodeRecords } from './workers/value-transfer.js';

interface Prepared {
  compiled?: CompiledQuery;
  /** A schema command (CREATE INDEX, SHOW …) runs directly rather than as compiled code. */
  schemaCommand?: SchemaCommand;
  /** `Schema.planVersion` when the plan was made: index changes, and an index coming online, re-plan. */
  planVersion: number;
  /** EXPLAIN: return the plan instead of running. */
  explainOnly: boolean;
  /** PROFILE: run an instrumented build and return the plan with row counts. */
  profile?: boolean;
  explainText?: string;
  slotNames: ReadonlyMap<string, string>;
  /** A SHOW with a YIELD/WHERE/RETURN tail: the listing whose rows the compiled tail reads. */
  showListing?: ShowCommand;
}

/**
 * A worker's write being applied a slice at a time (`Database.applyWorkerWrite`): its
 * transaction stays open on the graph between turns of the event loop.
 */
interface SlicedApply {
  /** The graph's mutation sequence before it (what `committedSeq` answers until it commits). */
  before: number;
  /** The graph's counts before it (what `committedCounts` answers until it commits). */
  counts: { nodes: number; relationships: number };
  changes: readonly LoggedChange[];
  /** Its WAL encoding (the worker's payloads), logged as they are. */
  encoded: string[];
  /** The next change to apply. */
  next: number;
  schemaVersion: number;
  schemaBefore: ReturnType<typeof schemaDefinition>;
  /** Set once it is over: committed (and when durable), or undone and why. */
  outcome: { durable: Promise<void> } | GraphDbError | undefined;
}

/** A transaction that replays records whose WAL encoding is known (a query worker's commit). */
interface Replayed {
  count: number;
  encoded: string[];
  /** Its records were checked against the observation rules as they were applied. */
  observationChecked?: boolean;
}

/** Defaults of the explicit transactions' limits (DatabaseOptions). */
const TRANSACTION_TIMEOUT_MS = 60_000;
const MAX_OPEN_TRANSACTIONS = 1000;
const MAX_TRANSACTION_CHANGES = 1_000_000;

/** Longest query text the plan cache keeps. */
const MAX_CACHED_QUERY_CHARS = 64 * 1024;

/** Sync (the sync node, its log, auto-sync and transports) loads only for a database opened with `sync`. */
const syncModule = new LazyModule(import.meta.url, '../sync/attach.js', () => import('../sync/attach.js'));
// Frozen copies serve only read transactions pinned behind a commit; the image code (and the
// store-of-record blocks it shares) stays out of a start-up that never pins one.
const graphImageModule = new LazyModule(import.meta.url, '../store/persist/graph-image.js', () => import('../store/persist/graph-image.js'));

export class Database implements TransactionHost {
  /** The graph itself: everyone else reads it through `graph`, which finishes a sliced apply first. */
  private readonly liveGraph = new Graph();
  readonly schema = new Schema(this.liveGraph);
  readonly procedures = new ProcedureRegistry();
  /** Skills (src/skills): stored in the data directory with the graph, or in memory. */
  readonly skills = new SkillStore(() => this.durable?.dir);
  /** What the optimizer reads: the graph's counts and the schema's indexes. */
  private readonly statistics: Statistics;
  private readonly cache: LruCache<string, Prepared>;
  private readonly queryTimeoutMs: number;
  private readonly fileAccess: FileAccessPolicy;
  private readonly memoryLimits: MemoryLimits;
  private closed = false;
  /** Set while `executeInTransaction` runs: its statements share one store transaction. */
  private sharedTx = false;
  /** Sync between instances (src/sync), when switched on: told of every commit before it is made durable, and to undo it if that fails. */
  sync: SyncHandle | undefined;
  /** Replication (src/replication), when configured: a write guard and a commit observer. */
  replication: ReplicationHook | undefined;
  /**
   * A log kept outside a data directory (the browser build's OPFS store, src/browser): each
   * commit is written to it before it becomes visible, and a throw refuses the commit (undone
   * whole). Schema changes are written after they are made, so it must not refuse those.
   */
  commitSink: ((commit: EncodedCommit) => void) | undefined;
  /** What procedures may use of this database (procedure-host.ts); per execution they get an ExecutionHost over it. */
  private readonly hostInternals: HostInternals;
  /** Vector, full-text and embedding services (src/engine/retrieval.ts). */
  private readonly retrieval: Retrieval;
  // ---- persistence (--data-dir; src/store/persist). Undefined for an in-memory database.
  private durable: DurableStore | undefined;
  /** Set while an async method runs a query: its commit is group-committed instead of fsynced inline. */
  private deferDurability = false;
  /** The durability promise of the last deferred commit, for the async method to await. */
  private pendingDurable: Promise<void> | undefined;
  /** Told of every commit (`observeCommits`). */
  private readonly commitObservers = new Set<(commit: EncodedCommit) => void>();
  /** A worker's write being applied a slice per turn (`applyWorkerWrite`), if any. */
  private sliced: SlicedApply | undefined;
  // ---- explicit transactions (transaction.ts, docs/TRANSACTIONS.md)
  /** One writer at a time: held by a write transaction from its first write to its end. */
  readonly writerSlot = new WriterSlot();
  /** The states open transactions read. */
  private readonly snapshots = new ReadSnapshots<Database>(() => this.frozenCopy());
  private readonly openTransactions = new Set<Transaction>();
  /** Set while a transaction's statement runs: its changes are rolled back at its end, so no snapshot is needed for them. */
  private quietChanges = false;

  constructor(private readonly options: DatabaseOptions = {}) {
    this.cache = new LruCache(options.planCacheSize ?? 1000);
    this.queryTimeoutMs = options.queryTimeoutMs ?? 0;
    this.fileAccess = options.fileAccess ?? (options.csvImportRoot !== undefined ? FileAccessPolicy.confined(options.csvImportRoot) : FileAccessPolicy.local());
    this.memoryLimits = { ...DEFAULT_MEMORY_LIMITS, ...options.memoryLimits };
    registerBuiltinProcedures(this.procedures);
    this.hostInternals = this.makeHostInternals(options);
    this.retrieval = registerRetrieval(this.procedures, this.schema, options);
    registerObservationProcedures(this.procedures);
    registerRagProcedures(this.procedures, this.retrieval.embedding);
    registerSkillProcedures(this.procedures, this.skills, (query) => this.hostInternals.compile(query));
    registerReplicationProcedures(this.procedures, () => this.replication);
    this.liveGraph.beforeChange = () => {
      if (!this.quietChanges) this.snapshots.beforeChange();
    };
    const g = this.graph;
    const schema = this.schema;
    this.statistics = {
      get nodeCount() {
        return g.nodeCount;
      },
      get relCount() {
        return g.relCount;
      },
      labelCount: (l) => g.labelCount(l),
      typeCount: (t) => g.typeCount(t),
      hasIndex: (l, k) => schema.hasIndex(l, k),
      indexSelectivity: (l, k) => schema.indexSelectivity(l, k),
      propertySelectivity: (entity, label, key, test, value) => propertySelectivity(g, schema, entity, label, key, test, value),
    };
  }

  /**
   * The graph. A worker's write still being applied in slices (`applyWorkerWrite`) is finished
   * first, synchronously, so that whoever reads or changes the graph never sees half of it.
   */
  get graph(): Graph {
    if (this.sliced !== undefined) this.finishPendingApply();
    return this.liveGraph;
  }

  /** The graph's mutation sequence at its last commit: a worker's write being applied in slices counts only once committed. */
  get committedSeq(): number {
    return this.sliced?.before ?? this.liveGraph.mutationSeq;
  }

  /** Node and relationship counts at the last commit, without finishing a worker's write being applied (for probes such as /ready). */
  committedCounts(): { nodes: number; relationships: number } {
    return this.sliced?.counts ?? { nodes: this.liveGraph.nodeCount, relationships: this.liveGraph.relCount };
  }

  /** Memory estimate (`stats().memory`) without finishing a worker's write being applied: a figure for /status, which must not hold the main thread. */
  memoryNow(): EngineStats['memory'] {
    return engineMemory(this.liveGraph);
  }

  /** Whether a worker's write is being applied in slices: anything run on this database now finishes it first. */
  get applyPending(): boolean {
    return this.sliced !== undefined;
  }

  /** The schema definition of the last schema version asked for: most writes leave the schema as it is. */
  private schemaDefinitionCache: { version: number; def: ReturnType<typeof schemaDefinition> } | undefined;

  /**
   * The schema's definition now (what a query that changes the schema is undone to, and what
   * the log records), rebuilt only when the schema version moved: every write asks for it.
   */
  private currentSchemaDefinition(): ReturnType<typeof schemaDefinition> {
    const cached = this.schemaDefinitionCache;
    if (cached?.version === this.schema.version) return cached.def;
    const def = schemaDefinition(this.schema);
    this.schemaDefinitionCache = { version: this.schema.version, def };
    return def;
  }

  /** A database with no persistence: the graph lives in this process only. */
  static openInMemory(options?: DatabaseOptions): Database {
    const db = new Database(options);
    if (options?.sync) syncModule.get().attachSync(db, options.sync, (h) => (db.sync = h));
    return db;
  }

  /**
   * A database on a data directory when `dataDir` is given (recovering what is there), else
   * in memory. Writes are acknowledged only once they are durable; see docs/STORAGE.md.
   */
  static async open(options: DatabaseOptions & { dataDir?: string; storage?: StorageOptions } = {}): Promise<Database> {
    const db = new Database(options);
    const log = options.storage?.log === null ? undefined : (options.storage?.log ?? process.stderr);
    const warn = (message: string): void => void log?.write(message + '\n');
    if (options.dataDir !== undefined) db.retrieval.attachDataDir(options.dataDir, warn);
    if (options.dataDir !== undefined) {
      const afterCheckpoint = (): Promise<void> => db.saveRetrievalIndexes().catch((err: unknown) => warn(`graphdb: saving the vector and full-text indexes failed (the next open catches them up): ${err instanceof Error ? err.message : String(err)}`));
      // Loaded here, not at start-up: an in-memory database never needs the persistence layer.
      const { DurableStore } = await import('../store/persist/durable-store.js');
      db.durable = await DurableStore.open(db.graph, db.schema, options.dataDir, { ...options.storage, forceEmpty: options.forceEmpty ?? options.storage?.forceEmpty, afterCheckpoint });
    }
    if (options.sync) {
      try {
        (await syncModule.preload()).attachSync(db, options.sync, (h) => (db.sync = h), options.dataDir);
      } catch (err) {
        db.close();
        throw toGraphDbError(err);
      }
    }
    return db;
  }

  /** The data directory's persistence layer, when there is one (checkpoint, snapshot, recovery report). */
  get storage(): DurableStore | undefined {
    return this.durable;
  }

  /** Makes a commit durable: inline fsync for executeSync, group commit for the async methods. */
  private persist(log: (durable: DurableStore, deferred: boolean) => Promise<void> | undefined): void {
    if (this.durable) this.pendingDurable = log(this.durable, this.deferDurability);
  }

  /**
   * Makes a validated transaction visible after `log` has written it to the WAL: sync records
   * it first and takes it back when the log write fails (a full disk), so neither memory nor
   * the sync log ever runs ahead of the WAL. Returns what `log` returned.
   */
  private commitLogged<T>(committed: readonly ChangeRecord[], commit: EncodedCommit, log: () => T): T {
    const syncCommit = this.sync?.committed(committed);
    let logged: T;
    try {
      if (commit.changes.length > 0) this.commitSink?.(commit);
      logged = log();
    } catch (err) {
      syncCommit?.undo();
      throw err;
    }
    this.graph.commit();
    return logged;
  }

  /**
   * Calls `observer` after every commit with its change records and their WAL encoding (in
   * commit order, before the writing call returns): the query workers' replicas follow the
   * graph through it. Returns the function that stops the calls.
   */
  observeCommits(observer: (commit: EncodedCommit) => void): () => void {
    this.commitObservers.add(observer);
    return () => void this.commitObservers.delete(observer);
  }

  private notifyCommitted(commit: EncodedCommit): void {
    if (commit.changes.length === 0) return;
    for (const observer of this.commitObservers) observer(commit);
  }

  /** Tells replication of a commit; a synchronous replica acknowledgement joins what the async methods wait for. */
  private replicate(commit: EncodedCommit): void {
    this.notifyCommitted(commit);
    const replicated = this.replication?.committed(commit.changes);
    if (!replicated) return;
    // executeSync cannot wait: its caller gets no replica acknowledgement (nor an unhandled rejection).
    if (!this.deferDurability) return void replicated.catch(() => undefined);
    this.pendingDurable = this.pendingDurable ? Promise.all([this.pendingDurable, replicated]).then(() => undefined) : replicated;
  }

  /** Runs `executeSync` with group-committed durability and waits until its writes are on disk. */
  private async executeDurably(query: string, params?: QueryParams, options?: QueryOptions): Promise<QueryResult> {
    // A full-text search waits here, not on the event loop, for a background index build to end.
    const building = this.retrieval.fulltextBuilds(query);
    if (building) await building;
    // A write waits its turn while an explicit transaction holds the writer slot.
    const slotted = this.writerSlot.busy && !options?.readOnly && this.mutatesQuietly(query);
    if (slotted) await this.writerSlot.take(options?.timeoutMs ?? this.queryTimeoutMs);
    this.deferDurability = true;
    this.pendingDurable = undefined;
    let result: QueryResult;
    let durable: Promise<void> | undefined;
    try {
      result = this.executeSync(query, params, options);
      durable = this.pendingDurable;
    } finally {
      this.deferDurability = false;
      this.pendingDurable = undefined;
      if (slotted) this.writerSlot.release();
    }
    // A read (or a write that changed nothing) waits for the writes it could have seen to be durable.
    durable ??= this.durable?.readBarrier();
    if (durable) {
      try {
        await durable;
      } catch (err) {
        throw toGraphDbError(err);
      }
    }
    return result;
  }

  /** `isMutating`, with a query that does not compile counted as a read (its run reports the error). */
  private mutatesQuietly(query: string): boolean {
    try {
      return this.isMutating(query);
    } catch {
      return false;
    }
  }

  private makeHostInternals(options: DatabaseOptions): HostInternals {
    const durable = () => this.durable;
    return {
      graph: this.graph,
      procedures: this.procedures,
      compile: (query) => {
        const p = this.prepare(query);
        return p.explainOnly ? undefined : p.compiled;
      },
      clearCache: () => {
        const n = this.cache.size;
        this.cache.clear();
        return n;
      },
      checkpoint: () => {
        if (!this.durable) return false;
        // A checkpoint folds the log asynchronously; a failure is reported by the storage layer's own health checks.
        void this.checkpoint().catch(() => undefined);
        return true;
      },
      fileAccess: this.fileAccess,
      get dataDir() {
        return durable()?.dir;
      },
      settings: [
        { name: 'db.transaction.timeout', description: 'Time limit of a query in milliseconds (0: none)', value: String(options.queryTimeoutMs ?? 0), dynamic: false },
        { name: 'server.query_cache_size', description: 'Number of compiled queries kept', value: String(options.planCacheSize ?? 1000), dynamic: false },
        { name: 'server.directories.import', description: 'Directory LOAD CSV and the file procedures are confined to', value: options.csvImportRoot ?? '', dynamic: false },
        { name: 'browser.allow_outgoing_connections', description: 'Whether a browser may fetch remote content', value: 'false', dynamic: false },
      ],
      identity: newIdentity(),
    };
  }

  // ---------------------------------------------------------------- compile

  /** Texts compiled so far (plan-cache misses): a query worker tells the router whether a run included its compile. */
  compileCount = 0;

  private prepare(query: string): Prepared {
    if (this.sliced !== undefined) this.finishPendingApply();
    const cached = this.cache.get(query);
    if (
      cached &&
      cached.planVersion === this.schema.planVersion &&
      !(cached.compiled && isStale(cached.compiled, this.graph))
    ) {
      return cached;
    }
    this.compileCount++;
    const stmt = parseStatement(query);
    const prepared = this.plan(stmt);
    // Very long texts are not cached: a cache of 1000 multi-megabyte keys would fill memory.
    if (query.length <= MAX_CACHED_QUERY_CHARS) this.cache.set(query, prepared);
    return prepared;
  }

  private plan(stmt: Statement): Prepared {
    if (stmt.body.kind === 'Show' && stmt.body.tail) {
      const { tail: _tail, ...listing } = stmt.body;
      const { columns, defaults } = showListing(this.schema, this.procedures, listing);
      const query = showTailQuery(stmt.body, stmt.body.tail, columns, defaults);
      return { ...this.plan({ ...stmt, body: query }), showListing: listing };
    }
    if (stmt.body.kind !== 'Query') {
      return { schemaCommand: stmt.body, explainOnly: false, slotNames: new Map(), planVersion: this.schema.planVersion };
    }
    checkStatement(stmt, {
      isKnownFunction: (name) => lookupFunction(name) !== undefined || AGGREGATE_NAMES.has(name.toLowerCase()),
      lookupProcedure: (name) => this.procedures.get(name),
    });
    const planner = new Planner(this.statistics, this.procedures);
    const { root, columns } = planner.planQuery(stmt.body);
    const profile = stmt.explain === 'profile';
    const compiled = compilePlan(root, columns, planner, this.graph, profile);
    const explainOnly = stmt.explain === 'explain';
    return {
      compiled,
      explainOnly,
      profile,
      explainText: explainOnly ? explainPlan(root, planner.slotNames) : undefined,
      slotNames: planner.slotNames,
      planVersion: this.schema.planVersion,
    };
  }

  /** The optimised plan of a query as text (EXPLAIN without running). */
  explain(query: string): string {
    try {
      const p = this.prepare(query);
      return p.compiled ? explainPlan(p.compiled.plan, p.slotNames) : '';
    } catch (err) {
      throw toGraphDbError(err);
    }
  }

  /** The JavaScript source generated for a query. */
  generatedSource(query: string): string {
    try {
      return this.prepare(query).compiled?.source ?? '';
    } catch (err) {
      throw toGraphDbError(err);
    }
  }

  /** True when the query would change the graph (used by read-only doors such as MCP read_query). */
  isMutating(query: string, timeoutMs: number = this.queryTimeoutMs): boolean {
    // Compiling is bounded by the query time limit here too: the caller asks before it runs.
    const previousGovernor = activate(new Governor(timeoutMs, this.memoryLimits, performance.now()));
    try {
      return this.prepare(query).compiled?.mutates ?? false;
    } catch (err) {
      throw toGraphDbError(err);
    } finally {
      deactivate(previousGovernor);
    }
  }

  // ---------------------------------------------------------------- execute

  /**
   * An index or constraint statement (or SHOW …) of `executeSync`. Apart from the compiled
   * path so that the function every query runs stays small: V8 optimizes a function only after
   * it has run a multiple of its own bytecode, so cold branches delay a small write's tier-up.
   */
  private runSchemaStatement(command: SchemaCommand, options: QueryOptions, started: number): QueryResult {
    if (options.readOnly && command.kind !== 'Show') {
      throw new QuerySemanticError('Schema changes are writes; use a write call instead', 'WriteInReadOnlyCall');
    }
    if (options.allow !== undefined && command.kind !== 'Show' && !options.allow.includes('admin')) {
      throw new AccessDeniedError('Index and constraint changes are administration: they need the server\'s key (or, on a server without one, a client on the same machine that is not a web page)');
    }
    if (this.sharedTx && command.kind !== 'Show') {
      throw new QuerySemanticError('Index and constraint changes cannot run inside an explicit transaction', 'SchemaChangeInTransaction');
    }
    if (command.kind !== 'Show') this.replication?.beforeWrite();
    const r = runSchemaCommand(this, command);
    if (r.mutated) this.persist((d, deferred) => d.commitSchema(deferred));
    if (r.mutated) {
      const commit = new EncodedCommit([{ op: 'schema', def: this.currentSchemaDefinition() }]);
      this.commitSink?.(commit);
      this.replicate(commit);
    }
    return { ...r, stats: zeroStats(), elapsedMs: performance.now() - started };
  }

  /**
   * Runs a writing query in a transaction of its own: validated, logged, committed and
   * replicated, or rolled back with whatever schema change a procedure of it made.
   */
  private runInOwnTransaction(compiled: CompiledQuery, P: Map<string, Value>, ctx: ExecContext): Value[][] {
    const g = this.graph;
    // A procedure may change the schema (db.index.vector.createNodeIndex): it commits or rolls back with the query.
    const schemaVersion = this.schema.version;
    const schemaBefore = this.currentSchemaDefinition();
    g.begin();
    let records: Value[][];
    try {
      records = compiled.run(g, P, ctx);
      const { committed, commit } = this.sealTransaction(schemaVersion);
      // Persistence: the records reach the WAL (fsynced, or queued for group commit) before the result is returned.
      this.commitLogged(committed, commit, () => this.persist((d, deferred) => (deferred ? d.commitDeferred(commit) : void d.commitSync(commit))));
      this.replicate(commit);
    } catch (err) {
      this.skills.rollback();
      this.undoTransaction(schemaVersion, schemaBefore);
      throw err;
    }
    // Skill changes (src/skills/store.ts) are written once the graph's are committed, before the answer.
    this.skills.commit();
    return records;
  }

  /** Runs any query synchronously; throws a GraphDbError on failure (after undoing its changes). */
  executeSync(query: string, params?: QueryParams, options: QueryOptions = {}): QueryResult {
    if (this.sliced !== undefined) this.finishPendingApply();
    const started = performance.now();
    const timeoutMs = options.timeoutMs ?? this.queryTimeoutMs;
    // The deadline counts from here, so compiling a huge query text is bounded too.
    if (options.signal?.aborted) throw new QueryCancelledError();
    const compiling = new Governor(timeoutMs, this.memoryLimits, started);
    compiling.cancel = options.cancel;
    const previousGovernor = activate(compiling);
    try {
      if (this.closed) throw new QuerySemanticError('The database is closed', 'DatabaseClosed');
      const prepared = this.prepare(query);
      if (prepared.explainOnly) {
        return {
          columns: ['plan'],
          records: [[prepared.explainText ?? '']],
          stats: zeroStats(),
          mutated: false,
          elapsedMs: performance.now() - started,
        };
      }
      if (prepared.schemaCommand) return this.runSchemaStatement(prepared.schemaCommand, options, started);
      const compiled = prepared.compiled as CompiledQuery;
      if (options.readOnly && compiled.mutates) {
        throw new QuerySemanticError(
          'This query changes the graph, but it was sent through a read-only call; use a write call (mutate / write_query) instead',
          'WriteInReadOnlyCall',
        );
      }
      if (compiled.mutates) this.replication?.beforeWrite();
      const P = convertParams(params);
      if (prepared.showListing) P.set(SHOW_ROWS_PARAM, showRows(showListing(this.schema, this.procedures, prepared.showListing)));
      const names = compiled.params;
      for (let i = 0; i < names.length; i++) if (!P.has(names[i])) throw new ParameterMissingError(names[i], 'compile');
      const ctx: ExecContext = new ExecContext(
        this.graph,
        this.schema,
        timeoutMs,
        { access: this.fileAccess, checkDeadline: () => ctx.checkDeadline() },
        this.retrieval.embedding,
        this.memoryLimits,
        started,
      );
      ctx.host = new ExecutionHost(this.hostInternals, ctx);
      ctx.cancel = options.cancel;
      if (options.allow !== undefined) ctx.allow = new Set(options.allow);
      activate(ctx);
      if (prepared.profile) ctx.rows = new Array<number>(compiled.profiledOps.length).fill(0);
      const profiled = (r: QueryResult): QueryResult => {
        if (!prepared.profile) return r;
        const text = explainPlan(compiled.plan, prepared.slotNames, (op) => {
          const k = compiled.profiledOps.indexOf(op);
          return k < 0 ? undefined : ctx.rows[k];
        });
        const summary = `${r.records.length} result rows in ${r.elapsedMs.toFixed(2)} ms (rows per operator; time is not split per operator because operators are fused into one loop)`;
        if (options.profileRows === true) return { ...r, profile: `${text}\n${summary}` };
        return { ...r, columns: ['plan'], records: [[`${text}\n${summary}`]] };
      };
      if (!compiled.mutates) {
        if (options.maxRows !== undefined) ctx.maxRows = options.maxRows;
        const sink = options.sink !== undefined && compiled.streamable && !prepared.profile ? options.sink : undefined;
        if (sink !== undefined) sink.columns = compiled.columns;
        ctx.sink = sink;
        const out = compiled.run(this.graph, P, ctx);
        const records = sink === undefined ? out : sink.rest();
        return profiled({ columns: compiled.columns, records, stats: zeroStats(), mutated: false, elapsedMs: performance.now() - started });
      }
      const g = this.graph;
      if (this.sharedTx) {
        const before = g.txStats();
        const records = compiled.run(g, P, ctx);
        const stats = statsSince(g.txStats(), before);
        const mutated = anyChanges(stats);
        return profiled({ columns: compiled.columns, records, stats, mutated, elapsedMs: performance.now() - started });
      }
      const records = this.runInOwnTransaction(compiled, P, ctx);
      const stats = g.txStats();
      const mutated = anyChanges(stats);
      return profiled({ columns: compiled.columns, records, stats, mutated, elapsedMs: performance.now() - started });
    } catch (err) {
      throw toGraphDbError(err);
    } finally {
      deactivate(previousGovernor);
    }
  }

  /** Runs any query. */
  async execute(query: string, params?: QueryParams, options?: QueryOptions): Promise<QueryResult> {
    // Only for a caller that may change the schema: the run refuses the others, who must not get an index built first.
    const mayChangeSchema = options?.readOnly !== true && (options?.allow === undefined || options.allow.includes('admin'));
    if (mayChangeSchema && this.schema.backgroundFillFrom !== Infinity && /constraint/i.test(query)) await this.prefillConstraintIndex(query);
    return this.executeDurably(query, params, options);
  }

  /**
   * A served `CREATE CONSTRAINT … IS UNIQUE` over a large label with no index on its key gets
   * its index filled in the background first (`Schema.fillConstraintIndex`), so that running
   * the command only checks it. A query that does not parse is left to the run to report.
   */
  private async prefillConstraintIndex(query: string): Promise<void> {
    let cmd: SchemaCommand | undefined;
    try {
      cmd = this.prepare(query).schemaCommand;
    } catch {
      return;
    }
    if (cmd?.kind !== 'CreateConstraint' || cmd.entity !== 'node' || cmd.properties.length !== 1) return;
    if (cmd.constraint !== 'unique' && cmd.constraint !== 'nodeKey') return;
    const key = cmd.properties[0];
    await this.schema.fillConstraintIndex(cmd.name ?? constraintNameFor(cmd.label, key, 'unique'), cmd.label, key);
  }

  /** Runs a read query; a query that would write is rejected. */
  async query(query: string, params?: QueryParams): Promise<QueryResult> {
    return this.executeDurably(query, params, { readOnly: true });
  }

  /** Runs a mutating query (SPEC client method). */
  async mutate(query: string, params?: QueryParams): Promise<QueryResult> {
    return this.executeDurably(query, params);
  }

  /**
   * Runs `statements` in order as one transaction and returns each one's result. With
   * `commit` their changes are applied together (constraints checked, and with --data-dir
   * durable before this resolves); without `commit`, or when any statement fails, none of
   * their changes remain. Each statement sees the changes of those before it. Index and
   * constraint changes are refused inside. (The PG door's BEGIN … COMMIT uses this.)
   */
  async executeInTransaction(
    statements: readonly { query: string; params?: QueryParams }[],
    options: { commit: boolean; timeoutMs?: number; allow?: QueryOptions['allow'] },
  ): Promise<QueryResult[]> {
    if (this.closed) throw new QuerySemanticError('The database is closed', 'DatabaseClosed');
    const g = this.graph;
    let results: QueryResult[];
    let durable: Promise<void> | undefined;
    g.begin();
    this.sharedTx = true;
    try {
      results = statements.map((s) => this.executeSync(s.query, s.params, { timeoutMs: options.timeoutMs, allow: options.allow }));
      if (!options.commit) {
        g.rollback();
        this.schema.afterRollback();
        this.skills.rollback();
        return results;
      }
      this.schema.validate();
      // Logged before it becomes visible: a failed WAL append (a full disk) still rolls it all back.
      const changes = g.validateCommit();
      validateObservationChanges(changes);
      const commit = new EncodedCommit(changes);
      durable = this.commitLogged(changes, commit, () => (changes.length > 0 ? this.durable?.commitDeferred(commit) : undefined));
      this.notifyCommitted(commit);
      const replicated = changes.length > 0 ? this.replication?.committed(changes) : undefined;
      if (replicated) durable = durable ? Promise.all([durable, replicated]).then(() => undefined) : replicated;
      this.skills.commit();
    } catch (err) {
      this.skills.rollback();
      if (g.inTransaction) {
        g.rollback();
        this.schema.afterRollback();
      }
      throw toGraphDbError(err);
    } finally {
      this.sharedTx = false;
    }
    try {
      await (durable ?? this.durable?.readBarrier());
    } catch (err) {
      throw toGraphDbError(err);
    }
    return results;
  }

  /** Runs each query in order, each in its own transaction; stops at the first failure. */
  async batchMutate(queries: string[]): Promise<QueryResult[]> {
    const out: QueryResult[] = [];
    for (const q of queries) out.push(await this.executeDurably(q));
    return out;
  }

  // ---------------------------------------------------------------- explicit transactions

  /**
   * Begins an explicit transaction (docs/TRANSACTIONS.md): `mode: 'read'` reads one snapshot
   * for its whole life; `'write'` (default) is serializable and may write, committing as one
   * durable whole. Run statements with `tx.run`, end it with `tx.commit()` or `tx.rollback()`;
   * idle past `timeoutMs` it is rolled back. Refused beyond `maxOpenTransactions`.
   */
  async beginTransaction(options: TransactionOptions = {}): Promise<Transaction> {
    if (this.closed) throw new QuerySemanticError('The database is closed', 'DatabaseClosed');
    const mode = options.mode ?? 'write';
    if (mode !== 'read' && mode !== 'write') throw new QuerySemanticError(`Unknown transaction mode '${String(mode)}': use 'read' or 'write'`, 'InvalidTransactionMode', undefined, 'runtime');
    const timeoutMs = options.timeoutMs ?? this.options.transactionTimeoutMs ?? TRANSACTION_TIMEOUT_MS;
    if (typeof timeoutMs !== 'number' || !(timeoutMs >= 0) || timeoutMs > 2 ** 31 - 1) {
      throw new ArgumentError(`A transaction time limit is a number of milliseconds from 0 (none) to ${2 ** 31 - 1}, not ${String(timeoutMs)}`, 'InvalidTransactionTimeout');
    }
    // With query workers, the snapshot goes to one (its reads then never hold the main thread):
    // wait for one that can take it, rather than keep it here because a worker is starting.
    await this.remoteSnapshots?.whenPinnable?.();
    if (this.closed) throw new QuerySemanticError('The database is closed', 'DatabaseClosed');
    const limit = this.options.maxOpenTransactions ?? MAX_OPEN_TRANSACTIONS;
    if (this.openTransactions.size >= limit) {
      throw new ResourceLimitError(`At most ${limit} transactions may be open at once; commit or roll back one first`);
    }
    const tx = new Transaction(this, { mode, timeoutMs, allow: options.allow });
    this.openTransactions.add(tx);
    return tx;
  }

  /**
   * Runs `work` in a transaction: commits when it returns, rolls back when it throws, and runs
   * it again (a new transaction) when the failure is transient — a conflict with another
   * writer, a wait for the writer slot that timed out — for up to `maxRetryTimeMs` (30 s).
   */
  async transaction<T>(work: (tx: Transaction) => Promise<T> | T, options: TransactionOptions & { maxRetryTimeMs?: number } = {}): Promise<T> {
    const giveUpAt = performance.now() + (options.maxRetryTimeMs ?? 30_000);
    for (let attempt = 1; ; attempt++) {
      const tx = await this.beginTransaction(options);
      try {
        const out = await work(tx);
        // `work` may have ended it itself (committed, or rolled back on purpose); a failed or timed-out one reports why.
        if (tx.state !== 'committed' && tx.state !== 'rolledBack') await tx.commit();
        return out;
      } catch (err) {
        tx.abort();
        if (!isTransientError(err) || performance.now() >= giveUpAt) throw err;
      }
      // Jittered back-off, growing with the attempts: contenders spread out instead of colliding again.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(50, 2 * attempt)));
    }
  }

  /** Open explicit transactions. */
  get openTransactionCount(): number {
    return this.openTransactions.size;
  }

  /** @internal TransactionHost */
  txWrites(query: string): boolean {
    const previousGovernor = activate(new Governor(this.queryTimeoutMs, this.memoryLimits, performance.now()));
    try {
      const prepared = this.prepare(query);
      return prepared.compiled?.mutates ?? (prepared.schemaCommand !== undefined && prepared.schemaCommand.kind !== 'Show');
    } catch (err) {
      throw toGraphDbError(err);
    } finally {
      deactivate(previousGovernor);
    }
  }

  /** @internal TransactionHost */
  ended(tx: Transaction): void {
    this.openTransactions.delete(tx);
  }

  /**
   * Where explicit transactions keep their snapshots when query workers serve this database
   * (set by the router): their reads then run on a worker, not on the main thread. Unset
   * (`--workers 0`, the library), or with no worker ready within BEGIN's bounded wait, they are
   * kept here.
   */
  remoteSnapshots: RemoteSnapshots | undefined;

  /** @internal TransactionHost */
  pin(): ReadPin<Database> {
    // On a worker: at the state the workers hold (a worker's write being applied here is not finished first).
    const remote = this.remoteSnapshots?.pin();
    if (remote !== undefined) return { seq: remote.seq, snapshot: undefined, remote };
    return this.snapshots.pin(this.currentSeq());
  }

  /** @internal TransactionHost */
  unpin(pin: ReadPin<Database>): void {
    if (pin.remote !== undefined) pin.remote.release();
    else this.snapshots.unpin(pin);
  }

  /**
   * Runs a read-only statement on the state `pin` holds, here and now (a transaction's read on
   * the primary, or on a query worker's replica for a pin held there).
   */
  readPinned(pin: ReadPin<Database>, query: string, params: QueryParams | undefined, options: QueryOptions): QueryResult {
    const snapshot = pin.snapshot;
    if (snapshot === 'lost') throw new TransactionConflictError('The snapshot of this read transaction could not be kept while another write committed; retry the transaction');
    // Only a change that bypasses transactions (a bulk import's store swap) moves the graph without a snapshot.
    if (snapshot === undefined && this.currentSeq() !== pin.seq) throw new TransactionConflictError('The graph was replaced (a bulk load) while this transaction was open; retry it');
    return (snapshot ?? this).executeSync(query, params, { ...options, readOnly: true });
  }

  /** @internal TransactionHost */
  currentSeq(): number {
    return this.graph.mutationSeq;
  }

  /** @internal TransactionHost */
  async txReadBarrier(): Promise<void> {
    try {
      await this.durable?.readBarrier();
    } catch (err) {
      throw toGraphDbError(err);
    }
  }

  /** @internal TransactionHost: a read-only statement on the state `pin` holds (the live graph while it has not moved). */
  async txRead(pin: ReadPin<Database>, query: string, params: QueryParams | undefined, options: StatementOptions): Promise<QueryResult> {
    if (this.closed) throw new QuerySemanticError('The database is closed', 'DatabaseClosed');
    let result: QueryResult;
    if (pin.remote !== undefined && options.profileRows === true) {
      // PROFILE's per-operator rows are counted where the plan runs; the worker answers only rows, so it runs here while the snapshot is still the live graph.
      result = this.primaryOnlyRead(pin, query, params, options);
    } else if (pin.remote !== undefined) {
      // Off the main thread: the worker holding the snapshot runs it (and can stop it on a cancel).
      try {
        result = await pin.remote.read(query, params, { timeoutMs: options.timeoutMs, allow: options.allow, signal: options.signal });
      } catch (err) {
        if (!(err instanceof GraphDbError && err.detail === PRIMARY_ONLY)) throw err;
        result = this.primaryOnlyRead(pin, query, params, options);
      }
    } else {
      const building = this.retrieval.fulltextBuilds(query);
      if (building) await building;
      if (this.closed) throw new QuerySemanticError('The database is closed', 'DatabaseClosed');
      if (options.signal?.aborted) throw new QueryCancelledError();
      // Finishes a worker's write being applied (through `graph`): its begin kept the state for this pin.
      result = this.readPinned(pin, query, params, { timeoutMs: options.timeoutMs, allow: options.allow, profileRows: options.profileRows });
    }
    await this.txReadBarrier();
    return result;
  }

  /** @internal TransactionHost: a read-only statement on the live graph, here and now (a kept read checked again at the writer slot). */
  txReadLive(query: string, params: QueryParams | undefined, options: StatementOptions): QueryResult {
    if (this.closed) throw new QuerySemanticError('The database is closed', 'DatabaseClosed');
    return this.executeSync(query, params, { timeoutMs: options.timeoutMs, readOnly: true, allow: options.allow });
  }

  /**
   * A transaction's read that calls a procedure only the primary runs (dbms.*, …), refused by
   * the worker holding its snapshot: run here on the live graph while that is still the
   * snapshot's state (no commit since), as it would have been without workers; refused once it
   * is not, as on a frozen copy.
   */
  private primaryOnlyRead(pin: ReadPin<Database>, query: string, params: QueryParams | undefined, options: StatementOptions): QueryResult {
    if (this.applyPending || this.committedSeq !== pin.seq) {
      throw new ProcedureError(
        'This statement (a PROFILE, or a call of a procedure that runs on the primary only) cannot read the snapshot of a transaction once other writes have committed since it began; run it outside the transaction',
        'NotInSnapshot',
        'runtime',
      );
    }
    return this.executeSync(query, params, { timeoutMs: options.timeoutMs, readOnly: true, allow: options.allow, signal: options.signal, profileRows: options.profileRows });
  }

  /**
   * @internal TransactionHost: runs `query` in a store transaction over the committed graph
   * plus `records` (the transaction's writes so far), then rolls it back, keeping the records
   * it made: between statements the graph is the committed state, which is all anyone else sees.
   * Result values are detached from the graph (their entities are rolled back with it).
   */
  txWrite(baseline: number, records: readonly ChangeRecord[], query: string, params: QueryParams | undefined, options: StatementOptions): { result: QueryResult; records: readonly ChangeRecord[] } {
    if (this.closed) throw new QuerySemanticError('The database is closed', 'DatabaseClosed');
    const g = this.graph;
    if (g.mutationSeq !== baseline) throw new TransactionConflictError();
    const schemaVersion = this.schema.version;
    const schemaBefore = this.currentSchemaDefinition();
    this.quietChanges = true;
    g.begin();
    this.sharedTx = true;
    try {
      for (let i = 0; i < records.length; i++) g.applyChange(records[i]);
      const result = this.executeSync(query, params, { timeoutMs: options.timeoutMs, allow: options.allow, signal: options.signal, profileRows: options.profileRows });
      if (this.skills.hasStaged) throw notInTransaction('A procedure that changes skills', 'SkillChangeInTransaction');
      if (this.schema.version !== schemaVersion) throw notInTransaction('A procedure that changes indexes or constraints', 'SchemaChangeInTransaction');
      const all = g.pendingChanges();
      const limit = this.options.maxTransactionChanges ?? MAX_TRANSACTION_CHANGES;
      if (all.length > limit) throw new ResourceLimitError(`A transaction may hold at most ${limit} changes; commit part of the work in another transaction`);
      const detached = result.records.length === 0 ? result : { ...result, records: decodeRecords(encodeRecords(result.records)) };
      return { result: detached, records: all.slice() };
    } finally {
      this.sharedTx = false;
      this.skills.rollback();
      if (g.inTransaction) {
        g.rollback();
        this.schema.afterRollback();
      }
      if (this.schema.version !== schemaVersion) applySchemaDefinition(this.schema, schemaBefore);
      this.quietChanges = false;
    }
  }

  /**
   * @internal TransactionHost: applies a transaction's records as one commit (checked, one WAL
   * record, visible, replicated) now, or throws with nothing applied; `durable` settles once it
   * is durable.
   */
  txCommit(baseline: number, records: readonly ChangeRecord[]): { durable: Promise<void> } {
    if (this.graph.mutationSeq !== baseline) throw new TransactionConflictError();
    this.deferDurability = true;
    this.pendingDurable = undefined;
    let durable: Promise<void> | undefined;
    try {
      this.transact((g) => {
        for (let i = 0; i < records.length; i++) g.applyChange(records[i]);
      }, 'deferred');
      durable = this.pendingDurable;
    } finally {
      this.deferDurability = false;
      this.pendingDurable = undefined;
    }
    const settled = durable ?? this.durable?.readBarrier() ?? Promise.resolve();
    return { durable: settled.catch((err: unknown) => Promise.reject(toGraphDbError(err))) };
  }

  /** A frozen copy of the graph as it is now, for the read transactions pinned here (read-snapshots.ts). */
  private frozenCopy(): Database {
    const { captureGraphImage, loadGraphImage } = graphImageModule.get();
    const image = captureGraphImage(this.liveGraph, this.schema);
    const copy = new Database({
      queryTimeoutMs: this.queryTimeoutMs,
      memoryLimits: this.memoryLimits,
      fileAccess: this.fileAccess,
      embeddingModel: this.options.embeddingModel,
      planCacheSize: 64,
    });
    refusePrimaryOnly(copy.procedures);
    loadGraphImage(copy.liveGraph, copy.schema, image, true);
    return copy;
  }

  // ---------------------------------------------------------------- introspection

  stats(): EngineStats {
    return {
      nodes: this.graph.nodeCount,
      relationships: this.graph.relCount,
      labels: this.graph.labels().length,
      relationshipTypes: this.graph.relationshipTypes().length,
      propertyKeys: this.graph.propertyKeys().length,
      memory: engineMemory(this.graph),
    };
  }

  /** The settings a query worker's replica of this database needs to answer queries as this one does. */
  replicaOptions(): WorkerDatabaseOptions {
    const o = this.options;
    return {
      queryTimeoutMs: this.queryTimeoutMs,
      memoryLimits: this.memoryLimits,
      fileAccess: this.fileAccess.toPlain(),
      embeddingModel: o.embeddingModel,
      planCacheSize: o.planCacheSize,
    };
  }

  /** SPEC "Graph fingerprint": equal strings mean identical content history. */
  fingerprint(): string {
    if (this.sliced !== undefined) this.finishPendingApply();
    return this.sync?.fingerprint() ?? this.graph.fingerprint();
  }

  /** Mutations waiting to be pushed to a sync peer: 0 while sync is not configured. */
  syncPending(): number {
    return this.sync?.pending() ?? 0;
  }

  /**
   * Runs `fn` as one write transaction straight on the graph (bulk loads such as the REPL's
   * `:restore`): constraints are checked at commit, and with --data-dir the changes are
   * durable before it returns. On any error nothing of it remains.
   */
  writeTransaction<T>(fn: (graph: Graph, schema: Schema) => T): T {
    return this.transact(fn, 'sync');
  }

  /**
   * Makes a write that a query worker ran on its replica (src/engine/workers) this database's
   * own: its payloads (WAL encoding, packed) are decoded and its change records applied here as one
   * transaction — constraints, indexes, observation rules, sync and replication see it like
   * any commit, and it is logged once, as those payloads — and the returned `durable` settles
   * once it is durable. Decoding and applying go `sliceMs` at a time, with a turn of the event
   * loop between slices (commit-slices.ts), so that a bulk write does not hold the main thread.
   * While the transaction is open between turns, every entry that reads or changes the graph
   * (`graph`, queries, transactions, checkpoints, close) first finishes it synchronously
   * (`finishPendingApply`), so nobody sees half of it; `committedSeq` stays at `before` until it
   * commits. Refused (undefined, nothing applied) when this graph is no longer at `before`, the
   * state the worker ran it against, or when the records change the schema (a replica's schema
   * lacks the vector and full-text indexes): the caller runs the query here instead. A failure
   * part-way (a constraint, a record that does not fit) undoes all of it and is thrown.
   */
  async applyWorkerWrite(before: number, packed: PackedPayloads, sliceMs = APPLY_SLICE_MS): Promise<{ durable: Promise<void> } | undefined> {
    let payloads: string[];
    let changes: LoggedChange[];
    try {
      ({ payloads, changes } = await decodeInSlices(packed, sliceMs));
    } catch (err) {
      throw toGraphDbError(err);
    }
    // One writer at a time: an explicit transaction holding the slot is waited for (its commit then makes this one refused).
    if (!this.writerSlot.tryTake()) await this.writerSlot.take(0);
    try {
      return await this.applyHoldingSlot(before, payloads, changes, sliceMs);
    } finally {
      this.writerSlot.release();
    }
  }

  private async applyHoldingSlot(before: number, payloads: string[], changes: LoggedChange[], sliceMs: number): Promise<{ durable: Promise<void> } | undefined> {
    const g = this.liveGraph;
    if (this.closed || this.sliced !== undefined || g.mutationSeq !== before || g.inTransaction || changes.some((c) => c.op === 'schema')) return undefined;
    this.replication?.beforeWrite();
    const counts = { nodes: g.nodeCount, relationships: g.relCount };
    const apply: SlicedApply = { before, counts, changes, encoded: payloads, next: 0, schemaVersion: this.schema.version, schemaBefore: this.currentSchemaDefinition(), outcome: undefined };
    g.begin();
    this.sliced = apply;
    for (;;) {
      this.applySlice(apply, sliceMs);
      if (apply.outcome !== undefined) break;
      await nextTurn();
      // Finished meanwhile by another entry (`finishPendingApply`)?
      if (apply.outcome !== undefined) break;
    }
    if (apply.outcome instanceof Error) throw apply.outcome;
    return apply.outcome;
  }

  /** Applies the rest of a worker's write being applied in slices, and commits it (or undoes it, keeping the error for its caller). */
  private finishPendingApply(): void {
    const apply = this.sliced;
    if (apply !== undefined) this.applySlice(apply, Infinity);
  }

  /** Applies the next changes of `apply` for up to `ms`, and commits it after its last; a failure undoes all of it. */
  private applySlice(apply: SlicedApply, ms: number): void {
    const g = this.liveGraph;
    const changes = apply.changes as readonly ChangeRecord[];
    const until = performance.now() + ms;
    const first = apply.next;
    try {
      while (apply.next < changes.length) {
        g.applyChange(changes[apply.next++]);
        if ((apply.next & 255) === 0 && performance.now() >= until) break;
      }
      // The records are the commit's (none changes the schema): checked here, a slice at a time, not all at the commit.
      validateObservationChanges(first === 0 && apply.next === changes.length ? changes : changes.slice(first, apply.next));
      // The indexes follow slice by slice, so that the commit does not update them all at once.
      this.schema.refresh();
      // Not done, or finished by a nested call meanwhile (nothing here reads the database, but a commit must never be made twice).
      if (apply.next < changes.length || apply.outcome !== undefined) return;
      this.sliced = undefined;
      apply.outcome = this.commitWorkerWrite(apply);
    } catch (err) {
      this.sliced = undefined;
      this.undoTransaction(apply.schemaVersion, apply.schemaBefore);
      apply.outcome = toGraphDbError(err);
    }
  }

  /** Commits a worker's write once applied (group-committed: the caller waits for `durable`), whoever's call finishes it. */
  private commitWorkerWrite(apply: SlicedApply): { durable: Promise<void> } {
    // The call that finishes it may be an async method's, with a commit of its own to follow.
    const deferDurability = this.deferDurability;
    const pendingDurable = this.pendingDurable;
    this.deferDurability = true;
    this.pendingDurable = undefined;
    try {
      this.commitOpen(apply.schemaVersion, 'deferred', { count: apply.changes.length, encoded: apply.encoded, observationChecked: true });
      const durable = this.pendingDurable ?? Promise.resolve();
      return { durable: durable.catch((err: unknown) => Promise.reject(toGraphDbError(err))) };
    } finally {
      this.deferDurability = deferDurability;
      this.pendingDurable = pendingDurable;
    }
  }

  /**
   * `fn` as one write transaction: validated, logged (fsynced inline, or queued for group
   * commit with `deferred`), made visible, and told to observers and replication. On any
   * error nothing of it remains, the schema included.
   */
  private transact<T>(fn: (graph: Graph, schema: Schema) => T, durability: 'sync' | 'deferred'): T {
    if (this.closed) throw new QuerySemanticError('The database is closed', 'DatabaseClosed');
    const g = this.graph;
    // `fn` may also add indexes and constraints: they belong to the same transaction.
    const schemaVersion = this.schema.version;
    const schemaBefore = this.currentSchemaDefinition();
    g.begin();
    try {
      const result = fn(g, this.schema);
      this.commitOpen(schemaVersion, durability);
      return result;
    } catch (err) {
      this.undoTransaction(schemaVersion, schemaBefore);
      throw toGraphDbError(err);
    }
  }

  /**
   * Commits the open transaction: validated, logged (fsynced inline, or queued for group commit
   * with `deferred`), made visible, and told to observers and replication. `replayed`: it
   * replays records whose WAL encoding is known (a query worker's), used as the commit's own
   * when it committed as many records and no schema change. Throws, with the transaction still
   * open, when a check or the log write fails: the caller undoes it.
   */
  private commitOpen(schemaVersion: number, durability: 'sync' | 'deferred', replayed?: Replayed): void {
    const { committed, commit } = this.sealTransaction(schemaVersion, replayed);
    if (durability === 'deferred') {
      this.commitLogged(committed, commit, () => this.persist((d) => d.commitDeferred(commit)));
      this.replicate(commit);
    } else {
      this.commitLogged(committed, commit, () => this.durable?.commitSync(commit));
      this.notifyCommitted(commit);
      // A synchronous transaction cannot wait for replicas, so it replicates asynchronously.
      void this.replication?.committed(commit.changes)?.catch(() => undefined);
    }
  }

  /**
   * Checks the open transaction (constraints, graph consistency, observation rules) and returns
   * its records, with the schema definition appended when the schema changed since
   * `schemaVersion`, as a commit (`replayed`: its WAL encoding, when known and complete, and
   * whether its records were checked against the observation rules already, slice by slice).
   */
  private sealTransaction(schemaVersion: number, replayed?: Replayed): { committed: readonly ChangeRecord[]; commit: EncodedCommit } {
    this.schema.validate();
    const committed = this.graph.validateCommit();
    if (replayed?.observationChecked !== true || replayed.count !== committed.length) validateObservationChanges(committed);
    const changes: readonly LoggedChange[] =
      this.schema.version === schemaVersion ? committed : [...committed, { op: 'schema', def: this.currentSchemaDefinition() }];
    return { committed, commit: new EncodedCommit(changes, replayed?.count === changes.length ? replayed.encoded : undefined) };
  }

  /** Undoes a failed transaction: the graph's changes and any schema change made since `schemaVersion`. */
  private undoTransaction(schemaVersion: number, schemaBefore: ReturnType<Database['currentSchemaDefinition']>): void {
    if (this.graph.inTransaction) {
      this.graph.rollback();
      this.schema.afterRollback();
    }
    if (this.schema.version !== schemaVersion) applySchemaDefinition(this.schema, schemaBefore);
  }

  /**
   * With --data-dir: folds the WAL into the store of record (the LMDB commit runs off the
   * event loop) and, with `snapshot`, then rewrites the snapshot file from the store.
   */
  async checkpoint(options: { snapshot?: boolean } = {}): Promise<void> {
    const durable = this.durable;
    if (!durable) return;
    // The store cannot checkpoint an open transaction: a worker's write being applied is finished first.
    if (this.sliced !== undefined) this.finishPendingApply();
    try {
      await durable.checkpointAsync();
      await this.saveRetrievalIndexes();
      if (options.snapshot) await durable.snapshotFromStore();
    } catch (err) {
      throw toGraphDbError(err);
    }
  }

  /** After a checkpoint: saves the vector and full-text indexes that changed, the slow parts off the event loop. */
  private async saveRetrievalIndexes(): Promise<void> {
    const durable = this.durable;
    // Not `graph`: a worker's write being applied is left to its slices (its indexes are saved after the next checkpoint).
    if (durable && !this.closed && !this.liveGraph.inTransaction) await this.retrieval.saveIndexesAsync(durable.seq);
  }

  /**
   * Lets `CREATE INDEX` over `fromMembers` nodes or more fill the index on later turns of the
   * event loop (SHOW INDEXES: POPULATING; the planner uses it once it is online), so that a
   * served database's main thread is never held for the whole build. Servers and workers turn
   * it on; the library keeps building at once, since a caller that never yields would otherwise
   * never see the index come online.
   */
  fillIndexesInBackground(fromMembers = BACKGROUND_FILL_FROM): void {
    this.schema.backgroundFillFrom = fromMembers;
  }

  /** Ends the database; with --data-dir a final checkpoint and snapshot are written and the directory is unlocked. */
  close(): void {
    // A worker's write being applied is committed first: it was the worker's answer, and its caller waits for it.
    if (this.sliced !== undefined) this.finishPendingApply();
    this.closed = true;
    for (const tx of [...this.openTransactions]) tx.abort();
    this.cache.clear();
    this.schema.stopBackgroundFills();
    this.sync?.close();
    try {
      if (this.durable && !this.graph.inTransaction) this.retrieval.saveIndexes(this.durable.seq);
    } catch {
      // An unsaved (or half-saved) vector index file is rejected or caught up on the next open; closing goes on.
    }
    this.retrieval.close();
    const durable = this.durable;
    this.durable = undefined;
    durable?.close();
  }
}

/** The counters `now` has gained over `before` (statements sharing one transaction). */
function statsSince(now: QueryStats, before: QueryStats): QueryStats {
  const out = { ...now };
  for (const k of Object.keys(out) as (keyof QueryStats)[]) out[k] = now[k] - before[k];
  return out;
}

/** Label members from which a served database fills a new property index in the background (about 0.3–0.9 s of work per million). */
const BACKGROUND_FILL_FROM = 100_000;

/** Executes CREATE/DROP INDEX and CONSTRAINT and the SHOW commands. */
function runSchemaCommand(db: Database, cmd: SchemaCommand): { columns: string[]; records: Value[][]; mutated: boolean } {
  const schema = db.schema;
  const single = (what: string, properties: string[], pos: SchemaCommand['pos']): string => {
    if (properties.length !== 1) {
      throw new QuerySemanticError(`${what} on more than one property is not supported yet`, 'UnsupportedFeature', pos);
    }
    return properties[0];
  };
  switch (cmd.kind) {
    case 'CreateIndex': {
      if (cmd.indexType === 'vector') return { columns: [], records: [], mutated: createVectorIndex(schema, cmd) };
      if (cmd.indexType === 'fulltext') return { columns: [], records: [], mutated: createFulltextIndex(schema, cmd) };
      if (cmd.entity !== 'node' || (cmd.indexType !== 'range' && cmd.indexType !== 'lookup')) {
        throw new QuerySemanticError(`${cmd.indexType} indexes on ${cmd.entity}s are not supported yet`, 'UnsupportedFeature', cmd.pos);
      }
      const changed = schema.createIndex(cmd.name, cmd.label, single('An index', cmd.properties, cmd.pos), cmd.ifNotExists);
      return { columns: [], records: [], mutated: changed };
    }
    case 'DropIndex':
      return { columns: [], records: [], mutated: schema.dropIndex(cmd.name, cmd.ifExists) };
    case 'CreateConstraint': {
      if (cmd.entity !== 'node') {
        throw new QuerySemanticError('Relationship constraints are not supported yet', 'UnsupportedFeature', cmd.pos);
      }
      const key = single('A constraint', cmd.properties, cmd.pos);
      let changed = false;
      if (cmd.constraint === 'unique' || cmd.constraint === 'nodeKey') {
        changed = schema.createConstraint(cmd.name, cmd.label, key, 'unique', cmd.ifNotExists) || changed;
      }
      if (cmd.constraint === 'notNull' || cmd.constraint === 'nodeKey') {
        const name = cmd.constraint === 'nodeKey' && cmd.name ? `${cmd.name}_exists` : cmd.name;
        changed = schema.createConstraint(name, cmd.label, key, 'notNull', cmd.ifNotExists) || changed;
      }
      return { columns: [], records: [], mutated: changed };
    }
    case 'DropConstraint':
      return { columns: [], records: [], mutated: schema.dropConstraint(cmd.name, cmd.ifExists) };
    case 'Show':
      // graphdb's own layout for the kind-filtered listing (options at [7]), as before Neo4j's columns came to SHOW INDEXES.
      if (cmd.what === 'indexes' && (cmd.indexType === 'VECTOR' || cmd.indexType === 'FULLTEXT')) {
        return { columns: EXTENSION_SHOW_COLUMNS, records: extensionIndexRows(schema, cmd.indexType), mutated: false };
      }
      // A bare SHOW returns Neo4j's default columns; `YIELD *` (planned as a tail query) sees them all.
      return { ...defaultColumns(showListing(schema, db.procedures, cmd)), mutated: false };
  }
}

function convertParams(params: QueryParams | undefined): Map<string, Value> {
  const out = new Map<string, Value>();
  if (!params) return out;
  const convert = (v: unknown, k: string): void => {
    try {
      out.set(k, fromJs(v));
    } catch {
      throw new ValueTypeError(`Parameter $${k} has a value that cannot be used in a query`, 'InvalidParameterUse');
    }
  };
  // No `Object.entries` and destructuring: a small write runs this in V8's interpreter for
  // its first thousands of calls, where they cost several times this loop.
  if (params instanceof Map) params.forEach(convert);
  else for (const k in params) if (Object.hasOwn(params, k)) convert(params[k], k);
  return out;
}
