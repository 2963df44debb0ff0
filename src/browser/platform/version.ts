/** `src/version.ts` in the browser build: the version is written in at bundle time (scripts/build-browser.mjs). */

declare const __GRAPHDB_VERSION__: string;

export const PRODUCT_NAME = 'graphdb';

export function packageRoot(): string {
  return '/';
}

export function packageVersion(): string {
  return __GRAPHDB_VERSION__;
}
