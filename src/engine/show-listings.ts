/**
 * The listings of Neo4j 5's SHOW commands — INDEXES, CONSTRAINTS, PROCEDURES, FUNCTIONS and
 * DATABASES — with Neo4j's columns in Neo4j's order: every column (what `YIELD *` sees) and
 * the default subset a bare `SHOW …` or `SHOW … WHERE` returns. Drivers and tools (LangChain
 * reads `options.indexConfig` of `SHOW INDEXES YIELD *`) pick columns by these names.
 */

import type { ShowCommand } from '../frontend/ast.js';
import { formatName } from '../../runtime/format.js';
import { FloatBox, type Value } from '../../runtime/values.js';
import type { Schema } from '../store/schema.js';
import { procedureSignature, type ProcedureRegistry } from '../../procedures/registry.js';
import { functionCatalogue } from '../../functions/registry.js';

export interface ShowListing {
  /** Every column, in Neo4j's order. */
  columns: string[];
  /** The columns a SHOW without YIELD returns. */
  defaults: string[];
  records: Value[][];
}

/** The name and alias graphdb's one database answers to (drivers default to `neo4j`). */
export const DATABASE_NAME = 'neo4j';
export const DATABASE_ALIAS = 'graphdb';

const INDEX_DEFAULTS = ['id', 'name', 'state', 'populationPercent', 'type', 'entityType', 'labelsOrTypes', 'properties', 'indexProvider', 'owningConstraint', 'lastRead', 'readCount'];
const INDEX_COLUMNS = [...INDEX_DEFAULTS, 'trackedSince', 'options', 'failureMessage', 'createStatement'];
const CONSTRAINT_DEFAULTS = ['id', 'name', 'type', 'entityType', 'labelsOrTypes', 'properties', 'ownedIndex', 'propertyType'];
const CONSTRAINT_COLUMNS = [...CONSTRAINT_DEFAULTS, 'options', 'createStatement'];
const PROCEDURE_DEFAULTS = ['name', 'description', 'mode', 'worksOnSystem'];
const PROCEDURE_COLUMNS = [...PROCEDURE_DEFAULTS, 'signature', 'argumentDescription', 'returnDescription', 'admin', 'isDeprecated'];
const FUNCTION_DEFAULTS = ['name', 'category', 'description'];
const FUNCTION_COLUMNS = [...FUNCTION_DEFAULTS, 'signature', 'isBuiltIn', 'argumentDescription', 'returnDescription', 'aggregating', 'isDeprecated'];
const DATABASE_DEFAULTS = ['name', 'type', 'aliases', 'access', 'address', 'role', 'writer', 'requestedStatus', 'currentStatus', 'statusMessage', 'default', 'home', 'constituents'];
const DATABASE_COLUMNS = [...DATABASE_DEFAULTS, 'databaseID', 'serverID', 'creationTime', 'lastStartTime', 'lastStopTime', 'store', 'lastCommittedTxn', 'replicationLag', 'options'];

const PROVIDERS: Record<string, string> = { RANGE: 'range-1.0', VECTOR: 'vector-2.0', FULLTEXT: 'fulltext-1.0' };

function pattern(entity: 'node' | 'relationship', labels: string[]): string {
  const names = labels.map(formatName).join('|');
  return entity === 'node' ? `(e:${names})` : `()-[e:${names}]-()`;
}

function indexRows(schema: Schema, kind: string | undefined): Value[][] {
  schema.refresh();
  const rows: Value[][] = [];
  let id = 0;
  if (kind === undefined || kind === 'RANGE') {
    for (const i of schema.listIndexes()) {
      const percent = schema.indexPopulation(i.name) ?? 100;
      const options = new Map<string, Value>([['indexProvider', PROVIDERS.RANGE], ['indexConfig', new Map()]]);
      const statement = `CREATE RANGE INDEX ${formatName(i.name)} FOR ${pattern('node', [i.label])} ON (e.${formatName(i.key)})`;
      rows.push([++id, i.name, percent < 100 ? 'POPULATING' : 'ONLINE', new FloatBox(Math.floor(percent)), 'RANGE', 'NODE', [i.label], [i.key], PROVIDERS.RANGE, i.owner ?? null, null, 0, null, options, '', statement]);
    }
  }
  for (const e of schema.listExtensionIndexes()) {
    const type = e.def.type;
    if (kind !== undefined && kind !== type) continue;
    const populating = e.populating === true;
    // Neo4j's indexConfig; graphdb's own figures (size, how it was populated) ride beside it.
    const options = new Map<string, Value>([['indexProvider', PROVIDERS[type] ?? type.toLowerCase()], ['indexConfig', new Map<string, Value>(Object.entries(e.def.options))], ['size', e.size]]);
    const on = type === 'FULLTEXT' ? `ON EACH [${e.def.properties.map((p) => `e.${formatName(p)}`).join(', ')}]` : `ON (e.${formatName(e.def.properties[0] ?? '')})`;
    const statement = `CREATE ${type} INDEX ${formatName(e.def.name)} FOR ${pattern(e.def.entity, e.def.labelsOrTypes)} ${on}`;
    rows.push([
      ++id,
      e.def.name,
      populating ? 'POPULATING' : 'ONLINE',
      new FloatBox(populating ? Math.floor(e.populationPercent ?? 0) : 100),
      type,
      e.def.entity === 'node' ? 'NODE' : 'RELATIONSHIP',
      [...e.def.labelsOrTypes],
      [...e.def.properties],
      PROVIDERS[type] ?? type.toLowerCase(),
      null,
      null,
      0,
      null,
      options,
      '',
      statement,
    ]);
  }
  return rows;
}

function constraintRows(schema: Schema): Value[][] {
  const owned = new Map(schema.listIndexes().filter((i) => i.owner !== undefined).map((i) => [i.owner as string, i.name]));
  return schema.listConstraints().map((c, k) => {
    const unique = c.kind === 'unique';
    const statement = `CREATE CONSTRAINT ${formatName(c.name)} FOR ${pattern('node', [c.label])} REQUIRE (e.${formatName(c.key)}) IS ${unique ? 'UNIQUE' : 'NOT NULL'}`;
    const options = unique ? new Map<string, Value>([['indexProvider', PROVIDERS.RANGE], ['indexConfig', new Map()]]) : null;
    return [k + 1, c.name, unique ? 'UNIQUENESS' : 'NODE_PROPERTY_EXISTENCE', 'NODE', [c.label], [c.key], owned.get(c.name) ?? null, null, options, statement];
  });
}

function databaseRows(name: string | undefined): Value[][] {
  const row = (db: string, type: string, aliases: string[], isDefault: boolean): Value[] => [
    db, type, aliases, 'read-write', 'localhost:7687', 'primary', true, 'online', 'online', '', isDefault, isDefault, [],
    db, 'graphdb', null, null, null, null, null, null, new Map(),
  ];
  const rows = [row(DATABASE_NAME, 'standard', [DATABASE_ALIAS], true), row('system', 'system', [], false)];
  return name === undefined ? rows : rows.filter((r) => r[0] === name || (r[2] as string[]).includes(name));
}

/** The listing of one SHOW command. */
export function showListing(schema: Schema, procedures: ProcedureRegistry, cmd: ShowCommand): ShowListing {
  switch (cmd.what) {
    case 'indexes':
      return { columns: INDEX_COLUMNS, defaults: INDEX_DEFAULTS, records: indexRows(schema, cmd.indexType) };
    case 'constraints':
      return { columns: CONSTRAINT_COLUMNS, defaults: CONSTRAINT_DEFAULTS, records: constraintRows(schema) };
    case 'procedures':
      return {
        columns: PROCEDURE_COLUMNS,
        defaults: PROCEDURE_DEFAULTS,
        records: procedures.list().map((p) => {
          const args = p.inputs.map((f) => new Map<string, Value>([['name', f.name], ['type', f.type], ['description', `${f.name} :: ${f.type}`]]));
          const returns = p.outputs.map((f) => new Map<string, Value>([['name', f.name], ['type', f.type], ['description', `${f.name} :: ${f.type}`]]));
          return [p.name, p.description, p.mode.toUpperCase(), false, procedureSignature(p), args, returns, p.mode === 'dbms', false];
        }),
      };
    case 'functions':
      return {
        columns: FUNCTION_COLUMNS,
        defaults: FUNCTION_DEFAULTS,
        records: functionCatalogue().map((f) => [f.name, f.category, f.description, f.signature, true, [], [], f.aggregate, false]),
      };
    case 'databases':
      return { columns: DATABASE_COLUMNS, defaults: DATABASE_DEFAULTS, records: databaseRows(cmd.database) };
  }
}

/** The listing cut down to its default columns. */
export function defaultColumns(listing: ShowListing): { columns: string[]; records: Value[][] } {
  const at = listing.defaults.map((c) => listing.columns.indexOf(c));
  return { columns: listing.defaults, records: listing.records.map((r) => at.map((i) => r[i])) };
}
