/** `node:url` in the browser build: file URLs as plain path strings (there is no file system to reach). */

export function fileURLToPath(url: string | URL): string {
  return decodeURIComponent(new URL(String(url)).pathname);
}

export function pathToFileURL(path: string): URL {
  return new URL('file://' + encodeURI(path));
}
