/**
 * `Json`: the type of JSON-compatible data, which every persisted form (WAL payloads,
 * LMDB values, snapshot lines) is built from. Owning the type here keeps the persistence
 * modules free of `any`/`unknown` juggling.
 */

export type Json = null | boolean | number | string | Json[] | JsonObject;

export interface JsonObject {
  [key: string]: Json;
}

export function isJsonObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
