/** `node:perf_hooks` in the browser build: the page's own `performance`. */
export const performance = globalThis.performance;
