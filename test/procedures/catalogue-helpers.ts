/** Shared fixtures for the catalogue tests: a small social graph and result helpers. */

import { expect } from 'vitest';
import { Database } from '../../src/engine/database.js';
import type { DatabaseOptions } from '../../src/engine/types.js';
import { toJs } from '../../runtime/format.js';
import type { GraphDbError } from '../../src/errors.js';

export const FIXTURE = `
CREATE (a:Person {name: 'Ann', age: 30})-[:KNOWS {w: 1}]->(b:Person {name: 'Bob', age: 25})-[:KNOWS {w: 2}]->(c:Person:Admin {name: 'Cy'}),
       (a)-[:LIKES {w: 5}]->(c), (c)-[:LIVES_IN]->(:City {name: 'Oslo'})`;

export function fixture(options?: DatabaseOptions): Database {
  const db = Database.openInMemory(options);
  db.executeSync(FIXTURE);
  return db;
}

/** The records of a query as plain JavaScript values. */
export function rows(db: Database, query: string, params?: Record<string, unknown>): unknown[][] {
  return db.executeSync(query, params).records.map((r) => r.map(toJs));
}

/** The single value of a one-row, one-column query. */
export function value(db: Database, query: string, params?: Record<string, unknown>): unknown {
  const r = rows(db, query, params);
  expect(r).toHaveLength(1);
  return r[0][0];
}

/** Asserts the query fails with a GraphDbError whose message matches `message`; returns the error. */
export function fails(db: Database, query: string, message: RegExp): GraphDbError {
  let caught: unknown;
  try {
    db.executeSync(query);
  } catch (err) {
    caught = err;
  }
  expect(caught, `expected ${query} to fail`).toBeInstanceOf(Error);
  const e = caught as GraphDbError;
  expect(typeof e.code).toBe('string');
  expect(e.message).toMatch(message);
  return e;
}
