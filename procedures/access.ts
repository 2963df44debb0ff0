/**
 * The kinds of work a procedure does, which the authorisation rule grants (a module of its
 * own, importing nothing, so that query options can name them without the registry).
 */

/**
 * What a procedure does, for the authorisation rule (src/server/authorization.ts): reads the
 * graph, writes the graph, writes files (outside the store), or administers the instance
 * (replication roles, sync, skills, indexes, configuration, maintenance). A door grants a
 * caller some of these; a call of a procedure outside the grant is refused where it is
 * invoked (runtime/graph/misc.ts `callProcedure`), whatever query text led to it.
 */
export type ProcedureAccess = 'read' | 'write' | 'files' | 'admin';

export const ALL_ACCESS: readonly ProcedureAccess[] = Object.freeze(['read', 'write', 'files', 'admin']);
