/**
 * Vitest runs the TypeScript sources through its own loader, which require() cannot follow, so
 * the modules the engine loads lazily (src/lazy-module.ts) are loaded up front here. The lazy
 * path itself is exercised through the built binary (test/cli/lazy-startup.test.ts).
 */
import { preloadLazyModules } from '../../src/lazy-module.js';
// Every module that declares a lazy one, so that the preload below finds them all.
import '../../procedures/lazy-families.js';
import '../../src/frontend/parse-entry.js';
import '../../src/engine/database.js';

await preloadLazyModules();
