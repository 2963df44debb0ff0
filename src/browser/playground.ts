/**
 * The static playground's entry (dist/browser/playground/playground.js): installs the in-page
 * backend, then loads the web console's own bundle from dist/console, the one `graphdb --http`
 * serves, so the package carries the console once.
 */
import { installPlaygroundBackend } from './playground-api.js';

installPlaygroundBackend();
// A URL computed at run time, so that the bundler leaves the console to its own file.
const consoleBundle = new URL('../../console/console.js', import.meta.url).href;
await import(consoleBundle);
