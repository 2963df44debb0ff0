/**
 * The interactive shell (`graphdb`, `graphdb --playground`). Owns the read loop: prompts,
 * statements that span lines until a `;`, `:` meta-commands, Ctrl-C/Ctrl-D, persistent
 * history, and printing results and errors without ever leaving on a failed query.
 *
 * On a terminal it is a line editor with history, and queries run through the query router
 * so that Ctrl-C stops a running query (on a worker thread) and the shell stays; when stdin or stdout is not a terminal
 * it reads statements from stdin silently (no prompts, no banner), prints their results,
 * runs a final statement that lacks its `;`, and exits with status 1 if any statement
 * failed, so scripts can use it.
 */

import { createInterface, cursorTo, clearScreenDown, type Interface } from 'node:readline';
import type { Database } from '../engine/database.js';
import type { QueryExecutor } from '../engine/types.js';
import { toGraphDbError } from '../errors.js';
import { EXIT_OK, EXIT_QUERY_FAILED } from './cli-error.js';
import { HISTORY_SIZE, loadHistory, saveHistory } from './history.js';
import { type CliIo, tableWidth, useColor, writeLine } from './io.js';
import { type MetaContext, runMetaCommand } from './meta-commands.js';
import { renderResult } from './render.js';
import { renderError } from './render-error.js';
import { StatementSplitter } from './statement-splitter.js';

export const PROMPT = 'graphdb> ';
export const CONTINUATION_PROMPT = '      -> ';
/** `      -> `, or `     '-> ` when the statement so far ends inside a string (or `"`, `` ` ``, `*` for a comment). */
function continuationPrompt(openedBy: string): string {
  return openedBy === '' ? CONTINUATION_PROMPT : `     ${openedBy}-> `;
}

/** A table longer than this is cut in the shell; `graphdb query` prints everything. */
export const MAX_TABLE_ROWS = 1000;

export interface ReplOptions {
  db: Database;
  /**
   * Where typed queries run on a terminal: the query router, whose worker threads let Ctrl-C
   * stop a running read. Without it (and in scripts) queries run on the main thread.
   */
  queries?: QueryExecutor;
  io: CliIo;
  /** Printed at start on a terminal (version line, playground suggestions). */
  banner?: string;
  /** History file; undefined for none. */
  historyFile?: string;
}

/** Node's readline keeps its history here; not in its typings. */
interface WithHistory {
  history?: string[];
}

class Repl {
  private readonly splitter = new StatementSplitter();
  private readonly params = new Map<string, unknown>();
  private readonly interactive: boolean;
  private readonly rl: Interface;
  private failures = 0;
  private quitting = false;
  /** Ctrl-C on an empty line once: a second one leaves. */
  private interruptedOnce = false;
  /** Lines of the statement being typed, to store it as one history entry. */
  private statementLines = 0;
  /** Set while a query runs on a worker: Ctrl-C aborts it. */
  private running: AbortController | undefined;

  constructor(private readonly options: ReplOptions) {
    const { io } = options;
    this.interactive = io.stdin.isTTY === true && io.stdout.isTTY === true;
    this.rl = createInterface({
      input: io.stdin,
      output: io.stdout,
      terminal: this.interactive,
      prompt: PROMPT,
      history: this.interactive && options.historyFile ? loadHistory(options.historyFile) : [],
      historySize: this.interactive ? HISTORY_SIZE : 0,
      removeHistoryDuplicates: true,
    });
    this.rl.on('SIGINT', () => this.onInterrupt());
  }

  async run(): Promise<number> {
    if (this.interactive && this.options.banner) writeLine(this.options.io.stdout, this.options.banner);
    this.prompt();
    for await (const line of this.rl) {
      this.interruptedOnce = false;
      await this.onLine(line);
      this.saveHistory(); // after every entry, so that a closed terminal loses nothing
      if (this.quitting) break;
      this.prompt();
    }
    if (!this.quitting) await this.onEnd();
    this.rl.close();
    this.saveHistory();
    return this.failures > 0 && !this.interactive ? EXIT_QUERY_FAILED : EXIT_OK;
  }

  private prompt(): void {
    if (!this.interactive) return;
    this.rl.setPrompt(this.splitter.isEmpty() ? PROMPT : continuationPrompt(this.splitter.openedBy()));
    this.rl.prompt();
  }

  private async onLine(line: string): Promise<void> {
    if (this.splitter.isEmpty() && line.trimStart().startsWith(':')) {
      this.splitter.reset();
      this.statementLines = 0;
      await this.runMeta(line.trim());
      return;
    }
    if (line.trim() !== '') this.statementLines++;
    const statements = this.splitter.feedLine(line);
    if (statements.length === 0) return;
    this.collapseHistory(statements);
    for (const statement of statements) {
      await this.runQuery(statement);
    }
  }

  /** End of input: in a script, run a last statement that lacks its `;`. */
  private async onEnd(): Promise<void> {
    if (this.interactive) {
      writeLine(this.options.io.stdout);
      return;
    }
    if (!this.splitter.isEmpty()) await this.runQuery(this.splitter.pending());
  }

  private onInterrupt(): void {
    if (this.running !== undefined) {
      // Ctrl-C while a query runs stops the query, never the shell.
      this.running.abort();
      writeLine(this.options.io.stdout, '^C  (stopping the query)');
      return;
    }
    const typing = this.rl.line.length > 0 || !this.splitter.isEmpty();
    if (!typing && this.interruptedOnce) {
      this.quitting = true;
      writeLine(this.options.io.stdout);
      this.rl.close();
      return;
    }
    this.interruptedOnce = !typing;
    this.splitter.reset();
    this.statementLines = 0;
    // Drop what is typed on the current line as well.
    this.rl.write(null, { ctrl: true, name: 'e' });
    this.rl.write(null, { ctrl: true, name: 'u' });
    writeLine(this.options.io.stdout, typing ? '^C' : '^C  (press Ctrl-C again, Ctrl-D or type :quit to leave)');
    this.prompt();
  }

  private context(): MetaContext {
    const { io } = this.options;
    return {
      db: this.options.db,
      params: this.params,
      print: (text) => writeLine(io.stdout, text),
      printError: (text) => {
        this.failures++;
        writeLine(io.stderr, text);
      },
      clearScreen: () => {
        if (!this.interactive) return;
        cursorTo(io.stdout, 0, 0);
        clearScreenDown(io.stdout);
      },
    };
  }

  private async runMeta(line: string): Promise<void> {
    try {
      const outcome = await runMetaCommand(line, this.context());
      if (outcome === 'exit') this.quitting = true;
    } catch (err) {
      // For :plan/:js the argument is a query, so a compile error can point into it.
      this.reportError(err, line.replace(/^:\S*\s*/, '').replace(/;\s*$/, ''));
    }
  }

  private async runQuery(query: string): Promise<void> {
    const { db, io, queries } = this.options;
    const params = this.params.size > 0 ? this.params : undefined;
    try {
      let result;
      if (queries === undefined || !this.interactive) {
        result = db.executeSync(query, params);
      } else {
        this.running = new AbortController();
        try {
          result = await queries.execute(query, params, { signal: this.running.signal });
        } finally {
          this.running = undefined;
        }
      }
      writeLine(io.stdout, renderResult(result, { width: tableWidth(io.stdout), color: useColor(io.stdout), maxRows: MAX_TABLE_ROWS }));
      if (this.interactive) writeLine(io.stdout);
    } catch (err) {
      this.reportError(err, query);
    }
  }

  private reportError(err: unknown, query?: string): void {
    this.failures++;
    writeLine(this.options.io.stderr, renderError(toGraphDbError(err), query));
    if (this.interactive) writeLine(this.options.io.stderr);
  }

  /**
   * readline records each typed line; a statement typed over several lines becomes one
   * entry instead, so that ↑ brings back the whole statement.
   */
  private collapseHistory(statements: string[]): void {
    const lines = this.statementLines;
    this.statementLines = this.splitter.isEmpty() ? 0 : 1;
    const history = (this.rl as unknown as WithHistory).history;
    if (!this.interactive || !Array.isArray(history) || lines < 2 || statements.length !== 1) return;
    const text = statements[0];
    if (text.includes('//')) return; // joining lines would turn the rest into a comment
    history.splice(0, Math.min(lines, history.length), text.split('\n').map((l) => l.trim()).join(' ') + ';');
  }

  private saveHistory(): void {
    const file = this.options.historyFile;
    const history = (this.rl as unknown as WithHistory).history;
    if (this.interactive && file && Array.isArray(history)) saveHistory(file, history);
  }
}

/** Runs the REPL until :quit, Ctrl-D or the end of stdin; resolves to the exit status. */
export function runRepl(options: ReplOptions): Promise<number> {
  return new Repl(options).run();
}
