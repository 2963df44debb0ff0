/**
 * The result table: a page of rows at a time ("Show more"), the next page fetched from the
 * server once the loaded rows are all shown (the row cap's "load more"), sorted by a column
 * when its header is clicked, and copy: the cells form a grid that the arrow keys move
 * through (one Tab stop), Ctrl/Cmd-C copies the focused cell, and the buttons above copy the
 * focused cell, its row, or the whole loaded table as TSV or CSV.
 */

import type { Cell, QueryAnswer } from './api.js';
import { copyText, delimited, writeClipboard } from './copy.js';
import { cellText } from './results.js';

/** Rows the table draws at first, and adds with each "show more". */
export const TABLE_PAGE = 100;

/** Rows of the answer still on the server, and how to fetch the next page of them. */
export interface MoreRows {
  remaining(): number;
  /** Fetches the next page and appends it to the answer's rows. */
  load(): Promise<void>;
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, cls?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls !== undefined) e.className = cls;
  return e;
}

function button(id: string, text: string, title: string): HTMLButtonElement {
  const b = el('button', text);
  b.type = 'button';
  b.id = id;
  b.title = title;
  return b;
}

function compareCells(a: Cell, b: Cell): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (a === null) return b === null ? 0 : 1;
  if (b === null) return -1;
  return cellText(a).localeCompare(cellText(b));
}

export function renderTable(target: HTMLElement, answer: QueryAnswer, more?: MoreRows): void {
  target.replaceChildren();
  if (answer.columns.length === 0) {
    target.append(el('p', 'No rows.', 'muted'));
    return;
  }
  const columns = answer.columns.length;
  let rows = answer.rows;
  let shown = Math.min(TABLE_PAGE, rows.length);
  let sortedBy: { column: number; descending: boolean } | undefined;
  /** The grid's focused cell (row within the drawn rows, column); the one cell in the Tab order. */
  const active = { row: 0, column: 0 };
  const table = el('table');
  table.setAttribute('role', 'grid');
  table.setAttribute('aria-label', 'Result rows (arrow keys move between cells, Ctrl+C copies one)');
  const head = el('tr');
  const body = el('tbody');
  const moreButton = el('button', '', 'table-more');
  moreButton.type = 'button';
  moreButton.id = 'table-more';
  const status = el('span', '', 'muted');
  status.id = 'copy-status';
  status.setAttribute('role', 'status');

  const cellAt = (row: number, column: number): HTMLTableCellElement | undefined => body.rows[row]?.cells[column];

  const setActive = (row: number, column: number, focus: boolean): void => {
    if (shown === 0) return;
    cellAt(active.row, active.column)?.setAttribute('tabindex', '-1');
    cellAt(active.row, active.column)?.classList.remove('active');
    active.row = Math.max(0, Math.min(row, shown - 1));
    active.column = Math.max(0, Math.min(column, columns - 1));
    const td = cellAt(active.row, active.column)!;
    td.tabIndex = 0;
    td.classList.add('active');
    if (focus) td.focus();
  };

  const drawBody = (): void => {
    body.replaceChildren();
    rows.slice(0, shown).forEach((row, r) => {
      const tr = el('tr');
      row.forEach((cell, c) => {
        const td = el('td', cellText(cell));
        td.tabIndex = -1;
        td.dataset.row = String(r);
        td.dataset.column = String(c);
        tr.append(td);
      });
      body.append(tr);
    });
    const left = rows.length - shown + (more?.remaining() ?? 0);
    moreButton.hidden = left <= 0;
    moreButton.textContent = `Show more (${left} more rows${shown >= rows.length ? ', from the server' : ''})`;
    setActive(active.row, active.column, false);
  };

  const copy = async (what: string, text: string): Promise<void> => {
    const ok = await writeClipboard(text);
    status.textContent = ok ? `Copied ${what}` : 'The browser refused the clipboard';
    status.dataset.copied = ok ? what : 'refused';
  };
  const activeRow = (): Cell[] => rows[active.row] ?? [];
  const copyCell = (): Promise<void> => copy('a cell', copyText(activeRow()[active.column] ?? null));
  const copyRow = (): Promise<void> => copy('a row', delimited(undefined, [activeRow()], '\t'));

  const tools = el('div', undefined, 'table-tools');
  const copyCellButton = button('copy-cell', 'Copy cell', 'Copy the focused cell (Ctrl/Cmd+C in the table)');
  const copyRowButton = button('copy-row', 'Copy row', "Copy the focused cell's row, tab-separated");
  const copyTsvButton = button('copy-tsv', 'Copy TSV', 'Copy the loaded rows with their header, tab-separated (pastes into a spreadsheet)');
  const copyCsvButton = button('copy-csv', 'Copy CSV', 'Copy the loaded rows with their header, comma-separated');
  copyCellButton.addEventListener('click', () => void copyCell());
  copyRowButton.addEventListener('click', () => void copyRow());
  copyTsvButton.addEventListener('click', () => void copy(`${rows.length} rows as TSV`, delimited(answer.columns, rows, '\t')));
  copyCsvButton.addEventListener('click', () => void copy(`${rows.length} rows as CSV`, delimited(answer.columns, rows, ',')));
  tools.append(copyCellButton, copyRowButton, copyTsvButton, copyCsvButton, status);

  body.addEventListener('click', (e) => {
    const td = (e.target as HTMLElement).closest('td');
    if (td !== null) setActive(Number(td.dataset.row), Number(td.dataset.column), true);
  });
  body.addEventListener('keydown', (e) => {
    const moves: Record<string, [number, number]> = {
      ArrowUp: [active.row - 1, active.column],
      ArrowDown: [active.row + 1, active.column],
      ArrowLeft: [active.row, active.column - 1],
      ArrowRight: [active.row, active.column + 1],
      Home: [e.ctrlKey ? 0 : active.row, 0],
      End: [e.ctrlKey ? shown - 1 : active.row, columns - 1],
      PageUp: [active.row - 10, active.column],
      PageDown: [active.row + 10, active.column],
    };
    const to = moves[e.key];
    if (to !== undefined) {
      e.preventDefault();
      setActive(to[0], to[1], true);
    } else if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'c' && (window.getSelection()?.toString() ?? '') === '') {
      // With text selected the browser's own copy takes the selection.
      e.preventDefault();
      void copyCell();
    }
  });

  const resort = (): void => {
    if (sortedBy === undefined) {
      rows = answer.rows;
      return;
    }
    const { column, descending } = sortedBy;
    rows = [...answer.rows].sort((x, y) => (descending ? -1 : 1) * compareCells(x[column], y[column]));
  };

  answer.columns.forEach((name, column) => {
    const th = el('th');
    const b = el('button', name, 'sort');
    b.type = 'button';
    b.title = 'Sort the loaded rows by this column';
    b.addEventListener('click', () => {
      sortedBy = { column, descending: sortedBy?.column === column && !sortedBy.descending };
      resort();
      for (const other of head.querySelectorAll('th')) other.removeAttribute('aria-sort');
      th.setAttribute('aria-sort', sortedBy.descending ? 'descending' : 'ascending');
      drawBody();
    });
    th.append(b);
    head.append(th);
  });
  moreButton.addEventListener('click', () => {
    if (shown < rows.length || more === undefined || more.remaining() === 0) {
      shown = Math.min(shown + TABLE_PAGE, rows.length);
      drawBody();
      return;
    }
    moreButton.disabled = true;
    moreButton.textContent = 'Loading…';
    more
      .load()
      .then(() => {
        resort();
        shown = Math.min(shown + TABLE_PAGE, rows.length);
      })
      .catch((err: unknown) => {
        status.textContent = err instanceof Error ? err.message : String(err);
      })
      .finally(() => {
        moreButton.disabled = false;
        drawBody();
      });
  });
  table.append(el('thead'), body);
  table.tHead!.append(head);
  drawBody();
  target.append(tools, table, moreButton);
}
