/**
 * `graphdb import`: the command line of the CSV bulk import (src/engine/csv-import.ts) into a
 * data directory — options, a progress line with rows/s and ETA on a terminal, bad rows on
 * stderr, and a summary line.
 */

import * as fs from 'node:fs';
import { Command } from 'commander';
import type { IdType, ImportInput } from '../engine/csv-import.js';
import { ArgumentError } from '../errors.js';
import { CliUsageError } from './cli-error.js';
import type { CliIo } from './io.js';
import { writeLine } from './io.js';

export interface ImportCommandOptions {
  dataDir?: string;
  delimiter?: string;
  arrayDelimiter?: string;
  skipBadRows?: boolean;
  idType?: string;
  threads?: string;
}

/**
 * Reads the `--nodes[=L]`/`--relationships[=T]` file arguments in command-line order. A file
 * that does not exist, or a stray argument after one (`--nodes Person people.csv`, where the
 * label needed `=`), is a usage error that says what was meant, before anything is opened.
 */
export function collectInputs(argv: readonly string[], exists: (path: string) => boolean = fs.existsSync): ImportInput[] {
  const inputs: ImportInput[] = [];
  for (let i = 0; i < argv.length; i++) {
    const m = /^--(nodes|relationships)(?:=(.*))?$/.exec(argv[i]!);
    if (!m) {
      if (argv[i]!.startsWith('-')) continue;
      const last = inputs.at(-1);
      if (last !== undefined && argv[i - 1] === last.path && !exists(last.path)) {
        throw new CliUsageError(`--${last.kind} ${last.path} ${argv[i]}: ${last.path} is not a file; to give ${last.kind === 'nodes' ? 'a label' : 'a type'}, write --${last.kind}=${last.path} ${argv[i]}`);
      }
      throw new CliUsageError(`unexpected argument ${JSON.stringify(argv[i])}: each CSV file follows --nodes[=Label] or --relationships[=TYPE]`);
    }
    const path = argv[++i];
    if (path === undefined || path.startsWith('--')) throw new CliUsageError(`--${m[1]} needs a CSV file`);
    inputs.push({ kind: m[1] as ImportInput['kind'], defaults: m[2] ? m[2].split(':').filter(Boolean) : [], path });
  }
  const missing = inputs.find((input) => !exists(input.path));
  if (missing !== undefined) throw new CliUsageError(`--${missing.kind} ${missing.path}: no such file`);
  return inputs;
}

/** `1 node`, `2 nodes`. */
function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Rows, rows/s and (from bytes read) the ETA on one terminal line, at most 5 times a second. */
class ImportProgress {
  private readonly started = Date.now();
  private shown = 0;

  constructor(
    private readonly io: CliIo,
    private readonly totalBytes: number,
  ) {}

  row(rows: number, bytesDone: number): void {
    if (!this.io.stderr.isTTY || (rows & 1023) !== 0) return;
    const now = Date.now();
    if (now - this.shown < 200) return;
    this.shown = now;
    const seconds = (now - this.started) / 1000;
    const share = this.totalBytes > 0 ? Math.min(1, bytesDone / this.totalBytes) : 0;
    const eta = share > 0 ? seconds * (1 / share - 1) : 0;
    this.io.stderr.write(`\r${rows.toLocaleString('en-US')} rows, ${Math.round(rows / Math.max(seconds, 0.001)).toLocaleString('en-US')} rows/s, ${(share * 100).toFixed(0)}%, ETA ${eta.toFixed(0)} s   `);
  }

  done(): void {
    if (this.io.stderr.isTTY && this.shown > 0) this.io.stderr.write('\r\x1b[K');
  }
}

/** Imports into `--data-dir` and prints the summary; returns the exit status. */
export async function runImport(inputs: ImportInput[], options: ImportCommandOptions, io: CliIo): Promise<number> {
  if (!options.dataDir) throw new CliUsageError('graphdb import needs --data-dir');
  if (inputs.length === 0) throw new CliUsageError('graphdb import needs at least one --nodes or --relationships file');
  const idType = (options.idType ?? 'string').toLowerCase();
  if (idType !== 'string' && idType !== 'integer') throw new CliUsageError(`--id-type must be string or integer, not ${JSON.stringify(options.idType)}`);
  const threads = options.threads === undefined ? undefined : Number(options.threads);
  if (threads !== undefined && (!Number.isInteger(threads) || threads < 1)) throw new CliUsageError(`--threads must be a whole number of at least 1, not ${JSON.stringify(options.threads)}`);
  const started = Date.now();
  const [{ Database }, { importCsv }] = await Promise.all([import('../engine/database.js'), import('../engine/csv-import.js')]);
  const db = await Database.open({ dataDir: options.dataDir, storage: { snapshotOnClose: false } });
  try {
    let progress: ImportProgress | undefined;
    const summary = await importCsv(db, inputs, {
      delimiter: options.delimiter,
      arrayDelimiter: options.arrayDelimiter,
      skipBadRows: options.skipBadRows,
      idType: idType as IdType,
      threads,
      onSkip: (where, reason) => writeLine(io.stderr, `skipped ${where}: ${reason}`),
      onRow: (rows, bytesDone, totalBytes) => (progress ??= new ImportProgress(io, totalBytes)).row(rows, bytesDone),
    }).catch((err: unknown) => {
      throw err instanceof ArgumentError ? new CliUsageError(err.message) : err;
    });
    progress?.done();
    const seconds = (Date.now() - started) / 1000;
    const rows = summary.nodes + summary.relationships;
    writeLine(
      io.stdout,
      `Imported ${count(summary.nodes, 'node', 'nodes')}, ${count(summary.relationships, 'relationship', 'relationships')}, ${count(summary.properties, 'property', 'properties')} in ${seconds.toFixed(2)} s (${Math.round(rows / Math.max(seconds, 0.001))} rows/s)` +
        (summary.skipped ? `; skipped ${count(summary.skipped, 'bad row', 'bad rows')}` : ''),
    );
    return 0;
  } finally {
    db.close();
  }
}

/** Registers `graphdb import` on the program. */
export function registerImportCommand(program: Command, io: CliIo, setStatus: (status: number) => void): void {
  program
    .command('import')
    .description('bulk-load CSV files (Neo4j admin-import headers) into --data-dir, all or nothing')
    .option('--delimiter <char>', 'field delimiter (default ,)')
    .option('--array-delimiter <char>', 'delimiter inside array columns and :LABEL (default ;)')
    .option('--skip-bad-rows', 'report and skip bad rows instead of importing nothing')
    .option('--id-type <type>', 'store :ID values as string (default) or integer properties')
    .option('--threads <n>', 'threads that read the files: 1 reads on one thread; default one per core, at most 8 (inputs under 16 MiB are read on one thread)')
    .allowUnknownOption(true)
    .allowExcessArguments(true)
    .addHelpText('after', '\nFiles: --nodes[=Label[:Label2]] <file> and --relationships[=TYPE] <file> (repeatable).\nExample:\n  graphdb import --data-dir db --nodes=Person people.csv --relationships=KNOWS knows.csv\n')
    .action(async (_options: unknown, command: Command) => {
      const opts = command.optsWithGlobals<ImportCommandOptions>();
      setStatus(await runImport(collectInputs(command.args), opts, io));
    });
}
