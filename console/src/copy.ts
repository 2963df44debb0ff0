/**
 * Copying results as text: a cell, a row or a table as tab-separated (what spreadsheets paste
 * into columns) or comma-separated text, and the clipboard write itself, which falls back to
 * the older selection copy where the asynchronous clipboard is missing (a page served over
 * plain HTTP from a non-loopback address is not a secure context).
 */

import type { Cell } from './api.js';
import { cellText } from './results.js';

/** A cell as copied text: strings without their quotes, null as nothing, the rest as the table shows it. */
export function copyText(c: Cell): string {
  return typeof c === 'string' ? c : c === null ? '' : cellText(c);
}

function field(c: Cell | string, separator: string): string {
  const text = copyText(c);
  // Quoted as CSV quotes (RFC 4180), which spreadsheets also read in tab-separated text.
  return text.includes(separator) || /["\r\n]/.test(text) ? '"' + text.replace(/"/g, '""') + '"' : text;
}

/** Rows (and a header line when `columns` is given) as tab- or comma-separated text. */
export function delimited(columns: string[] | undefined, rows: Cell[][], separator: '\t' | ','): string {
  const lines = columns === undefined ? [] : [columns.map((c) => field(c, separator)).join(separator)];
  for (const row of rows) lines.push(row.map((c) => field(c, separator)).join(separator));
  const eol = separator === ',' ? '\r\n' : '\n';
  return lines.join(eol) + eol;
}

/** Puts `text` on the clipboard; resolves false when the browser refused. */
export async function writeClipboard(text: string): Promise<boolean> {
  if (navigator.clipboard !== undefined) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      // Refused (no permission, page not focused): try the selection copy below.
    }
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  const focused = document.activeElement;
  document.body.append(area);
  area.select();
  let ok: boolean;
  try {
    ok = document.execCommand('copy');
  } catch {
    ok = false;
  }
  area.remove();
  if (focused instanceof HTMLElement) focused.focus();
  return ok;
}
