/** `node:fs/promises` in the browser build: typed refusals, as `fs.ts` explains. */
import { promises } from './fs.js';

export const { readFile, writeFile, open, rename, rm, stat, mkdir } = promises;
