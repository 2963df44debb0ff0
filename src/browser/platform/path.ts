/**
 * `node:path` in the browser build: POSIX path arithmetic on strings, the few functions the
 * engine uses (names in messages, confinement checks that then meet `fs.ts`'s refusals).
 */

export const sep = '/';
export const delimiter = ':';

export function normalize(p: string): string {
  const absolute = p.startsWith('/');
  const parts: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length > 0 && parts[parts.length - 1] !== '..') parts.pop();
      else if (!absolute) parts.push('..');
    } else parts.push(part);
  }
  const body = parts.join('/');
  return absolute ? '/' + body : body === '' ? '.' : body;
}

export const isAbsolute = (p: string): boolean => p.startsWith('/');
export const join = (...parts: string[]): string => normalize(parts.filter((p) => p !== '').join('/') || '.');

export function resolve(...parts: string[]): string {
  let out = '';
  for (let i = parts.length - 1; i >= 0 && !out.startsWith('/'); i--) out = parts[i] + (out === '' ? '' : '/' + out);
  return normalize(out.startsWith('/') ? out : '/' + out);
}

export function dirname(p: string): string {
  const n = normalize(p);
  const at = n.lastIndexOf('/');
  return at < 0 ? '.' : at === 0 ? '/' : n.slice(0, at);
}

export function basename(p: string, ext?: string): string {
  const base = normalize(p).split('/').pop() ?? '';
  return ext !== undefined && base.endsWith(ext) ? base.slice(0, -ext.length) : base;
}

export function extname(p: string): string {
  const base = basename(p);
  const at = base.lastIndexOf('.');
  return at <= 0 ? '' : base.slice(at);
}

export function relative(from: string, to: string): string {
  const a = resolve(from).split('/').filter(Boolean);
  const b = resolve(to).split('/').filter(Boolean);
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return [...a.slice(i).map(() => '..'), ...b.slice(i)].join('/');
}

export const posix = { sep, delimiter, normalize, isAbsolute, join, resolve, dirname, basename, extname, relative };
export default posix;
