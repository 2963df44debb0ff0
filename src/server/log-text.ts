/**
 * Client-supplied text (user names, query text) made safe for one log line: control
 * characters — line breaks, carriage returns, escape sequences, Unicode line and
 * paragraph separators — are written as `\n`, `\r`, `\x1b`, `\u2028`, … so a client
 * cannot forge log lines or drive the terminal that shows the log.
 */

// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

export function escapeForLog(text: string): string {
  return text.replace(UNSAFE, (c) => NAMED[c] ?? (c.charCodeAt(0) < 0x100 ? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}` : `\\u${c.charCodeAt(0).toString(16)}`));
}
