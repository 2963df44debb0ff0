/**
 * Deterministic benchmark data, written once as CSV under bench/data/ and read back by every
 * engine's loader: an LDBC-SNB-like social network (places, tags, persons, KNOWS, forums,
 * posts, comments) at a chosen number of persons, and a Graph500-style Kronecker graph with
 * edge weights for the algorithms. The same seed always gives the same files, byte for byte.
 * Each dataset directory also holds `meta.json`: sizes, the query parameters the workloads use
 * (picked from the data so that every query has a non-trivial answer) and the file schemas.
 */

import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mulberry32, randInt } from '../micro/harness.js';
import { preferentialAttachment } from '../micro/graphgen.js';

/** A column of a CSV file: its name and its type in every engine's schema. */
export interface Column {
  name: string;
  type: 'int' | 'float' | 'string';
}

/** One node CSV: its label, file and columns; the first column is always `id`. */
export interface NodeFile {
  label: string;
  file: string;
  columns: Column[];
}

/** One relationship CSV: `src`,`dst` (ids of the endpoint labels), then properties. */
export interface RelFile {
  type: string;
  from: string;
  to: string;
  file: string;
  columns: Column[];
}

/** Query parameters picked from a social-network dataset. */
export interface SnbParams {
  /** A person whose degree is a little above the average. */
  pid: number;
  /** A person at KNOWS distance ≥ 3 from `pid` (for shortest path). */
  pidFar: number;
  /** A person at distance 2 from `pid` (for common neighbours). */
  pidTwo: number;
  firstName: string;
  birthdayLo: number;
  birthdayHi: number;
  postId: number;
  commentId: number;
  country: string;
  tag: string;
  maxDate: number;
  startDate: number;
  endDate: number;
  /** The first id free for inserted persons. */
  newPersonId: number;
  persons: number;
}

/** Query parameters of the Kronecker dataset. */
export interface GraphParams {
  /** BFS/SSSP source: the vertex of highest degree. */
  source: number;
  vertices: number;
  /** Undirected edges (each stored once in `edges.csv`). */
  edges: number;
}

/** What `meta.json` holds. */
export interface DatasetMeta {
  kind: 'snb' | 'graph';
  name: string;
  seed: number;
  nodes: NodeFile[];
  rels: RelFile[];
  counts: Record<string, number>;
  snb?: SnbParams;
  graph?: GraphParams;
}

const FIRST_NAMES = [
  'Ada', 'Bram', 'Chen', 'Dana', 'Eero', 'Fatima', 'Goran', 'Hana', 'Ivan', 'Jun', 'Kofi', 'Lena', 'Mateo', 'Nia',
  'Omar', 'Priya', 'Quinn', 'Rosa', 'Sven', 'Tariq', 'Uma', 'Viktor', 'Wen', 'Ximena', 'Yusuf', 'Zofia',
  'Aiko', 'Bruno', 'Carla', 'Dmitri', 'Elif', 'Femi',
];
const LAST_NAMES = [
  'Abe', 'Berg', 'Costa', 'Diaz', 'Eriksen', 'Fischer', 'Garcia', 'Haddad', 'Ito', 'Jansen', 'Kim', 'Lopez',
  'Meyer', 'Nowak', 'Okafor', 'Petrov', 'Quispe', 'Rossi', 'Sato', 'Tanaka', 'Ueda', 'Varga', 'Wang', 'Xu',
];
const BROWSERS = ['Firefox', 'Chrome', 'Safari', 'Opera', 'Edge'];
const LANGUAGES = ['en', 'de', 'fr', 'es', 'zh', 'ja'];
const WORDS = ['graph', 'data', 'node', 'edge', 'query', 'fast', 'slow', 'index', 'plan', 'join', 'path', 'walk'];
/** 2010-01-01T00:00:00Z in milliseconds: the start of the simulated period. */
const T0 = 1262304000000;
const DAY = 86_400_000;
const PERIOD_DAYS = 3 * 365;

/** Escapes a CSV field (quotes only when needed). */
function field(v: string | number): string {
  if (typeof v === 'number') return String(v);
  return /[",\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v;
}

/** Accumulates one CSV file's rows; `write` puts the header first. */
class CsvOut {
  private lines: string[] = [];
  private count = 0;
  /**
   * With `path`, rows go to the file in chunks as they come (snb-1M's files add up to about
   * 1.5 GB, too much to hold as strings until the end); without, `write` writes them all.
   */
  constructor(
    readonly header: readonly string[],
    private readonly path?: string,
  ) {
    if (path !== undefined) writeFileSync(path, `${header.join(',')}\n`);
  }
  row(...cells: (string | number)[]): void {
    this.lines.push(cells.map(field).join(','));
    this.count++;
    if (this.path !== undefined && this.lines.length >= CSV_CHUNK) this.flush();
  }
  get length(): number {
    return this.count;
  }
  private flush(): void {
    if (this.lines.length > 0) appendFileSync(this.path!, `${this.lines.join('\n')}\n`);
    this.lines = [];
  }
  write(path: string): void {
    if (this.path !== undefined) return this.flush();
    writeFileSync(path, `${this.header.join(',')}\n${this.lines.join('\n')}${this.lines.length ? '\n' : ''}`);
  }
}

/** Rows a streaming `CsvOut` gathers before appending them to its file. */
const CSV_CHUNK = 65_536;

/** Parses a CSV file written by `CsvOut` into typed rows (objects keyed by column name). */
export function readCsv(path: string, columns: readonly Column[]): Record<string, string | number>[] {
  const text = readFileSync(path, 'utf8');
  const rows: Record<string, string | number>[] = [];
  let i = text.indexOf('\n') + 1;
  const n = text.length;
  while (i < n) {
    const row: Record<string, string | number> = {};
    for (let c = 0; c < columns.length; c++) {
      let value: string;
      if (text[i] === '"') {
        let j = i + 1;
        let out = '';
        for (;;) {
          const q = text.indexOf('"', j);
          out += text.slice(j, q);
          if (text[q + 1] === '"') {
            out += '"';
            j = q + 2;
          } else {
            i = q + 1;
            break;
          }
        }
        value = out;
      } else {
        let j = i;
        while (j < n && text[j] !== ',' && text[j] !== '\n') j++;
        value = text.slice(i, j);
        i = j;
      }
      i++; // the separator or the newline
      const col = columns[c];
      row[col.name] = col.type === 'string' ? value : Number(value);
    }
    rows.push(row);
  }
  return rows;
}

/** Integer day stamp (yyyymmdd) of a date in ms. */
function yyyymmdd(ms: number): number {
  const d = new Date(ms);
  return d.getUTCFullYear() * 10000 + (d.getUTCMonth() + 1) * 100 + d.getUTCDate();
}

/** Node and relationship files of the social network, with their schemas. */
export const SNB_NODES: NodeFile[] = [
  { label: 'Place', file: 'place.csv', columns: [{ name: 'id', type: 'int' }, { name: 'name', type: 'string' }, { name: 'type', type: 'string' }] },
  { label: 'Tag', file: 'tag.csv', columns: [{ name: 'id', type: 'int' }, { name: 'name', type: 'string' }] },
  {
    label: 'Person',
    file: 'person.csv',
    columns: [
      { name: 'id', type: 'int' },
      { name: 'firstName', type: 'string' },
      { name: 'lastName', type: 'string' },
      { name: 'gender', type: 'string' },
      { name: 'birthday', type: 'int' },
      { name: 'creationDate', type: 'int' },
      { name: 'browserUsed', type: 'string' },
    ],
  },
  { label: 'Forum', file: 'forum.csv', columns: [{ name: 'id', type: 'int' }, { name: 'title', type: 'string' }, { name: 'creationDate', type: 'int' }] },
  {
    label: 'Post',
    file: 'post.csv',
    columns: [
      { name: 'id', type: 'int' },
      { name: 'creationDate', type: 'int' },
      { name: 'length', type: 'int' },
      { name: 'content', type: 'string' },
      { name: 'language', type: 'string' },
    ],
  },
  {
    label: 'Comment',
    file: 'comment.csv',
    columns: [{ name: 'id', type: 'int' }, { name: 'creationDate', type: 'int' }, { name: 'length', type: 'int' }, { name: 'content', type: 'string' }],
  },
];

const ENDS: Column[] = [{ name: 'src', type: 'int' }, { name: 'dst', type: 'int' }];
export const SNB_RELS: RelFile[] = [
  { type: 'IS_PART_OF', from: 'Place', to: 'Place', file: 'place_isPartOf_place.csv', columns: ENDS },
  { type: 'IS_LOCATED_IN', from: 'Person', to: 'Place', file: 'person_isLocatedIn_place.csv', columns: ENDS },
  { type: 'HAS_INTEREST', from: 'Person', to: 'Tag', file: 'person_hasInterest_tag.csv', columns: ENDS },
  { type: 'KNOWS', from: 'Person', to: 'Person', file: 'person_knows_person.csv', columns: [...ENDS, { name: 'creationDate', type: 'int' }] },
  { type: 'HAS_MODERATOR', from: 'Forum', to: 'Person', file: 'forum_hasModerator_person.csv', columns: ENDS },
  { type: 'HAS_MEMBER', from: 'Forum', to: 'Person', file: 'forum_hasMember_person.csv', columns: [...ENDS, { name: 'joinDate', type: 'int' }] },
  { type: 'CONTAINER_OF', from: 'Forum', to: 'Post', file: 'forum_containerOf_post.csv', columns: ENDS },
  { type: 'HAS_CREATOR', from: 'Post', to: 'Person', file: 'post_hasCreator_person.csv', columns: ENDS },
  { type: 'HAS_CREATOR', from: 'Comment', to: 'Person', file: 'comment_hasCreator_person.csv', columns: ENDS },
  { type: 'HAS_TAG', from: 'Post', to: 'Tag', file: 'post_hasTag_tag.csv', columns: ENDS },
  { type: 'REPLY_OF', from: 'Comment', to: 'Post', file: 'comment_replyOf_post.csv', columns: ENDS },
];

/**
 * Generates the social network with `persons` persons unless `dir/meta.json` already exists
 * for the same seed and size. KNOWS is a seeded preferential-attachment graph (about 10
 * friends per person on average, heavy-tailed), with unordered duplicates and self-loops
 * removed; every other relationship is drawn uniformly or from small fixed ranges.
 */
export function generateSnb(dir: string, name: string, persons: number, seed: number): DatasetMeta {
  const metaPath = join(dir, 'meta.json');
  if (existsSync(metaPath)) {
    const meta = JSON.parse(readFileSync(metaPath, 'utf8')) as DatasetMeta;
    if (meta.seed === seed && meta.snb?.persons === persons) return meta;
  }
  mkdirSync(dir, { recursive: true });
  const rand = mulberry32(seed);
  const pick = <T>(xs: readonly T[]): T => xs[randInt(rand, xs.length)];
  const out = new Map<string, CsvOut>();
  const csv = (f: NodeFile | RelFile): CsvOut => {
    let o = out.get(f.file);
    if (!o) {
      o = new CsvOut(
        f.columns.map((c) => c.name),
        join(dir, f.file),
      );
      out.set(f.file, o);
    }
    return o;
  };
  const nodeFile = (label: string): CsvOut => csv(SNB_NODES.find((f) => f.label === label) as NodeFile);
  const relFile = (file: string): CsvOut => csv(SNB_RELS.find((f) => f.file === file) as RelFile);

  // Places: countries 0..19, cities 100.. (10 per country).
  const COUNTRIES = 20;
  const CITIES_PER = 10;
  const cityIds: number[] = [];
  for (let c = 0; c < COUNTRIES; c++) nodeFile('Place').row(c, `Country_${c}`, 'country');
  for (let c = 0; c < COUNTRIES; c++) {
    for (let k = 0; k < CITIES_PER; k++) {
      const id = 100 + c * CITIES_PER + k;
      cityIds.push(id);
      nodeFile('Place').row(id, `City_${c}_${k}`, 'city');
      relFile('place_isPartOf_place.csv').row(id, c);
    }
  }
  const TAGS = 200;
  for (let t = 0; t < TAGS; t++) nodeFile('Tag').row(t, `Tag_${t}`);

  // Persons.
  const creation = new Float64Array(persons);
  for (let p = 0; p < persons; p++) {
    const born = Date.UTC(1950, 0, 1) + randInt(rand, 50 * 365) * DAY;
    creation[p] = T0 + randInt(rand, PERIOD_DAYS / 3) * DAY + randInt(rand, DAY);
    nodeFile('Person').row(p, pick(FIRST_NAMES), pick(LAST_NAMES), rand() < 0.5 ? 'male' : 'female', yyyymmdd(born), creation[p], pick(BROWSERS));
    relFile('person_isLocatedIn_place.csv').row(p, pick(cityIds));
    const interests = new Set<number>();
    while (interests.size < 3) interests.add(randInt(rand, TAGS));
    for (const t of interests) relFile('person_hasInterest_tag.csv').row(p, t);
  }

  // KNOWS: power-law friendships, undirected in meaning, stored once with a random direction.
  const pa = preferentialAttachment(persons, persons * 5, seed ^ 0x5eed);
  const seen = new Set<number>();
  const adj: number[][] = Array.from({ length: persons }, () => []);
  for (let i = 0; i < pa.src.length; i++) {
    const a = pa.src[i];
    const b = pa.dst[i];
    if (a === b) continue;
    const key = Math.min(a, b) * persons + Math.max(a, b);
    if (seen.has(key)) continue;
    seen.add(key);
    adj[a].push(b);
    adj[b].push(a);
    const since = Math.max(creation[a], creation[b]) + randInt(rand, 100) * DAY;
    relFile('person_knows_person.csv').row(a, b, since);
  }

  // Forums with a moderator and members.
  const forums = Math.max(1, Math.floor(persons / 5));
  const members: number[][] = [];
  for (let f = 0; f < forums; f++) {
    const mod = randInt(rand, persons);
    nodeFile('Forum').row(f, `Forum of ${mod} #${f}`, creation[mod] + randInt(rand, 30) * DAY);
    relFile('forum_hasModerator_person.csv').row(f, mod);
    const ms = new Set<number>([mod]);
    const want = Math.min(persons, 5 + randInt(rand, 20));
    while (ms.size < want) ms.add(randInt(rand, persons));
    members.push([...ms]);
    for (const m of ms) relFile('forum_hasMember_person.csv').row(f, m, T0 + randInt(rand, PERIOD_DAYS) * DAY);
  }

  // Posts (5 per person on average) in forums, by a member; comments reply to posts.
  const posts = persons * 5;
  let commentId = 0;
  // Comment ids start past every post id (10M up to 2M persons, the next power of ten above).
  const COMMENT_BASE = Math.max(10_000_000, 10 ** Math.ceil(Math.log10(posts + 1)));
  for (let m = 0; m < posts; m++) {
    const f = randInt(rand, forums);
    const creator = pick(members[f]);
    const date = T0 + randInt(rand, PERIOD_DAYS) * DAY + randInt(rand, DAY);
    const words = 3 + randInt(rand, 12);
    const content = Array.from({ length: words }, () => pick(WORDS)).join(' ');
    nodeFile('Post').row(m, date, content.length, content, pick(LANGUAGES));
    relFile('forum_containerOf_post.csv').row(f, m);
    relFile('post_hasCreator_person.csv').row(m, creator);
    const tags = new Set<number>();
    const nt = 1 + randInt(rand, 3);
    while (tags.size < nt) tags.add(Math.floor(TAGS * rand() * rand()));
    for (const t of tags) relFile('post_hasTag_tag.csv').row(m, t);
    const replies = randInt(rand, 5);
    for (let r = 0; r < replies; r++) {
      const id = COMMENT_BASE + commentId++;
      // Commenters are mostly friends of the creator, else anyone.
      const friends = adj[creator];
      const who = friends.length > 0 && rand() < 0.7 ? pick(friends) : randInt(rand, persons);
      const text = `re: ${pick(WORDS)} ${pick(WORDS)}`;
      nodeFile('Comment').row(id, date + randInt(rand, 30 * DAY), text.length, text);
      relFile('comment_hasCreator_person.csv').row(id, who);
      relFile('comment_replyOf_post.csv').row(id, m);
    }
  }

  for (const [file, o] of out) o.write(join(dir, file));

  // Parameters: pid has a degree a little above average; pidTwo at distance 2, pidFar ≥ 3.
  const degs = adj.map((a) => a.length);
  const avg = degs.reduce((s, d) => s + d, 0) / persons;
  let pid = 0;
  for (let p = 0; p < persons; p++) if (Math.abs(degs[p] - 1.5 * avg) < Math.abs(degs[pid] - 1.5 * avg)) pid = p;
  const dist = new Int32Array(persons).fill(-1);
  dist[pid] = 0;
  const queue = [pid];
  for (let q = 0; q < queue.length; q++) {
    for (const n of adj[queue[q]]) {
      if (dist[n] >= 0) continue;
      dist[n] = dist[queue[q]] + 1;
      queue.push(n);
    }
  }
  let pidTwo = -1;
  let pidFar = -1;
  for (let p = persons - 1; p >= 0; p--) {
    if (pidTwo < 0 && dist[p] === 2) pidTwo = p;
    if (pidFar < 0 && dist[p] >= 3) pidFar = p;
  }
  if (pidFar < 0) pidFar = queue[queue.length - 1];
  const meta: DatasetMeta = {
    kind: 'snb',
    name,
    seed,
    nodes: SNB_NODES,
    rels: SNB_RELS,
    counts: Object.fromEntries([...out].map(([file, o]) => [file, o.length])),
    snb: {
      pid,
      pidFar,
      pidTwo,
      firstName: FIRST_NAMES[3],
      birthdayLo: 19800101,
      birthdayHi: 19850101,
      // Replaced below by a post with the most replies and one of the comments.
      postId: 0,
      commentId: COMMENT_BASE,
      country: 'Country_3',
      tag: 'Tag_1',
      maxDate: T0 + Math.floor(PERIOD_DAYS / 2) * DAY,
      startDate: T0 + 200 * DAY,
      endDate: T0 + 400 * DAY,
      newPersonId: 50_000_000,
      persons,
    },
  };
  // A post that has replies, for IS7 (and IS4 on the same post).
  const replyRows = readCsv(join(dir, 'comment_replyOf_post.csv'), ENDS);
  if (replyRows.length > 0) {
    const byPost = new Map<number, number>();
    for (const r of replyRows) byPost.set(r.dst as number, (byPost.get(r.dst as number) ?? 0) + 1);
    let best = replyRows[0].dst as number;
    for (const [p, c] of byPost) if (c > (byPost.get(best) ?? 0) || (c === byPost.get(best) && p < best)) best = p;
    (meta.snb as SnbParams).postId = best;
    (meta.snb as SnbParams).commentId = replyRows[Math.floor(replyRows.length / 2)].src as number;
  }
  writeFileSync(metaPath, JSON.stringify(meta, null, 1));
  return meta;
}

export const GRAPH_NODES: NodeFile[] = [{ label: 'V', file: 'vertices.csv', columns: [{ name: 'id', type: 'int' }] }];
export const GRAPH_RELS: RelFile[] = [
  { type: 'E', from: 'V', to: 'V', file: 'edges.csv', columns: [...ENDS, { name: 'w', type: 'float' }] },
];

/**
 * A Graph500 Kronecker graph (initiator A=0.57, B=0.19, C=0.19, D=0.05) with 2^scale
 * vertices and about `edgeFactor`·2^scale edge draws; vertex labels are permuted, self-loops
 * and duplicate (unordered) pairs removed. Each remaining undirected edge is written once, with
 * a weight in (0, 1]. Loaders store it in both directions for the directed engines.
 */
export function generateKronecker(dir: string, name: string, scale: number, edgeFactor: number, seed: number): DatasetMeta {
  const metaPath = join(dir, 'meta.json');
  const n = 2 ** scale;
  if (existsSync(metaPath)) {
    const meta = JSON.parse(readFileSync(metaPath, 'utf8')) as DatasetMeta;
    if (meta.seed === seed && meta.graph?.vertices === n) return meta;
  }
  mkdirSync(dir, { recursive: true });
  const rand = mulberry32(seed);
  const perm = new Int32Array(n);
  for (let i = 0; i < n; i++) perm[i] = i;
  for (let i = n - 1; i > 0; i--) {
    const j = randInt(rand, i + 1);
    const t = perm[i];
    perm[i] = perm[j];
    perm[j] = t;
  }
  const A = 0.57;
  const B = 0.19;
  const C = 0.19;
  const seen = new Set<number>();
  const edges = new CsvOut(['src', 'dst', 'w']);
  const deg = new Int32Array(n);
  const draws = edgeFactor * n;
  for (let e = 0; e < draws; e++) {
    let u = 0;
    let v = 0;
    for (let bit = 0; bit < scale; bit++) {
      const r = rand();
      const down = r >= A + B; // lower half: C or D
      const right = down ? r >= A + B + C : r >= A; // right half: B or D
      u = (u << 1) | (down ? 1 : 0);
      v = (v << 1) | (right ? 1 : 0);
    }
    const a = perm[u];
    const b = perm[v];
    const w = Math.round((1 - rand()) * 1e6) / 1e6 || 1e-6;
    if (a === b) continue;
    const key = Math.min(a, b) * n + Math.max(a, b);
    if (seen.has(key)) continue;
    seen.add(key);
    deg[a]++;
    deg[b]++;
    edges.row(a, b, w);
  }
  const vertices = new CsvOut(['id']);
  for (let i = 0; i < n; i++) vertices.row(i);
  vertices.write(join(dir, 'vertices.csv'));
  edges.write(join(dir, 'edges.csv'));
  let source = 0;
  for (let i = 1; i < n; i++) if (deg[i] > deg[source]) source = i;
  const meta: DatasetMeta = {
    kind: 'graph',
    name,
    seed,
    nodes: GRAPH_NODES,
    rels: GRAPH_RELS,
    counts: { 'vertices.csv': n, 'edges.csv': edges.length },
    graph: { source, vertices: n, edges: edges.length },
  };
  writeFileSync(metaPath, JSON.stringify(meta, null, 1));
  return meta;
}
