/**
 * Client-supplied text (user names, query text, URLs given to procedures, peers' error
 * messages) made safe for one log line: control characters — line breaks, carriage returns,
 * escape sequences, C1 controls, Unicode line and paragraph separators — and the
 * bidirectional controls (U+061C, U+200E/F, U+202A–U+202E, U+2066–U+2069), which reorder
 * what a terminal shows, are written as `\n`, `\r`, `\x1b`, `\u202e`, … so a client can
 * neither forge log lines, nor drive the terminal, nor disguise what it sent. Every log
 * sink of the servers (`logLine`, `stderrLine`) passes its lines through here.
 */

// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

export function escapeForLog(text: string): string {
  return text.replace(UNSAFE, (c) => NAMED[c] ?? (c.charCodeAt(0) < 0x100 ? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}` : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
}
