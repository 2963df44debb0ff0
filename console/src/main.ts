/**
 * The console page: wires the editor, the run/stop controls, the result views, the sidebar
 * (status, labels and types with counts, history) and the API-key prompt together.
 * `window.graphdbConsole` exposes the graph for the browser tests (counting drawn elements).
 */

import { autocompletion, completionKeymap } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { bracketMatching, defaultHighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { EditorState, Prec } from '@codemirror/state';
import { EditorView, keymap, lineNumbers, placeholder } from '@codemirror/view';
import { type Cell, closeCursor, fetchPage, fetchSource, fetchStatus, KeyNeeded, type PagedAnswer, runPaged, runQuery, ServerError, storedKey, storeKey } from './api.js';
import { cypherCompletions, cypherLanguage, emptySchema, errorMarkField, errorPosition, errorRange, offsetOf, type Schema, setErrorMark, type Statement, splitStatements } from './cypher.js';
import { type GNode, type GRel, GraphView } from './graph.js';
import { asksForPlan, parsePlan, withoutPlanWord } from './plan.js';
import { answerCsv, cellText, countersText, renderJson, renderPlan } from './results.js';
import { renderTable } from './table.js';

const HISTORY_STORE = 'graphdb.console.history';
const HISTORY_MAX = 50;
const SAVED_STORE = 'graphdb.console.saved';
const ROW_CAP_STORE = 'graphdb.console.rowCap';
/** Rows a query's answer brings at first, and each "load more" after (the server keeps the rest). */
const DEFAULT_ROW_CAP = 1000;
const MAX_ROW_CAP = 10_000;

type View = 'table' | 'graph' | 'json' | 'plan';

function $(id: string): HTMLElement {
  const e = document.getElementById(id);
  if (e === null) throw new Error(`The page has no #${id}`);
  return e;
}

let schema: Schema = emptySchema();
let running: AbortController | undefined;
let currentView: View = 'table';
let lastAnswer: PagedAnswer | undefined;
let lastMs = 0;

// ---------------------------------------------------------------- API key

const keyDialog = $('key-dialog') as HTMLDialogElement;
let keyWaiters: (() => void)[] = [];

/** Shows the key prompt; resolves once a key the server accepts is stored. */
function askForKey(refused: boolean): Promise<void> {
  $('key-error').hidden = !refused;
  $('key-button').hidden = false;
  if (!keyDialog.open) keyDialog.showModal();
  ($('key-input') as HTMLInputElement).focus();
  return new Promise((resolve) => keyWaiters.push(resolve));
}

$('key-form').addEventListener('submit', (e) => {
  e.preventDefault();
  storeKey(($('key-input') as HTMLInputElement).value);
  void fetchStatus().then(
    () => {
      keyDialog.close();
      const waiters = keyWaiters;
      keyWaiters = [];
      waiters.forEach((w) => w());
    },
    (err: unknown) => {
      $('key-error').hidden = !(err instanceof KeyNeeded);
    },
  );
});
$('key-button').addEventListener('click', () => void askForKey(false).then(refreshSidebar));

/** Runs `call`, asking for the key (and retrying) while the server refuses it. */
async function withKey<T>(call: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await call();
    } catch (err) {
      if (!(err instanceof KeyNeeded)) throw err;
      await askForKey(storedKey() !== undefined);
    }
  }
}

// ---------------------------------------------------------------- editor

function runKey(): boolean {
  void run();
  return true;
}

const editor = new EditorView({
  parent: $('editor'),
  state: EditorState.create({
    doc: 'MATCH (n) RETURN n LIMIT 25',
    extensions: [
      Prec.highest(keymap.of([{ key: 'Mod-Enter', run: runKey }])),
      lineNumbers(),
      history(),
      bracketMatching(),
      placeholder('Cypher or GQL; Ctrl/Cmd-Enter runs'),
      cypherLanguage,
      syntaxHighlighting(defaultHighlightStyle),
      autocompletion({ override: cypherCompletions(() => schema), activateOnTyping: true }),
      errorMarkField,
      keymap.of([...completionKeymap, ...defaultKeymap, ...historyKeymap]),
      EditorView.lineWrapping,
    ],
  }),
});

function setQuery(text: string): void {
  editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: text }, selection: { anchor: text.length } });
  editor.focus();
}

async function loadSchema(): Promise<void> {
  const column = async (query: string): Promise<string[]> => {
    const a = await runQuery(query, {});
    return a.rows.map((r) => String(r[0]));
  };
  const [labels, relationshipTypes, propertyKeys, procedures, functions] = await Promise.all([
    column('CALL db.labels()'),
    column('CALL db.relationshipTypes()'),
    column('CALL db.propertyKeys()'),
    column('CALL dbms.procedures() YIELD name RETURN name'),
    column('CALL dbms.functions() YIELD name RETURN name'),
  ]);
  schema = { labels, relationshipTypes, propertyKeys, procedures, functions };
  document.body.dataset.schema = 'loaded';
}

// ---------------------------------------------------------------- row cap

const rowCapInput = $('row-cap') as HTMLInputElement;
rowCapInput.max = String(MAX_ROW_CAP);
rowCapInput.value = localStorage.getItem(ROW_CAP_STORE) ?? String(DEFAULT_ROW_CAP);

function rowCap(): number {
  const n = Math.floor(Number(rowCapInput.value));
  return Number.isFinite(n) && n >= 1 ? Math.min(n, MAX_ROW_CAP) : DEFAULT_ROW_CAP;
}

rowCapInput.addEventListener('change', () => {
  rowCapInput.value = String(rowCap());
  localStorage.setItem(ROW_CAP_STORE, rowCapInput.value);
});

// ---------------------------------------------------------------- history

function readHistory(): string[] {
  try {
    const h: unknown = JSON.parse(localStorage.getItem(HISTORY_STORE) ?? '[]');
    return Array.isArray(h) ? h.filter((q): q is string => typeof q === 'string') : [];
  } catch {
    return [];
  }
}

function remember(query: string): void {
  const h = [query, ...readHistory().filter((q) => q !== query)].slice(0, HISTORY_MAX);
  localStorage.setItem(HISTORY_STORE, JSON.stringify(h));
  drawHistory();
}

function drawHistory(): void {
  const list = $('history');
  list.replaceChildren();
  for (const q of readHistory()) {
    const li = document.createElement('li');
    li.textContent = q;
    li.title = q;
    li.tabIndex = 0;
    const pick = (): void => setQuery(q);
    li.addEventListener('click', pick);
    li.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') pick();
    });
    list.append(li);
  }
}

// ---------------------------------------------------------------- saved queries

function readSaved(): string[] {
  try {
    const saved: unknown = JSON.parse(localStorage.getItem(SAVED_STORE) ?? '[]');
    return Array.isArray(saved) ? saved.filter((q): q is string => typeof q === 'string') : [];
  } catch {
    return [];
  }
}

function writeSaved(saved: string[]): void {
  localStorage.setItem(SAVED_STORE, JSON.stringify(saved));
  drawSaved();
}

function drawSaved(): void {
  const list = $('saved');
  list.replaceChildren();
  for (const q of readSaved()) {
    const li = document.createElement('li');
    const name = document.createElement('span');
    name.className = 'name';
    name.textContent = q.split('\n')[0];
    name.title = q;
    name.tabIndex = 0;
    name.addEventListener('click', () => setQuery(q));
    name.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') setQuery(q);
    });
    const remove = document.createElement('button');
    remove.type = 'button';
    remove.textContent = '✕';
    remove.title = 'Remove from Saved';
    remove.setAttribute('aria-label', 'Remove from Saved');
    remove.addEventListener('click', () => writeSaved(readSaved().filter((s) => s !== q)));
    li.append(name, remove);
    list.append(li);
  }
}

$('save').addEventListener('click', () => {
  const q = editor.state.doc.toString().trim();
  if (q !== '') writeSaved([q, ...readSaved().filter((s) => s !== q)]);
});

// ---------------------------------------------------------------- results

const graph = new GraphView({
  container: $('graph'),
  legend: $('legend'),
  inspect: showProperties,
  expand: async (id) => {
    const a = await withKey(() => runQuery('MATCH (n)-[r]-(m) WHERE id(n) = $id RETURN n, r, m LIMIT 100', { id }));
    return a.rows.flat();
  },
});
$('fit').addEventListener('click', () => graph.fit());

function showProperties(entity: GNode | GRel | null): void {
  const box = $('inspector');
  box.replaceChildren();
  if (entity === null) return;
  const title = document.createElement('h3');
  title.textContent = 'labels' in entity ? entity.labels.map((l) => ':' + l).join('') || '(no label)' : ':' + entity.type;
  const dl = document.createElement('dl');
  const add = (k: string, v: string): void => {
    const dt = document.createElement('dt');
    dt.textContent = k;
    const dd = document.createElement('dd');
    dd.textContent = v;
    dl.append(dt, dd);
  };
  add('id', String(entity.id));
  for (const [k, v] of Object.entries(entity.properties)) add(k, cellText(v));
  box.append(title);
  if ('labels' in entity) {
    const actions = document.createElement('div');
    actions.className = 'node-actions';
    const button = (id: string, text: string, act: () => void): void => {
      const b = document.createElement('button');
      b.type = 'button';
      b.id = id;
      b.textContent = text;
      b.addEventListener('click', act);
      actions.append(b);
    };
    button('pin-node', graph.isPinned(entity.id) ? 'Unpin' : 'Pin', () => {
      ($('pin-node') as HTMLButtonElement).textContent = graph.togglePin(entity.id) ? 'Unpin' : 'Pin';
    });
    button('expand-node', 'Expand', () => void graph.expand(entity.id).catch(showError));
    button('hide-node', 'Hide', () => {
      graph.hide(entity.id);
      showProperties(null);
    });
    box.append(actions);
  }
  box.append(dl);
}

function showView(view: View): void {
  currentView = view;
  for (const v of ['table', 'graph', 'json', 'plan'] as View[]) {
    $('view-' + v).hidden = v !== view;
    $('tab-' + v).setAttribute('aria-selected', String(v === view));
  }
  if (view === 'graph') graph.resize();
}

for (const tab of document.querySelectorAll<HTMLButtonElement>('.tabs button[role="tab"]')) {
  tab.addEventListener('click', () => showView(tab.dataset.view as View));
}

/** The rows line: how many, how long, what was written, and how many more wait on the server. */
function summarise(answer: PagedAnswer, ms: number): void {
  const counters = countersText(answer.stats);
  const more = answer.remaining > 0 ? ` (row cap; ${answer.remaining} more on the server)` : '';
  $('summary').textContent = `${answer.rows.length} row${answer.rows.length === 1 ? '' : 's'} in ${ms} ms` + more + (counters ? ` — ${counters}` : '');
}

/** The answer's next page from the server: added to the table's rows, the JSON and the drawing. */
async function loadMoreRows(answer: PagedAnswer): Promise<void> {
  if (answer.cursor === null) return;
  const cursor = answer.cursor;
  const page = await withKey(() => fetchPage(cursor));
  answer.rows.push(...page.rows);
  answer.cursor = page.cursor;
  answer.remaining = page.remaining;
  renderJson($('json'), answer);
  graph.add(page.rows.flat() as Cell[]);
  summarise(answer, lastMs);
}

function showAnswer(query: string, answer: PagedAnswer, ms: number): void {
  // The rest of the previous answer will not be read now.
  if (lastAnswer?.cursor) closeCursor(lastAnswer.cursor);
  lastAnswer = answer;
  lastMs = ms;
  renderTable($('view-table'), answer, { remaining: () => answer.remaining, load: () => loadMoreRows(answer) });
  renderJson($('json'), answer);
  const plan = asksForPlan(query) && answer.rows.length === 1 && typeof answer.rows[0][0] === 'string' ? parsePlan(answer.rows[0][0]) : undefined;
  renderPlan($('view-plan'), plan);
  if (plan !== undefined) addSourceToggle(withoutPlanWord(query));
  graph.show(answer.rows.flat() as Cell[]);
  summarise(answer, ms);
  if (plan !== undefined) showView('plan');
  else if (currentView === 'plan') showView('table');
  else if (currentView === 'graph') graph.resize();
}

/** Shows `err`; a server error with a position is marked in the editor, inside `statement` when several ran. */
/** The plan view's "Generated JavaScript": fetched when first opened. */
function addSourceToggle(query: string): void {
  const details = document.createElement('details');
  details.id = 'plan-js';
  const summary = document.createElement('summary');
  summary.textContent = 'Generated JavaScript';
  const pre = document.createElement('pre');
  pre.id = 'plan-js-source';
  details.append(summary, pre);
  details.addEventListener('toggle', () => {
    if (!details.open || pre.dataset.loaded !== undefined) return;
    pre.dataset.loaded = 'pending';
    pre.textContent = 'compiling…';
    withKey(() => fetchSource(query)).then(
      (source) => {
        pre.textContent = source === '' ? '(no generated code: a schema command)' : source;
        pre.dataset.loaded = 'true';
      },
      (err: unknown) => {
        pre.textContent = err instanceof Error ? err.message : String(err);
        pre.dataset.loaded = 'error';
      },
    );
  });
  $('view-plan').append(details);
}

function showError(err: unknown, statement?: Statement, count = 1): void {
  const box = $('error');
  box.hidden = false;
  if (err instanceof ServerError) {
    const which = statement !== undefined && count > 1 ? `statement ${splitStatements(editor.state.doc.toString()).findIndex((s) => s.from === statement.from) + 1}: ` : '';
    box.textContent = `${which}${err.code}: ${err.message}`;
    box.dataset.code = err.code;
    const pos = errorPosition(err.message);
    if (pos !== undefined) {
      const offset = (statement?.from ?? 0) + offsetOf(statement?.text ?? editor.state.doc.toString(), pos.line, pos.column);
      const range = errorRange(editor.state, offset);
      if (range) {
        editor.dispatch({ effects: setErrorMark.of(range), selection: { anchor: range.from }, scrollIntoView: true });
        const line = editor.state.doc.lineAt(range.from);
        box.dataset.line = String(line.number);
        box.dataset.column = String(range.from - line.from + 1);
      }
    }
  } else {
    box.textContent = err instanceof Error ? err.message : String(err);
    box.dataset.code = 'CLIENT';
  }
}

function clearError(): void {
  const box = $('error');
  box.hidden = true;
  box.textContent = '';
  delete box.dataset.code;
  delete box.dataset.line;
  delete box.dataset.column;
  editor.dispatch({ effects: setErrorMark.of(null) });
}

function readParams(): Record<string, unknown> {
  const text = ($('params') as HTMLTextAreaElement).value.trim();
  if (text === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Error(`The parameters are not valid JSON: ${(err as Error).message}`, { cause: err });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('The parameters must be a JSON object, such as {"name": "Ada"}');
  return value as Record<string, unknown>;
}

/**
 * Runs the editor's statements one after another (each its own request and transaction) and
 * shows the last answer; the first error stops the run. The history keeps the whole text.
 */
async function run(): Promise<void> {
  if (running !== undefined) return;
  const text = editor.state.doc.toString();
  const statements = splitStatements(text);
  if (statements.length === 0) return;
  clearError();
  let params: Record<string, unknown>;
  try {
    params = readParams();
  } catch (err) {
    showError(err);
    return;
  }
  remember(text.trim());
  const controller = new AbortController();
  running = controller;
  const started = performance.now();
  const elapsed = $('elapsed');
  const tick = setInterval(() => (elapsed.textContent = `running ${((performance.now() - started) / 1000).toFixed(1)} s`), 100);
  ($('run') as HTMLButtonElement).disabled = true;
  ($('stop') as HTMLButtonElement).disabled = false;
  document.body.dataset.state = 'running';
  $('summary').textContent = '';
  let current: Statement | undefined;
  let wrote = false;
  try {
    let answer: PagedAnswer | undefined;
    const cap = rowCap();
    for (const statement of statements) {
      // Only the last statement's answer is shown: an earlier one's rest is not wanted.
      if (answer?.cursor) closeCursor(answer.cursor);
      current = statement;
      answer = await withKey(() => runPaged(statement.text, params, cap, controller.signal));
      wrote ||= answer.stats.containsUpdates;
    }
    showAnswer(current!.text, answer!, Math.round(performance.now() - started));
    if (statements.length > 1) $('summary').textContent = `${statements.length} statements; the last: ${$('summary').textContent}`;
    document.body.dataset.state = 'done';
  } catch (err) {
    if (controller.signal.aborted) {
      // Closing the request is the cancel: the server stops a query whose client has gone.
      $('summary').textContent = `Stopped after ${((performance.now() - started) / 1000).toFixed(1)} s; the server cancels the query`;
      document.body.dataset.state = 'stopped';
    } else {
      showError(err, current, statements.length);
      document.body.dataset.state = 'error';
    }
  } finally {
    clearInterval(tick);
    elapsed.textContent = '';
    running = undefined;
    ($('run') as HTMLButtonElement).disabled = false;
    ($('stop') as HTMLButtonElement).disabled = true;
    if (wrote) void refreshSidebar().catch(showError);
  }
}

$('run').addEventListener('click', () => void run());

/** Offers `data` as a file to save (the browser's download). */
function download(name: string, data: Blob): void {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(data);
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

$('export-csv').addEventListener('click', () => {
  if (lastAnswer) download('result.csv', new Blob([answerCsv(lastAnswer)], { type: 'text/csv' }));
});
$('export-json').addEventListener('click', () => {
  if (lastAnswer) download('result.json', new Blob([JSON.stringify(lastAnswer, null, 2)], { type: 'application/json' }));
});
$('export-png').addEventListener('click', () => {
  if (currentView !== 'graph') showView('graph');
  download('graph.png', graph.cy.png({ output: 'blob', full: true, scale: 2, bg: getComputedStyle(document.body).backgroundColor }));
});
$('stop').addEventListener('click', () => running?.abort());

// ---------------------------------------------------------------- sidebar

function chip(list: HTMLElement, name: string, count: number, query: string): void {
  const li = document.createElement('li');
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = `${name} (${count})`;
  b.dataset.name = name;
  b.addEventListener('click', () => {
    setQuery(query);
    void run();
  });
  li.append(b);
  list.append(li);
}

function ident(name: string): string {
  return '`' + name.replace(/`/g, '``') + '`';
}

async function refreshSidebar(): Promise<void> {
  const status = await withKey(fetchStatus);
  const dl = $('status');
  dl.replaceChildren();
  for (const [k, v] of [['version', `${status.name} ${status.version}`], ['nodes', String(status.nodes)], ['relationships', String(status.relationships)]]) {
    const dt = document.createElement('dt');
    dt.textContent = k;
    const dd = document.createElement('dd');
    dd.textContent = v;
    dd.dataset.key = k;
    dl.append(dt, dd);
  }
  $('server').textContent = `${status.name} ${status.version}`;
  const [labels, types] = await Promise.all([
    runQuery('MATCH (n) UNWIND labels(n) AS label RETURN label, count(*) AS count ORDER BY label', {}),
    runQuery('MATCH ()-[r]->() RETURN type(r) AS type, count(*) AS count ORDER BY type', {}),
  ]);
  $('labels').replaceChildren();
  for (const [name, count] of labels.rows) chip($('labels'), String(name), Number(count), `MATCH (n:${ident(String(name))}) RETURN n LIMIT 25`);
  $('types').replaceChildren();
  for (const [name, count] of types.rows) chip($('types'), String(name), Number(count), `MATCH p = ()-[:${ident(String(name))}]->() RETURN p LIMIT 25`);
  await Promise.all([drawIndexes(), drawConstraints(), drawSkills(), drawAlgorithms()]);
  await loadSchema();
}

async function drawIndexes(): Promise<void> {
  const a = await runQuery('SHOW INDEXES', {});
  const list = $('indexes');
  list.replaceChildren();
  const col = (name: string): number => a.columns.indexOf(name);
  for (const row of a.rows) {
    const li = document.createElement('li');
    li.textContent = `${String(row[col('name')])}: ${cellText(row[col('labelsOrTypes')])} ${cellText(row[col('properties')])} (${String(row[col('type')])})`;
    list.append(li);
  }
  if (a.rows.length === 0) list.append(Object.assign(document.createElement('li'), { textContent: 'none', className: 'muted' }));
}

/** Constraints (SHOW CONSTRAINTS): `name: (:Label) property UNIQUENESS`, a relationship type's as `[:TYPE]`. */
async function drawConstraints(): Promise<void> {
  const a = await runQuery('SHOW CONSTRAINTS', {});
  const list = $('constraints');
  list.replaceChildren();
  const names = (c: Cell | undefined): string[] => (Array.isArray(c) ? c.map(String) : c === null || c === undefined ? [] : [String(c)]);
  for (const row of a.rows) {
    const get = (column: string): Cell | undefined => row[a.columns.indexOf(column)];
    const on = names(get('labelsOrTypes'));
    const entity = String(get('entityType')) === 'RELATIONSHIP' ? `[${on.map((t) => ':' + t).join('')}]` : `(${on.map((l) => ':' + l).join('')})`;
    const li = document.createElement('li');
    li.textContent = `${String(get('name'))}: ${entity} ${names(get('properties')).join(', ')} ${String(get('type'))}`;
    li.dataset.name = String(get('name'));
    li.title = li.textContent;
    list.append(li);
  }
  if (a.rows.length === 0) list.append(Object.assign(document.createElement('li'), { textContent: 'none', className: 'muted' }));
}

/** Skills: a click fills the editor with the skill's query and the parameters panel with its parameter names. */
async function drawSkills(): Promise<void> {
  const a = await runQuery('CALL skills.list() YIELD name, description, parameters, query RETURN name, description, parameters, query ORDER BY name', {});
  const list = $('skills');
  list.replaceChildren();
  for (const [name, description, parameters, query] of a.rows) {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = String(name);
    b.title = String(description ?? '');
    b.dataset.name = String(name);
    b.addEventListener('click', () => {
      const params: Record<string, null> = {};
      if (parameters !== null && typeof parameters === 'object' && !Array.isArray(parameters)) for (const p of Object.keys(parameters)) params[p] = null;
      ($('params') as HTMLTextAreaElement).value = JSON.stringify(params, null, 2);
      ($('params-panel') as HTMLDetailsElement).open = true;
      setQuery(String(query));
    });
    li.append(b);
    list.append(li);
  }
  if (a.rows.length === 0) list.append(Object.assign(document.createElement('li'), { textContent: 'none', className: 'muted' }));
}

/** The graph algorithms (`algo.*` base procedures) with their documented options; "Use" fills the editor with a call. */
async function drawAlgorithms(): Promise<void> {
  const a = await runQuery('CALL dbms.procedures() YIELD name, signature, description WHERE name =~ $pattern RETURN name, signature, description ORDER BY name', {
    pattern: 'algo\\.[A-Za-z]+',
  });
  const list = $('algorithms');
  list.replaceChildren();
  for (const [name, signature, description] of a.rows) {
    const li = document.createElement('li');
    const details = document.createElement('details');
    details.dataset.name = String(name);
    const summary = document.createElement('summary');
    summary.textContent = String(name).slice('algo.'.length);
    const text = document.createElement('p');
    text.textContent = String(description);
    const use = document.createElement('button');
    use.type = 'button';
    use.textContent = 'Use';
    use.addEventListener('click', () => {
      // The yielded columns, from the signature's "(a :: T, b :: U)" tail.
      const tail = /\)\s*::\s*\((.*)\)\s*$/.exec(String(signature));
      const yields = tail ? tail[1].split(',').map((f) => f.split('::')[0].trim()).filter((f) => f !== '') : [];
      setQuery(`CALL ${String(name)}({})` + (yields.length > 0 ? `\nYIELD ${yields.join(', ')}\nRETURN ${yields.join(', ')}\nLIMIT 25` : ''));
    });
    details.append(summary, text, use);
    li.append(details);
    list.append(li);
  }
}

$('refresh').addEventListener('click', () => void refreshSidebar().catch(showError));

declare global {
  interface Window {
    graphdbConsole: { graph: GraphView; editor: EditorView };
  }
}
window.graphdbConsole = { graph, editor };

drawHistory();
drawSaved();
if (storedKey() !== undefined) $('key-button').hidden = false;
void refreshSidebar().then(
  () => (document.body.dataset.ready = 'true'),
  (err: unknown) => {
    showError(err);
    document.body.dataset.ready = 'error';
  },
);
