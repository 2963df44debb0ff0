/**
 * `node:fs` in the browser build: a page has no file system, so every call is a typed
 * refusal (BrowserUnsupportedError) naming what was asked; `existsSync` answers false.
 * Reached only by file features (LOAD CSV from a path, file export procedures, data
 * directories); the browser store lives in OPFS (src/browser/opfs-store.ts).
 */
import { BrowserUnsupportedError } from '../../errors.js';

const refuse = (name: string) => (): never => {
  throw new BrowserUnsupportedError(`File access (fs.${name})`);
};

export const constants: Record<string, number> = { O_RDONLY: 0, O_WRONLY: 1, O_RDWR: 2, O_CREAT: 64, O_EXCL: 128, O_TRUNC: 512, O_APPEND: 1024, O_NOFOLLOW: 131072 };
export const existsSync = (): boolean => false;
export const readFileSync = refuse('readFileSync');
export const writeFileSync = refuse('writeFileSync');
export const appendFileSync = refuse('appendFileSync');
export const readdirSync = refuse('readdirSync');
export const statSync = refuse('statSync');
export const lstatSync = refuse('lstatSync');
export const fstatSync = refuse('fstatSync');
export const openSync = refuse('openSync');
export const closeSync = refuse('closeSync');
export const readSync = refuse('readSync');
export const writeSync = refuse('writeSync');
export const fsyncSync = refuse('fsyncSync');
export const fdatasyncSync = refuse('fdatasyncSync');
export const ftruncateSync = refuse('ftruncateSync');
export const truncateSync = refuse('truncateSync');
export const renameSync = refuse('renameSync');
export const rmSync = refuse('rmSync');
export const unlinkSync = refuse('unlinkSync');
export const mkdirSync = refuse('mkdirSync');
export const realpathSync = refuse('realpathSync');
export const readlinkSync = refuse('readlinkSync');
export const copyFileSync = refuse('copyFileSync');
export const createReadStream = refuse('createReadStream');
export const createWriteStream = refuse('createWriteStream');
export const openAsBlob = refuse('openAsBlob');
export const watch = refuse('watch');
export const linkSync = refuse('linkSync');
export const fdatasync = refuse('fdatasync');
export const fsync = refuse('fsync');
export const promises = {
  readFile: refuse('promises.readFile'),
  writeFile: refuse('promises.writeFile'),
  open: refuse('promises.open'),
  rename: refuse('promises.rename'),
  rm: refuse('promises.rm'),
  stat: refuse('promises.stat'),
  mkdir: refuse('promises.mkdir'),
};
