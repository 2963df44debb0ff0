/**
 * The schema commands of extension indexes: `CREATE VECTOR INDEX`, `CREATE FULLTEXT INDEX`
 * and their rows in `SHOW [VECTOR|FULLTEXT] INDEXES`. The index kinds themselves live in
 * src/vector/ and src/fulltext/; this module only turns the parsed command into their
 * definitions.
 */

import type { SchemaCommand } from '../frontend/ast.js';
import { FloatBox, type Value } from '../../runtime/values.js';
import type { ExtensionIndex, Schema } from '../store/schema.js';
import { QuerySemanticError } from '../errors.js';
import { indexConfig } from './index-options.js';
import { vectorConfigFrom, vectorDefinition } from '../vector/config.js';
import { fulltextCode, isFulltextIndex, isVectorIndex } from './retrieval-code.js';

type CreateIndex = Extract<SchemaCommand, { kind: 'CreateIndex' }>;

function defaultName(cmd: CreateIndex): string {
  return `${cmd.indexType}_${(cmd.labels ?? [cmd.label]).join('_')}_${cmd.properties.join('_')}`;
}

/** Runs CREATE VECTOR INDEX; returns whether the schema changed. */
export function createVectorIndex(schema: Schema, cmd: CreateIndex): boolean {
  if (cmd.properties.length !== 1) throw new QuerySemanticError('A vector index covers exactly one property', 'InvalidIndexDefinition', cmd.pos);
  if ((cmd.labels?.length ?? 1) !== 1 || cmd.label === '') {
    throw new QuerySemanticError('A vector index covers exactly one label or relationship type', 'InvalidIndexDefinition', cmd.pos);
  }
  const config = vectorConfigFrom(indexConfig(cmd.options));
  return schema.createExtensionIndex(vectorDefinition(cmd.name ?? defaultName(cmd), cmd.entity, cmd.label, cmd.properties[0], config), cmd.ifNotExists);
}

/** Runs CREATE FULLTEXT INDEX; returns whether the schema changed. */
export function createFulltextIndex(schema: Schema, cmd: CreateIndex): boolean {
  const labels = cmd.labels ?? (cmd.label === '' ? [] : [cmd.label]);
  const def = fulltextCode.get().fulltextDefinition(cmd.name ?? defaultName(cmd), cmd.entity, labels, cmd.properties, indexConfig(cmd.options));
  return schema.createExtensionIndex(def, cmd.ifNotExists);
}

export const EXTENSION_SHOW_COLUMNS = ['name', 'state', 'populationPercent', 'type', 'entityType', 'labelsOrTypes', 'properties', 'options'];

/** Rows of SHOW VECTOR / FULLTEXT INDEXES: ONLINE at 100 %, or POPULATING with the share done while a large one is built in the background. */
export function extensionIndexRows(schema: Schema, type: string): Value[][] {
  schema.refresh();
  return schema
    .listExtensionIndexes()
    .filter((e) => e.def.type === type)
    .map((e) => [
      e.def.name,
      e.populating === true ? 'POPULATING' : 'ONLINE',
      new FloatBox(e.populating === true ? Math.floor(e.populationPercent ?? 0) : 100),
      e.def.type,
      e.def.entity === 'node' ? 'NODE' : 'RELATIONSHIP',
      [...e.def.labelsOrTypes],
      [...e.def.properties],
      new Map<string, Value>([['indexConfig', new Map<string, Value>(Object.entries(e.def.options))], ['size', e.size], ...populationEntries(e)]),
    ]);
}

/** For a vector or full-text index: whether it was built or loaded from its saved file, and how many elements were caught up. */
function populationEntries(e: ExtensionIndex): [string, Value][] {
  if (!isVectorIndex(e) && !isFulltextIndex(e)) return [];
  return [
    ['populatedFrom', e.population.source],
    ['caughtUp', e.population.caughtUp],
  ];
}
