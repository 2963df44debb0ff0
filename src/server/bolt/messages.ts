/**
 * Bolt's message signatures (requests and responses) and the shapes of the responses we send.
 * A message is a PackStream structure whose tag is its signature.
 */

import type { PackValue } from './packstream.js';
import { Structure } from './packstream.js';

export const REQUEST = {
  HELLO: 0x01, GOODBYE: 0x02, RESET: 0x0f, RUN: 0x10, BEGIN: 0x11, COMMIT: 0x12, ROLLBACK: 0x13,
  DISCARD: 0x2f, PULL: 0x3f, TELEMETRY: 0x54, ROUTE: 0x66, LOGON: 0x6a, LOGOFF: 0x6b,
} as const;

const SUCCESS = 0x70;
const RECORD = 0x71;
const IGNORED = 0x7e;
const FAILURE = 0x7f;

export type Meta = Map<string, PackValue>;

/** A metadata map from a plain object (undefined entries left out). */
export function meta(o: Record<string, PackValue | undefined>): Meta {
  const m: Meta = new Map();
  for (const [k, v] of Object.entries(o)) if (v !== undefined) m.set(k, v);
  return m;
}

export const success = (m: Meta = new Map()): Structure => new Structure(SUCCESS, [m]);
export const record = (values: PackValue[]): Structure => new Structure(RECORD, [values]);
export const ignored = (): Structure => new Structure(IGNORED, []);

/**
 * FAILURE with Neo4j's code: `code` for Bolt before 5.7, and from 5.7 on the GQL form the
 * drivers read (`neo4j_code`, `gql_status`, `description`); both are sent, extra keys are ignored.
 */
export function failure(code: string, message: string): Structure {
  return new Structure(FAILURE, [
    meta({
      code,
      neo4j_code: code,
      message,
      gql_status: code.startsWith('Neo.TransientError') ? '50N00' : code.includes('Security') ? '42NFF' : '42001',
      description: message,
      diagnostic_record: meta({ OPERATION: '', OPERATION_CODE: '0', CURRENT_SCHEMA: '/' }),
    }),
  ]);
}

/** A map field of a request, or an empty map when it is missing or not a map. */
export function mapField(fields: readonly PackValue[], i: number): Meta {
  const v = fields[i];
  return v instanceof Map ? v : new Map();
}
