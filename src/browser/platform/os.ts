/** `node:os` in the browser build: the figures a page can know (cores from navigator), neutral values otherwise. */

export const EOL = '\n';
export const availableParallelism = (): number => globalThis.navigator?.hardwareConcurrency ?? 1;
export const cpus = (): unknown[] => Array.from({ length: availableParallelism() }, () => ({}));
// A page cannot see the machine's memory; 2 GiB stands for what a tab may use.
export const totalmem = (): number => 2 * 1024 ** 3;
export const freemem = (): number => totalmem();
export const tmpdir = (): string => '/tmp';
export const homedir = (): string => '/';
export const platform = (): string => 'browser';
export const hostname = (): string => globalThis.location?.hostname ?? 'browser';
// A page cannot see the machine's load: no load, as on an idle machine.
export const loadavg = (): number[] => [0, 0, 0];
