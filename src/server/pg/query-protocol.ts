/**
 * The query half of a PG session: Simple Query and the Extended Query sub-protocol
 * (Parse, Bind, Describe, Execute, Close, Sync, Flush), with the prepared statements and
 * portals of one connection and its transaction status.
 *
 * Extended Query follows PostgreSQL's rules where they matter to drivers: after an error,
 * messages are skipped until Sync; the unnamed statement and portal are replaced by the
 * next Parse / Bind; Execute with a row limit answers PortalSuspended until the portal is
 * exhausted; portals end at Sync outside a BEGIN block. A portal runs its query once, when
 * it is first described or executed, and keeps the rows. Values bound with Bind become the
 * engine parameters `$1`, `$2`, ….
 *
 * BEGIN … COMMIT / ROLLBACK is an engine transaction (transaction-block.ts): its statements
 * run inside it and it commits all or nothing; outside a block every statement commits on
 * its own (SPEC rule 5).
 *
 * Memory per connection is bounded: at most `maxPrepared` statements and portals, and at
 * most `maxTextBytes` of query text and bound parameters held at once (prepared statements,
 * portals) — beyond it, 54000 program_limit_exceeded; a block's changes are bounded by the
 * engine's per-transaction limit.
 */

import * as msg from './backend-messages.js';
import { PgError, PgProtocolError, SqlState, toPgError } from './errors.js';
import {
  readBind,
  readClose,
  readDescribe,
  readExecute,
  readParse,
  readSingleString,
} from './frontend-messages.js';
import { bindParameters, encodeBinary, encodeText, Oid, typeSize } from './pg-types.js';
import { isEmptyQuery, MAX_PARAMETERS, maxPositionalParameter, splitStatements } from './query-text.js';
import { matchShim } from './shims.js';
import { describeStatement, runStatement, type Column, type RunContext, type StatementResult } from './statements.js';
import type { Output } from './output.js';
import { TransactionBlock } from './transaction-block.js';
import type { Value } from '../../../runtime/values.js';

export interface QueryProtocolConfig extends RunContext {
  /** Called with each query text that runs (logging); undefined: no logging. */
  logQuery?: (text: string) => void;
  /** Most prepared statements (and most portals) one connection may hold. */
  maxPrepared: number;
  /** Most characters of query text and bytes of bound parameters one connection may hold. */
  maxTextBytes: number;
  /** Longest query text one message may carry (as HTTP bodies and TCP lines). */
  maxQueryBytes: number;
  /** Called when an open block was rolled back for idling past the transaction time limit (the session ends). */
  onIdleInTransaction?: () => void;
}

interface PreparedStatement {
  text: string;
  empty: boolean;
  /** Declared parameter types, padded with 0 (unspecified) to the parameter count. */
  paramTypes: number[];
  mutating: boolean;
  /** What this statement counts against the connection's text budget. */
  size: number;
  /** Set once the statement has been described: portals then keep these columns. */
  described?: { columns: Column[] | undefined };
}

interface Portal {
  statement: PreparedStatement;
  params: Map<string, Value>;
  resultFormats: number[];
  result?: StatementResult;
  /** Columns reported for this portal (the statement's if it was described). */
  columns?: Column[];
  sent: number;
  done: boolean;
  /** What this portal's parameters count against the connection's text budget. */
  size: number;
}

const NO_PARAMS = new Map<string, Value>();

export class QueryProtocol {
  private readonly statements = new Map<string, PreparedStatement>();
  private readonly portals = new Map<string, Portal>();
  private skipping = false;
  private block: TransactionBlock | undefined;
  /** Query text and parameter bytes held by this connection. */
  private held = 0;
  private readonly budget = {
    reserve: (bytes: number): void => {
      if (this.held + bytes > this.config.maxTextBytes) {
        throw new PgError(
          SqlState.programLimitExceeded,
          `a connection may hold at most ${this.config.maxTextBytes} bytes of statements and parameters; close prepared statements or end the transaction`,
        );
      }
      this.held += bytes;
    },
    release: (bytes: number): void => {
      this.held -= bytes;
    },
  };

  constructor(
    private readonly out: Output,
    private readonly config: QueryProtocolConfig,
  ) {}

  private checkQueryLength(text: string): void {
    if (text.length > this.config.maxQueryBytes) {
      throw new PgError(SqlState.programLimitExceeded, `the query text is longer than the limit of ${this.config.maxQueryBytes} characters`);
    }
  }

  private get inBlock(): boolean {
    return this.block !== undefined;
  }

  private removePortal(name: string): void {
    const p = this.portals.get(name);
    if (!p) return;
    this.portals.delete(name);
    this.budget.release(p.size);
  }

  private clearPortals(): void {
    for (const name of [...this.portals.keys()]) this.removePortal(name);
  }

  private removeStatement(name: string): void {
    const s = this.statements.get(name);
    if (!s) return;
    this.statements.delete(name);
    this.budget.release(s.size);
    for (const [portalName, p] of this.portals) if (p.statement === s) this.removePortal(portalName);
  }

  /** Handles one typed message after start-up; PgErrors that are FATAL propagate. */
  async handle(type: string, body: Buffer): Promise<void> {
    if (type === 'S') return this.sync();
    if (this.skipping) return;
    try {
      switch (type) {
        case 'Q':
          return await this.simpleQuery(body);
        case 'P':
          return await this.parse(body);
        case 'B':
          return this.bind(body);
        case 'D':
          return await this.describe(body);
        case 'E':
          return await this.execute(body);
        case 'C':
          return this.close(body);
        case 'H':
          return this.out.flush();
        case 'F':
          throw new PgError(SqlState.featureNotSupported, 'function calls are not supported; send a query');
        case 'd':
        case 'c':
        case 'f':
          return; // COPY data outside a COPY: ignored, as PostgreSQL does
        default:
          throw new PgProtocolError(`invalid frontend message type ${type.charCodeAt(0)}`);
      }
    } catch (err) {
      const e = toPgError(err);
      if (e.fatal) throw e;
      this.sendError(e);
      this.skipping = true;
    }
  }

  private sendError(e: PgError): void {
    this.out.send(msg.errorResponse({ severity: e.severity, code: e.sqlState, message: e.message, detail: e.detail }));
  }

  private readyForQuery(): void {
    this.out.send(msg.readyForQuery(this.block === undefined ? 'I' : this.block.failed ? 'E' : 'T'));
  }

  /** The connection is closing: an open block rolls back. */
  end(): void {
    this.block?.discard();
    this.block = undefined;
  }

  private sync(): void {
    this.skipping = false;
    if (!this.inBlock) this.clearPortals();
    this.readyForQuery();
    this.out.flush();
  }

  // ---------------------------------------------------------------- Simple Query

  private async simpleQuery(body: Buffer): Promise<void> {
    // Errors of a Simple Query end it with ReadyForQuery; nothing is skipped afterwards.
    try {
      const text = readSingleString(body, 'Query');
      this.checkQueryLength(text);
      this.config.logQuery?.(text);
      this.removePortal('');
      if (isEmptyQuery(text)) {
        this.out.send(msg.emptyQueryResponse());
      } else {
        for (const statement of splitStatements(text)) {
          const result = await this.run(statement, NO_PARAMS);
          this.sendResult(result, result.columns, [], 0, 0);
          await this.out.drained();
        }
      }
    } catch (err) {
      const e = toPgError(err);
      if (e.fatal) throw e;
      this.sendError(e);
    }
    this.readyForQuery();
  }

  /** Runs a statement (inside the transaction block, if one is open) and applies a shim's effect on the session. */
  private async run(text: string, params: Map<string, Value>): Promise<StatementResult> {
    const block = this.block;
    const shim = matchShim(text, this.config.shims);
    if (block && !shim) {
      // A CancelRequest stops the statement (57014) and fails the block, as in PostgreSQL.
      return runStatement(text, params, this.config, (q, p) => block.run(q, p, this.config.timeoutMs, this.config.currentSignal?.()));
    }
    if (block?.failed && shim?.effect !== 'commit' && shim?.effect !== 'rollback') {
      throw new PgError(SqlState.inFailedTransaction, 'current transaction is aborted, commands ignored until end of transaction block');
    }
    const result = await runStatement(text, params, this.config);
    switch (result.effect) {
      case 'begin':
        if (block) {
          this.out.send(msg.noticeResponse({ severity: 'WARNING', code: '25001', message: 'there is already a transaction in progress' }));
        } else {
          this.block = await TransactionBlock.begin(this.config.db, result.readOnly === true, () => this.config.onIdleInTransaction?.(), this.config.allow);
        }
        break;
      case 'commit':
        if (!block) {
          this.out.send(msg.noticeResponse({ severity: 'WARNING', code: '25P01', message: 'there is no transaction in progress' }));
          break;
        }
        this.block = undefined;
        // COMMIT of a failed block rolls back, and says so in its tag, as PostgreSQL does.
        if (!(await block.commit())) return { ...result, tag: 'ROLLBACK' };
        break;
      case 'rollback':
        if (!block) {
          this.out.send(msg.noticeResponse({ severity: 'WARNING', code: '25P01', message: 'there is no transaction in progress' }));
          break;
        }
        block.discard();
        this.block = undefined;
        break;
      case 'discard':
        block?.discard();
        this.block = undefined;
        for (const name of [...this.statements.keys()]) this.removeStatement(name);
        this.clearPortals();
        break;
      default:
        break;
    }
    return result;
  }

  /**
   * Sends rows `from` … `from + limit` (all when limit ≤ 0) of a result, preceded by a
   * RowDescription when `describe` is set; returns true when rows remain.
   */
  private sendResult(
    result: StatementResult,
    columns: Column[] | undefined,
    formats: readonly number[],
    from: number,
    limit: number,
    describe = true,
  ): boolean {
    const cols = columns ?? [];
    if (describe && columns) this.out.send(msg.rowDescription(this.fields(cols, formats)));
    const end = limit > 0 ? Math.min(result.rows.length, from + limit) : result.rows.length;
    const binary = cols.map((_, i) => formatOf(formats, i) === 1);
    for (let r = from; r < end; r++) {
      const row = result.rows[r];
      const cells: (Buffer | null)[] = new Array<Buffer | null>(cols.length);
      for (let c = 0; c < cols.length; c++) {
        const v = row[c] ?? null;
        cells[c] = binary[c] ? encodeBinary(v, cols[c].type) : encodeText(v, cols[c].type);
      }
      this.out.send(msg.dataRow(cells));
    }
    const more = end < result.rows.length;
    if (more) this.out.send(msg.portalSuspended());
    else this.out.send(msg.commandComplete(result.tag.startsWith('SELECT ') && columns ? `SELECT ${end - from}` : result.tag));
    return more;
  }

  private fields(columns: readonly Column[], formats: readonly number[]): msg.FieldDescription[] {
    if (formats.length > 1 && formats.length !== columns.length) {
      throw new PgError(
        SqlState.protocolViolation,
        `bind message has ${formats.length} result formats but the query has ${columns.length} columns`,
      );
    }
    return columns.map((c, i) => ({ name: c.name, typeOid: c.type, typeSize: typeSize(c.type), format: formatOf(formats, i) }));
  }

  // ---------------------------------------------------------------- Extended Query

  private async parse(body: Buffer): Promise<void> {
    const m = readParse(body);
    this.checkQueryLength(m.query);
    if (this.held + m.query.length > this.config.maxTextBytes) this.budget.reserve(m.query.length); // throws: over budget
    if (m.statement !== '' && this.statements.has(m.statement)) {
      throw new PgError(SqlState.duplicatePreparedStatement, `prepared statement "${m.statement}" already exists`);
    }
    if (m.statement !== '' && this.statements.size >= this.config.maxPrepared) {
      throw new PgError(SqlState.programLimitExceeded, `a connection may hold at most ${this.config.maxPrepared} prepared statements`);
    }
    const empty = isEmptyQuery(m.query);
    if (!empty && splitStatements(m.query).length > 1) {
      throw new PgError('42601', 'cannot insert multiple commands into a prepared statement');
    }
    const count = Math.max(m.paramTypes.length, empty ? 0 : maxPositionalParameter(m.query));
    if (count > MAX_PARAMETERS) {
      throw new PgError(SqlState.programLimitExceeded, `a statement may have at most ${MAX_PARAMETERS} parameters`);
    }
    const paramTypes = Array.from({ length: count }, (_, i) => m.paramTypes[i] ?? Oid.unspecified);
    if (m.statement === '') this.removeStatement('');
    // Compiling now reports syntax errors at Parse, as PostgreSQL does.
    let mutating = false;
    if (!empty && !matchShim(m.query, this.config.shims)) {
      try {
        mutating = this.config.db.isMutating(m.query);
      } catch (err) {
        this.config.logQuery?.(m.query); // a statement that never runs is logged when it fails
        throw err;
      }
    }
    this.budget.reserve(m.query.length);
    this.statements.set(m.statement, { text: m.query, empty, paramTypes, mutating, size: m.query.length });
    this.out.send(msg.parseComplete());
  }

  private statement(name: string): PreparedStatement {
    const s = this.statements.get(name);
    if (!s) throw new PgError(SqlState.invalidStatementName, name === '' ? 'unnamed prepared statement does not exist' : `prepared statement "${name}" does not exist`);
    return s;
  }

  private portal(name: string): Portal {
    const p = this.portals.get(name);
    if (!p) throw new PgError(SqlState.invalidCursorName, name === '' ? 'unnamed portal does not exist' : `portal "${name}" does not exist`);
    return p;
  }

  private bind(body: Buffer): void {
    const m = readBind(body);
    const statement = this.statement(m.statement);
    if (m.portal !== '' && this.portals.has(m.portal)) throw new PgError('42P03', `cursor "${m.portal}" already exists`);
    if (m.portal !== '' && this.portals.size >= this.config.maxPrepared) {
      throw new PgError(SqlState.programLimitExceeded, `a connection may hold at most ${this.config.maxPrepared} portals`);
    }
    const params = bindParameters(m.params, m.paramFormats, statement.paramTypes);
    this.removePortal(m.portal);
    this.budget.reserve(body.length);
    this.portals.set(m.portal, {
      statement,
      params,
      resultFormats: m.resultFormats,
      columns: statement.described?.columns,
      sent: 0,
      done: false,
      size: body.length,
    });
    this.out.send(msg.bindComplete());
  }

  /** Runs a portal's query the first time it is needed. */
  private async materialise(p: Portal): Promise<StatementResult> {
    if (!p.result) {
      this.config.logQuery?.(p.statement.text);
      p.result = await this.run(p.statement.text, p.params);
      // A described statement's columns stand unless the real result does not fit them.
      const actual = p.result.columns;
      if (!p.columns || !actual || actual.length !== p.columns.length) p.columns = actual;
    }
    return p.result;
  }

  private async describe(body: Buffer): Promise<void> {
    const m = readDescribe(body);
    if (m.target === 'S') {
      const s = this.statement(m.name);
      this.out.send(msg.parameterDescription(s.paramTypes.map((t) => (t === Oid.unspecified ? Oid.text : t))));
      if (!s.described) {
        const columns = s.empty ? undefined : await describeStatement(s.text, s.paramTypes.length, s.mutating, this.config);
        s.described = { columns };
      }
      const cols = s.described.columns;
      this.out.send(cols ? msg.rowDescription(this.fields(cols, [])) : msg.noData());
      return;
    }
    const p = this.portal(m.name);
    if (p.statement.empty) {
      this.out.send(msg.noData());
      return;
    }
    await this.materialise(p);
    this.out.send(p.columns ? msg.rowDescription(this.fields(p.columns, p.resultFormats)) : msg.noData());
  }

  private async execute(body: Buffer): Promise<void> {
    const m = readExecute(body);
    const p = this.portal(m.portal);
    if (p.statement.empty) {
      this.out.send(msg.emptyQueryResponse());
      return;
    }
    if (p.done) {
      this.out.send(msg.commandComplete(p.columns ? 'SELECT 0' : (p.result?.tag ?? 'SELECT 0')));
      return;
    }
    const result = await this.materialise(p);
    if (p.columns) this.fields(p.columns, p.resultFormats); // checks the format count
    const more = this.sendResult(result, p.columns, p.resultFormats, p.sent, m.maxRows, false);
    p.sent = more ? p.sent + m.maxRows : result.rows.length;
    p.done = !more;
    await this.out.drained();
  }

  private close(body: Buffer): void {
    const m = readClose(body);
    if (m.target === 'S') this.removeStatement(m.name);
    else this.removePortal(m.name);
    this.out.send(msg.closeComplete());
  }
}

function formatOf(formats: readonly number[], i: number): 0 | 1 {
  const f = formats.length === 0 ? 0 : formats.length === 1 ? formats[0] : formats[i];
  return f === 1 ? 1 : 0;
}
