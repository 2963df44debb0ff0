/**
 * `dbms.*` (and the db.procedures alias): what tools ask on connect — the product and
 * version (dbms.components), identity (dbms.info), settings (dbms.clientConfig,
 * dbms.listConfig), the current user (dbms.showCurrentUser) and the procedure and
 * function catalogues, with Neo4j's column names.
 */

import { functionCatalogue } from '../../functions/registry.js';
import { packageVersion, PRODUCT_NAME } from '../../src/version.js';
import type { Value } from '../../runtime/values.js';
import { procedureSignature, type ProcedureContext, type ProcedureDef, type ProcedureRegistry } from '../registry.js';
import { computeInfo } from '../algo/compute.js';
import { field, hostOf, procedure, requiredString, withAccess } from '../define.js';

/**
 * The Neo4j version whose Cypher and procedures this engine follows. Tools (LangChain,
 * drivers) read the first row of dbms.components to decide which features to use.
 */
export const NEO4J_COMPATIBLE_VERSION = '5.26.0';

function procedureRows(ctx: ProcedureContext, proc: string): Value[][] {
  return hostOf(ctx, proc)
    .procedures.list()
    .map((p) => [p.name, procedureSignature(p), p.description, p.mode.toUpperCase(), false]);
}

const PROCEDURE_COLUMNS = [field('name', 'STRING'), field('signature', 'STRING'), field('description', 'STRING'), field('mode', 'STRING'), field('worksOnSystem', 'BOOLEAN')];

export function registerDbmsProcedures(registry: ProcedureRegistry): void {
  // Every dbms procedure here only reports: readable by any caller (the dbms default is administration).
  const report = (def: ProcedureDef): void => registry.register(withAccess('read', def));
  report(
    procedure(
      'dbms.components',
      'dbms',
      'The product and version: a Neo4j-compatible kernel row first (tools check it), then graphdb itself.',
      [],
      [field('name', 'STRING'), field('versions', 'LIST<STRING>'), field('edition', 'STRING')],
      () => [
        ['Neo4j Kernel', [NEO4J_COMPATIBLE_VERSION], 'community'],
        [PRODUCT_NAME, [packageVersion()], 'community'],
      ],
    ),
  );
  report(
    procedure(
      'dbms.info',
      'dbms',
      'The identity of the server: id, name and when it started; and its compute: the ONNX execution provider the algorithms use (cuda, cpu or none), cores, total memory in bytes, GPU (none when absent) and onnxRuntime: why a better provider was not chosen (e.g. onnxruntime-node missing, with the fix), null when none was passed over.',
      [],
      [field('id', 'STRING'), field('name', 'STRING'), field('creationDate', 'STRING'), field('executionProvider', 'STRING'), field('cores', 'INTEGER'), field('totalMemory', 'INTEGER'), field('gpu', 'STRING'), field('onnxRuntime', 'STRING?')],
      (ctx) => {
        const i = hostOf(ctx, 'dbms.info').info();
        const c = computeInfo();
        return [[i.id, PRODUCT_NAME, i.creationDate, c.provider, c.cores, c.totalMemory, c.gpu, c.fallback ?? null]];
      },
    ),
  );
  const configColumns = [field('name', 'STRING'), field('description', 'STRING'), field('value', 'STRING'), field('dynamic', 'BOOLEAN')];
  report(
    procedure('dbms.clientConfig', 'dbms', 'Settings a client (Neo4j Browser) reads on connect.', [], configColumns, (ctx) =>
      hostOf(ctx, 'dbms.clientConfig')
        .config()
        .filter((c) => c.name.startsWith('browser.') || c.name.startsWith('db.'))
        .map((c) => [c.name, c.description, c.value, c.dynamic]),
    ),
  );
  report(
    procedure('dbms.listConfig', 'dbms', 'Settings whose name contains the search string (all with an empty string).', [field('searchString', 'STRING', '')], configColumns, (ctx, [search]) => {
      const s = requiredString(search ?? '', 'dbms.listConfig', 'searchString').toLowerCase();
      return hostOf(ctx, 'dbms.listConfig')
        .config()
        .filter((c) => c.name.toLowerCase().includes(s))
        .map((c) => [c.name, c.description, c.value, c.dynamic]);
    }),
  );
  report(
    procedure(
      'dbms.showCurrentUser',
      'dbms',
      'The user of this session (graphdb has no authentication: always neo4j, an admin).',
      [],
      [field('username', 'STRING'), field('roles', 'LIST<STRING>'), field('flags', 'LIST<STRING>')],
      () => [['neo4j', ['admin'], []]],
    ),
  );
  report(procedure('dbms.procedures', 'dbms', 'Lists every registered procedure with its signature and mode.', [], PROCEDURE_COLUMNS, (ctx) => procedureRows(ctx, 'dbms.procedures')));
  report(procedure('db.procedures', 'dbms', 'Lists every registered procedure (alias of dbms.procedures).', [], PROCEDURE_COLUMNS, (ctx) => procedureRows(ctx, 'db.procedures')));
  report(
    procedure(
      'dbms.functions',
      'dbms',
      'Lists every built-in function with its signature.',
      [],
      [field('name', 'STRING'), field('signature', 'STRING'), field('category', 'STRING'), field('description', 'STRING'), field('aggregating', 'BOOLEAN')],
      () => functionCatalogue().map((f) => [f.name, f.signature, f.category, f.description, f.aggregate]),
    ),
  );
}
