/**
 * The CLI's view of the package root and version; the one implementation lives in
 * `src/version.ts`, shared with the servers.
 */

export { packageRoot, packageVersion } from '../version.js';
