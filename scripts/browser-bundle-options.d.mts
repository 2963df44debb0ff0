// Types of browser-bundle-options.mjs for the TypeScript tests that bundle with it.
import type { BuildOptions } from 'esbuild';

export function browserBundleOptions(root: string): Promise<BuildOptions>;
