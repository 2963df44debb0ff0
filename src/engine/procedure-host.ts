/**
 * `Database`'s side of the procedure host (procedures/host.ts): one object per execution,
 * so transaction metadata lives exactly as long as the query that set it. Nested Cypher
 * runs through the database's own prepare step (plan cache included) with the caller's
 * execution context, so it shares the transaction, the deadline and the write statistics.
 */

import { randomUUID } from 'node:crypto';
import type { ProcedureHost, NestedResult } from '../../procedures/host.js';
import type { ProcedureRegistry } from '../../procedures/registry.js';
import type { CompiledQuery } from '../../codegen/compile.js';
import type { ExecContext } from '../../runtime/graph/context.js';
import type { FileAccessPolicy } from '../../runtime/graph/file-access.js';
import type { Value } from '../../runtime/values.js';
import type { Graph } from '../store/graph.js';
import { AccessDeniedError, ParameterMissingError, ProcedureError, QuerySemanticError } from '../errors.js';
import { packageVersion } from '../version.js';

/** What the database lends the host for one execution. */
export interface HostInternals {
  graph: Graph;
  procedures: ProcedureRegistry;
  /** The compiled form of a query (undefined for schema commands and EXPLAIN). */
  compile(query: string): CompiledQuery | undefined;
  clearCache(): number;
  /** Starts a checkpoint of the data directory; false without one. */
  checkpoint(): boolean;
  fileAccess: FileAccessPolicy;
  dataDir: string | undefined;
  settings: { name: string; description: string; value: string; dynamic: boolean }[];
  identity: { id: string; creationDate: string };
}

/** A stable identity for a database object: made once, when it is first asked for. */
export function newIdentity(): { id: string; creationDate: string } {
  return { id: randomUUID().toUpperCase(), creationDate: new Date().toISOString() };
}

export class ExecutionHost implements ProcedureHost {
  txMetadata = new Map<string, Value>();

  constructor(
    private readonly db: HostInternals,
    private readonly ctx: ExecContext,
  ) {}

  get procedures(): ProcedureRegistry {
    return this.db.procedures;
  }

  runNested(query: string, params: Map<string, Value>, allowWrites: boolean): NestedResult {
    const compiled = this.db.compile(query);
    if (compiled === undefined) {
      throw new ProcedureError('Nested Cypher must be a query, not a schema command or EXPLAIN', 'InvalidNestedQuery', 'runtime');
    }
    if (compiled.mutates && (!allowWrites || !this.db.graph.inTransaction)) {
      throw new QuerySemanticError(
        'The nested query writes, but it was run by a read-only procedure; use apoc.cypher.runWrite, apoc.cypher.doIt or apoc.do.when',
        'WriteInReadOnlyCall',
        undefined,
        'runtime',
      );
    }
    for (const name of compiled.params) if (!params.has(name)) throw new ParameterMissingError(name);
    // The caller's row limit is for its own result, not for what a procedure reads through nested Cypher.
    const maxRows = this.ctx.maxRows;
    this.ctx.maxRows = Number.POSITIVE_INFINITY;
    try {
      return { columns: compiled.columns, records: compiled.run(this.db.graph, params, this.ctx) };
    } finally {
      this.ctx.maxRows = maxRows;
    }
  }

  readText(url: string, what: string): string {
    return this.db.fileAccess.readText(url, what, () => this.ctx.checkDeadline());
  }

  writeText(url: string, what: string, text: string, overwrite: boolean): void {
    // The procedure's declared access was checked at its call; this guards the effect itself, whoever asks for it.
    if (this.ctx.allow !== undefined && !this.ctx.allow.has('files')) throw new AccessDeniedError(`${what} writes files, which this caller may not do`);
    this.db.fileAccess.writeText(url, what, text, overwrite, () => this.ctx.checkDeadline());
  }

  clearQueryCaches(): number {
    return this.db.clearCache();
  }

  checkpoint(): { success: boolean; message: string } {
    return this.db.checkpoint()
      ? { success: true, message: 'Checkpoint started: the write-ahead log is being folded into the store.' }
      : { success: true, message: 'In-memory database: there is no log to checkpoint.' };
  }

  info(): { id: string; name: string; creationDate: string; version: string; dataDir: string | null } {
    return { ...this.db.identity, name: 'neo4j', version: packageVersion(), dataDir: this.db.dataDir ?? null };
  }

  config(): { name: string; description: string; value: string; dynamic: boolean }[] {
    return this.db.settings;
  }
}
