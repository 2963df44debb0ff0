/**
 * Dynamic Cypher: `apoc.cypher.run` (read), `runWrite`/`doIt` (write), `apoc.when` /
 * `apoc.do.when` (conditional), and `apoc.periodic.iterate` / `commit`. The nested
 * statement runs inside the calling query through the procedure host: same transaction
 * (so a failure rolls everything back and writes are counted in the caller's statistics),
 * same deadline. APOC commits batches separately; here a call is one transaction.
 */

import type { Value } from '../../runtime/values.js';
import { ResourceLimitError } from '../../src/errors.js';
import type { NestedResult } from '../host.js';
import { backticked as quoteName } from '../db/property-types.js';
import type { ProcedureContext, ProcedureRegistry } from '../registry.js';
import { badArgument, field, hostOf, integerOr, invalidArgument, mapOrEmpty, option, procedure, requiredString } from '../define.js';

/** apoc.periodic.commit stops with an error after this many rounds (a statement that never reaches 0). */
const MAX_COMMIT_ROUNDS = 100_000;

function rowMaps(r: NestedResult): Value[][] {
  return r.records.map((row) => [new Map(r.columns.map((c, i) => [c, row[i]]))]);
}

function run(ctx: ProcedureContext, proc: string, statement: Value, params: Value, allowWrites: boolean, arg = 'statement'): NestedResult {
  const q = requiredString(statement, proc, arg);
  return hostOf(ctx, proc).runNested(q, mapOrEmpty(params, proc, 'params'), allowWrites);
}

const VALUE_OUT = [field('value', 'MAP')];

export function registerApocCypher(registry: ProcedureRegistry): void {
  const runner = (name: string, mode: 'read' | 'write', description: string) =>
    procedure(name, mode, description, [field('statement', 'STRING'), field('params', 'MAP')], VALUE_OUT, (ctx, [statement, params]) =>
      rowMaps(run(ctx, name, statement, params, mode === 'write')),
    );
  registry.register(runner('apoc.cypher.run', 'read', 'Runs a read-only statement given as text; each result row as a map.'));
  registry.register(runner('apoc.cypher.runWrite', 'write', 'Runs a statement given as text that may write; each result row as a map.'));
  registry.register(runner('apoc.cypher.doIt', 'write', 'Runs a statement given as text that may write; each result row as a map.'));
  const when = (name: string, mode: 'read' | 'write') =>
    procedure(
      name,
      mode,
      `Runs ifQuery when the condition is true, else elseQuery (${mode === 'read' ? 'read-only' : 'may write'}); each result row as a map.`,
      [field('condition', 'BOOLEAN'), field('ifQuery', 'STRING'), field('elseQuery', 'STRING', ''), field('params', 'MAP', new Map())],
      VALUE_OUT,
      (ctx, [condition, ifQuery, elseQuery, params]) => {
        const chosen = condition === true ? ifQuery : elseQuery;
        if (chosen === '' || chosen === null) return [];
        return rowMaps(run(ctx, name, chosen, params, mode === 'write', condition === true ? 'ifQuery' : 'elseQuery'));
      },
    );
  registry.register(when('apoc.when', 'read'));
  registry.register(when('apoc.do.when', 'write'));
  registry.register(
    procedure(
      'apoc.periodic.iterate',
      'write',
      'Runs cypherAction once per row of cypherIterate, the row\'s columns as parameters (config: batchSize, params); all in the calling transaction.',
      [field('cypherIterate', 'STRING'), field('cypherAction', 'STRING'), field('config', 'MAP')],
      [
        field('batches', 'INTEGER'),
        field('total', 'INTEGER'),
        field('timeTaken', 'INTEGER'),
        field('committedOperations', 'INTEGER'),
        field('failedOperations', 'INTEGER'),
        field('failedBatches', 'INTEGER'),
        field('retries', 'INTEGER'),
        field('errorMessages', 'MAP'),
        field('wasTerminated', 'BOOLEAN'),
      ],
      (ctx, [iterate, action, config]) => {
        const started = performance.now();
        const cfg = mapOrEmpty(config, 'apoc.periodic.iterate', 'config');
        const batchSize = integerOr(option(cfg, 'batchSize', 10000), 10000, 'apoc.periodic.iterate', 'config');
        if (batchSize < 1) throw invalidArgument('apoc.periodic.iterate', 'config', `has batchSize ${batchSize}; it must be at least 1`);
        const extra = mapOrEmpty(option(cfg, 'params', new Map()), 'apoc.periodic.iterate', 'config');
        const host = hostOf(ctx, 'apoc.periodic.iterate');
        const source = host.runNested(requiredString(iterate, 'apoc.periodic.iterate', 'cypherIterate'), extra, true);
        const act = requiredString(action, 'apoc.periodic.iterate', 'cypherAction');
        // As APOC does: each batch of rows is one run of the action, the rows' columns bound as variables.
        const bind = source.columns.map((c) => `_batch.${quoteName(c)} AS ${quoteName(c)}`);
        const batchQuery = `UNWIND $_batch AS _batch WITH ${['_batch', ...bind].join(', ')} ${act}`;
        for (let i = 0; i < source.records.length; i += batchSize) {
          const batch = source.records.slice(i, i + batchSize).map((row) => new Map(source.columns.map((c, k) => [c, row[k]])));
          host.runNested(batchQuery, new Map([...extra, ['_batch', batch]]), true);
          ctx.checkDeadline();
        }
        const total = source.records.length;
        return [[Math.ceil(total / batchSize), total, Math.round((performance.now() - started) / 1000), total, 0, 0, 0, new Map(), false]];
      },
    ),
  );
  registry.register(
    procedure(
      'apoc.periodic.commit',
      'write',
      'Runs a statement again and again until it returns 0 (its first column of the first row counts the work done).',
      [field('statement', 'STRING'), field('params', 'MAP', new Map())],
      [field('updates', 'INTEGER'), field('executions', 'INTEGER'), field('runtime', 'INTEGER'), field('batches', 'INTEGER'), field('failedBatches', 'INTEGER'), field('batchErrors', 'MAP'), field('failedCommits', 'INTEGER'), field('commitErrors', 'MAP'), field('wasTerminated', 'BOOLEAN')],
      (ctx, [statement, params]) => {
        const started = performance.now();
        let updates = 0;
        let executions = 0;
        for (;;) {
          const r = run(ctx, 'apoc.periodic.commit', statement, params, true);
          executions++;
          const first = r.records[0]?.[0] ?? 0;
          if (typeof first !== 'number' && typeof first !== 'bigint') throw badArgument('apoc.periodic.commit', 'statement', first, 'a statement whose first column is a count');
          const n = Number(first);
          if (n <= 0) break;
          updates += n;
          if (executions >= MAX_COMMIT_ROUNDS) throw new ResourceLimitError(`apoc.periodic.commit ran ${MAX_COMMIT_ROUNDS} rounds without reaching 0; does the statement use LIMIT and make progress?`);
          ctx.checkDeadline();
        }
        return [[updates, executions, Math.round((performance.now() - started) / 1000), executions, 0, new Map(), 0, new Map(), false]];
      },
    ),
  );
}
