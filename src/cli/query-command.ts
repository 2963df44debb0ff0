/**
 * `graphdb query "<query>"`: runs one query and exits. With `--json` stdout holds exactly
 * one JSON object, the SPEC's query result or its error object; otherwise a table and a
 * footer (errors to stderr). `--dump-plan` / `--dump-js` show the optimised plan and the
 * generated JavaScript first (to stderr in `--json` mode, so stdout stays one object).
 * Exit status: 0 on success, 1 when the query fails.
 */

import type { Database } from '../engine/database.js';
import { toGraphDbError } from '../errors.js';
import { EXIT_OK, EXIT_QUERY_FAILED } from './cli-error.js';
import { type CliIo, tableWidth, useColor, writeLine } from './io.js';
import { renderResult, toJsonResult } from './render.js';
import { renderError } from './render-error.js';

export interface QueryCommandOptions {
  json?: boolean;
  dumpPlan?: boolean;
  dumpJs?: boolean;
  params?: Record<string, unknown>;
}

export function runQueryCommand(db: Database, query: string, options: QueryCommandOptions, io: CliIo): number {
  const dumps = options.json ? io.stderr : io.stdout;
  try {
    // A blank line after each dump keeps plan, source and result apart.
    if (options.dumpPlan) writeLine(dumps, db.explain(query) + '\n');
    if (options.dumpJs) writeLine(dumps, db.generatedSource(query) + '\n');
    const result = db.executeSync(query, options.params);
    if (options.json) writeLine(io.stdout, JSON.stringify(toJsonResult(result)));
    else writeLine(io.stdout, renderResult(result, { width: tableWidth(io.stdout), color: useColor(io.stdout) }));
    return EXIT_OK;
  } catch (err) {
    const error = toGraphDbError(err);
    if (options.json) writeLine(io.stdout, JSON.stringify(error.toJSON()));
    else writeLine(io.stderr, renderError(error, query));
    return EXIT_QUERY_FAILED;
  }
}
