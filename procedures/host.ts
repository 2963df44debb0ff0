/**
 * What procedures may ask of the database that runs them, beyond the graph: nested Cypher
 * in the caller's transaction (apoc.cypher.*, apoc.periodic.*, apoc.when), the plan cache,
 * configuration and identity (dbms.*), per-transaction metadata (tx.*) and the file-access
 * rule shared with LOAD CSV. `Database` implements it; procedures see it as `ctx.host`.
 * The interfaces live in registry.ts (the host names the registry, and the registry's
 * procedure context names the host); this module is their public name.
 */

export type { NestedResult, ProcedureHost } from './registry.js';
