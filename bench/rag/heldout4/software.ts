/**
 * A fourth held-out world for graph_rag's evaluation (issue 32): software packages. Packages, the
 * people who maintain them, the organisations those people belong to, the licences packages are
 * under, the releases that ship them, the registries they are published to, the packages they
 * depend on, and the countries organisations are in. Written apart from the pipeline (before
 * reading src/rag/ on this branch), after products, shipping, rail, clinical and film had all
 * been used to tune it. This module owns the world (entities, codes, facts) and loading it into a
 * Database; software-questions.ts asks about it and run-heldout4.ts scores the answers.
 *
 * The schema mixes naming styles the way a merged package catalogue might:
 *
 *   (:Package)-[:MAINTAINED_BY]->(:Maintainer)-[:memberOf]->(:ORGANISATION)-[:HEADQUARTERED_IN]->(:Country)
 *   (:Package)-[:dependsOn]->(:Package)          (:Package)-[:LICENSED_UNDER]->(:Licence)
 *   (:Release)-[:releaseOf]->(:Package)          (:Release)-[:SIGNED_BY]->(:Maintainer)
 *   (:Package)-[:PUBLISHED_TO]->(:Registry)-[:runBy]->(:ORGANISATION)
 *
 * Package names are lower-case and hyphenated the way real ones are; releases are named by their
 * package and version ("tidy-lantern 2.3.1"). Key-like values: package ids, first-publication
 * dates and star counts on packages; handles and GPG fingerprints on maintainers; registration
 * numbers on organisations; SPDX identifiers on licences; checksums, release dates and code names
 * (two words, so a value with a space in it) on releases; hosts on registries; ISO codes on
 * countries. Some are indexed, some not. Every tenth maintainer also has a more confident
 * predicted organisation, and every twelfth package a more confident predicted registry: the
 * trust probes. Prose lives in properties named differently per label (`readme`, `profile`,
 * `about`, `notes`, `summary`), the text the embeddings and full-text index read.
 */

import type { Database } from '../../../src/engine/database.js';
import { Rng, WorldDraws } from '../domain.js';

export interface Country { name: string; iso: string }
export interface Organisation { name: string; regNo: string; founded: number; country: number }
export interface Registry { name: string; host: string; operator: number }
export interface Licence { name: string; spdx: string }
export interface Maintainer { name: string; handle: string; fingerprint: string; org: number; predicted: number }
export interface Package {
  name: string;
  pkgId: string;
  firstPublished: string;
  stars: number;
  licence: number;
  maintainers: number[];
  deps: number[];
  registry: number;
  predicted: number;
}
export interface Release {
  name: string;
  version: string;
  checksum: string;
  releasedOn: string;
  /** Every eighth release has a code name; null for the rest. */
  codename: string | null;
  pkg: number;
  signer: number;
}

export interface SoftwareWorld {
  countries: Country[];
  organisations: Organisation[];
  registries: Registry[];
  licences: Licence[];
  maintainers: Maintainer[];
  packages: Package[];
  releases: Release[];
}

const COUNTRY = ['Veloria', 'Castamar', 'Ostrevia', 'Luminara', 'Brenmark', 'Tavoria', 'Quessland', 'Marevia', 'Sundra', 'Kelvaria', 'Norwend', 'Palisade Islands', 'Orlenia', 'Dravonia', 'Estmere', 'Halcyra', 'Ivory Coastlands', 'Jastro', 'Karelos', 'Lirhaven', 'Montevar', 'Nerith', 'Pelagia', 'Rhosmark', 'Solvara', 'Tirevia', 'Umberland', 'Valemont', 'Westrun', 'Zephyria'];
const ORG_HEAD = ['Brightwater', 'Kestrel', 'Ironwood', 'Northgate', 'Bluefin', 'Cobalt', 'Driftwood', 'Evenstar', 'Foxhollow', 'Granite', 'Harbourlight', 'Inkwell', 'Juniper', 'Larkspur', 'Moonstone', 'Nettle', 'Oakridge', 'Pinecone', 'Quicksilver', 'Redcliff', 'Saltire', 'Thornbury', 'Umberfield', 'Vellum', 'Willowmere'];
const ORG_TAIL = ['Labs', 'Software Foundation', 'Systems', 'Cooperative', 'Technologies', 'Open Source Collective', 'Computing', 'Data Works'];
const REGISTRY = ['Nimbus Package Index', 'Crate Harbour', 'Parcel Hub', 'Quarry Modules', 'Bundle Depot', 'Artifact Wharf', 'Lantern Registry', 'Spool Archive', 'Cargo Loft', 'Module Exchange', 'Library Vault', 'Pack Yard'];
const LICENCES: readonly (readonly [string, string])[] = [
  ['MIT License', 'MIT'], ['Apache License 2.0', 'Apache-2.0'], ['BSD 3-Clause License', 'BSD-3-Clause'],
  ['BSD 2-Clause License', 'BSD-2-Clause'], ['GNU General Public License v3.0', 'GPL-3.0-only'],
  ['GNU General Public License v2.0', 'GPL-2.0-only'], ['GNU Lesser General Public License v2.1', 'LGPL-2.1-only'],
  ['Mozilla Public License 2.0', 'MPL-2.0'], ['ISC License', 'ISC'], ['The Unlicense', 'Unlicense'],
  ['Eclipse Public License 2.0', 'EPL-2.0'], ['Boost Software License 1.0', 'BSL-1.0'], ['zlib License', 'Zlib'],
  ['Artistic License 2.0', 'Artistic-2.0'], ['GNU Affero General Public License v3.0', 'AGPL-3.0-only'],
  ['Creative Commons Zero v1.0 Universal', 'CC0-1.0'],
];
const P_ADJ = ['tidy', 'swift', 'quiet', 'fast', 'lazy', 'tiny', 'brave', 'clever', 'fuzzy', 'smooth', 'rusty', 'shiny', 'sturdy', 'nimble', 'hollow', 'rapid', 'plain', 'sharp', 'gentle', 'bold', 'crisp', 'dusty', 'eager', 'frosty', 'glassy', 'humble', 'icy', 'jolly', 'keen', 'lucid', 'mellow', 'noble', 'prime', 'rough', 'silky', 'tender', 'vivid', 'wily', 'young', 'zesty'];
const P_NOUN = ['lantern', 'otter', 'parser', 'socket', 'quill', 'beacon', 'cache', 'ledger', 'prism', 'router', 'spindle', 'thimble', 'anchor', 'bramble', 'cipher', 'dynamo', 'ember', 'falcon', 'gizmo', 'harbor', 'inkpot', 'jigsaw', 'kettle', 'lattice', 'magnet', 'needle', 'orbit', 'pebble', 'quartz', 'ribbon', 'sprocket', 'tangle', 'umbra', 'vortex', 'widget', 'yarn', 'zipper', 'badger', 'comet', 'drizzle'];
const P_STYLE = ['', 'py-', 'lib', 'node-', 'go-'];
const P_TAIL = ['', 'kit', 'js', '-core', '-utils', '-lite'];
const CODE_A = ['Silver', 'Amber', 'Crimson', 'Quiet', 'Northern', 'Hidden', 'Golden', 'Velvet', 'Restless', 'Frozen', 'Electric', 'Painted', 'Wandering', 'Midnight', 'Copper', 'Patient', 'Lucky', 'Dancing', 'Sleepy', 'Stormy', 'Brisk', 'Cosmic', 'Dapper', 'Fearless', 'Gleaming', 'Hasty', 'Jubilant', 'Merry', 'Noble', 'Rowdy'];
const CODE_B = ['Otter', 'Heron', 'Badger', 'Marten', 'Lynx', 'Falcon', 'Walrus', 'Ibis', 'Puffin', 'Tapir', 'Gecko', 'Mole', 'Bison', 'Crane', 'Dingo', 'Egret', 'Ferret', 'Gopher', 'Hare', 'Jackal', 'Koala', 'Lemur', 'Moose', 'Newt', 'Ocelot', 'Panda', 'Quokka', 'Raven', 'Stoat', 'Toucan'];
const GIVEN = ['Aino', 'Bartek', 'Chiara', 'Dmitri', 'Eszter', 'Farid', 'Gwen', 'Hamza', 'Ingrid', 'Joaquin', 'Kirsi', 'Lorenzo', 'Maelle', 'Nils', 'Oona', 'Priya', 'Quentin', 'Rafaela', 'Sven', 'Tomasz', 'Ursula', 'Viktor', 'Wanjiru', 'Xavier', 'Yusuf', 'Zofia', 'Anders', 'Beatriz', 'Callum', 'Divya', 'Emil', 'Freya', 'Gustavo', 'Hanne', 'Idris', 'Jana', 'Kenji', 'Lucia', 'Mateus', 'Nadia', 'Olek', 'Paulina', 'Rune', 'Saoirse', 'Tariq', 'Uma', 'Vilja', 'Wiebke', 'Yannick', 'Zainab'];
const FAMILY = ['Aaltonen', 'Brennan', 'Czerny', 'Dahlberg', 'Eklund', 'Fitzgerald', 'Gruber', 'Hakimi', 'Ilves', 'Jaworski', 'Kettunen', 'Lindqvist', 'Moretti', 'Nyberg', 'Oduya', 'Pajari', 'Quist', 'Reinholt', 'Salonen', 'Toivonen', 'Uddin', 'Virtanen', 'Wieczorek', 'Ylonen', 'Zielinski', 'Adeyemi', 'Bauer', 'Carvalho', 'Devereux', 'Engel', 'Falk', 'Grønlund', 'Hoffmann', 'Ishikawa', 'Jensen', 'Karlsson', 'Lehtonen', 'Mendes', 'Nowicki', 'Oliveira', 'Pereira', 'Rautio', 'Strand', 'Tamm', 'Ueda', 'Vogel', 'Weiss', 'Yoshida', 'Zaragoza', 'Abbott', 'Blackwood', 'Cartwright', 'Dalgleish', 'Ellison', 'Farrow', 'Gillespie', 'Hargreaves', 'Ingleby', 'Kirkwood', 'Lowther', 'Mossman', 'Newbury', 'Ormsby', 'Penhaligon', 'Rowntree', 'Sillitoe', 'Tremayne', 'Upton', 'Vickery', 'Winthrop'];
const HANDLE_A = ['quiet', 'rusty', 'byte', 'null', 'lambda', 'pixel', 'static', 'async', 'tiny', 'void', 'kernel', 'stack'];
const HANDLE_B = ['fox', 'owl', 'cat', 'crow', 'wolf', 'moth', 'yak', 'elk', 'koi', 'wren'];
const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const HEX = '0123456789abcdef';

/** Entity counts for a world of about `n` entities, with floors so a small run still has every kind. */
export function softwareCounts(n: number): Record<keyof SoftwareWorld, number> {
  const countries = Math.min(COUNTRY.length, Math.max(8, Math.round(n * 0.003)));
  const organisations = Math.min(ORG_HEAD.length * ORG_TAIL.length, Math.max(10, Math.round(n * 0.02)));
  const registries = Math.min(REGISTRY.length, Math.max(6, Math.round(n * 0.0012)));
  const licences = LICENCES.length;
  const packages = Math.max(60, Math.round(n * 0.25));
  const releases = Math.max(100, Math.round(n * 0.45));
  const maintainers = Math.max(60, n - countries - organisations - registries - licences - packages - releases);
  return { countries, organisations, registries, licences, maintainers, packages, releases };
}

/** The world for about `n` entities; the same `n` and `seed` give the same world. */
export function generateSoftware(n: number, seed = 20261130): SoftwareWorld {
  const r = new Rng(seed);
  const c = softwareCounts(n);
  // Names are unique across the graph so each gold answer is one entity; codes, numbers and
  // dates are unique across the graph so a value names one entity.
  const { uname, ucode, chars, date, distinct } = new WorldDraws(r);

  const countries = Array.from({ length: c.countries }, (_, i): Country => ({
    name: uname(() => COUNTRY[i]),
    iso: ucode(() => chars(3, UPPER)),
  }));
  const organisations = Array.from({ length: c.organisations }, (): Organisation => ({
    name: uname(() => `${r.pick(ORG_HEAD)} ${r.pick(ORG_TAIL)}`),
    regNo: ucode(() => `${r.digits(3)}-${r.digits(4)}-${r.digits(2)}`),
    founded: 1975 + r.int(48),
    country: r.int(c.countries),
  }));
  const registries = Array.from({ length: c.registries }, (_, i): Registry => ({
    name: uname(() => REGISTRY[i]),
    host: ucode(() => `${REGISTRY[i].split(' ')[0].toLowerCase()}.${r.pick(['dev', 'io', 'org', 'pkg'])}`),
    operator: r.int(c.organisations),
  }));
  const licences = LICENCES.map(([name, spdx]): Licence => ({ name: uname(() => name), spdx: ucode(() => spdx) }));
  const maintainers = Array.from({ length: c.maintainers }, (_, i): Maintainer => {
    const org = r.int(c.organisations);
    return {
      name: uname(() => `${r.pick(GIVEN)} ${r.next() < 0.2 ? `${chars(1, UPPER)}. ` : ''}${r.pick(FAMILY)}`),
      handle: ucode(() => `@${r.pick(HANDLE_A)}${r.pick(HANDLE_B)}${r.int(1000)}`),
      fingerprint: ucode(() => chars(16, HEX).toUpperCase()),
      org,
      predicted: i % 10 === 0 ? (org + 1 + r.int(c.organisations - 1)) % c.organisations : -1,
    };
  });
  const packages = Array.from({ length: c.packages }, (_, i): Package => {
    const registry = r.int(c.registries);
    return {
      name: uname(() => (r.next() < 0.6 ? `${r.pick(P_STYLE)}${r.pick(P_ADJ)}-${r.pick(P_NOUN)}` : `${r.pick(P_STYLE)}${r.pick(P_NOUN)}${r.pick(P_TAIL)}`)),
      pkgId: ucode(() => `PKG-${r.digits(6)}`),
      firstPublished: ucode(() => date(2000, 24)),
      stars: r.int(50000),
      licence: r.int(c.licences),
      maintainers: distinct(1 + r.int(3), c.maintainers),
      // Dependencies point at earlier packages only, so the graph of them has no cycles.
      deps: i < 5 ? [] : distinct(r.int(5), i),
      registry,
      predicted: i % 12 === 0 ? (registry + 1 + r.int(c.registries - 1)) % c.registries : -1,
    };
  });
  const releases: Release[] = [];
  for (let i = 0; i < c.releases; i++) {
    const pkg = i < c.packages ? i : r.int(c.packages);
    const p = packages[pkg];
    const version = ucode(() => `${p.name}@${r.int(6)}.${r.int(20)}.${r.int(30)}`).split('@')[1];
    releases.push({
      name: uname(() => `${p.name} ${version}`),
      version,
      checksum: ucode(() => `sha256:${chars(12, HEX)}`),
      releasedOn: ucode(() => date(2005, 20)),
      codename: i % 8 === 0 ? ucode(() => `${r.pick(CODE_A)} ${r.pick(CODE_B)}`) : null,
      pkg,
      signer: r.pick(p.maintainers),
    });
  }
  return { countries, organisations, registries, licences, maintainers, packages, releases };
}

/** Every label in the world with the property its prose lives in, for indexes and embeddings. */
export const SOFTWARE_LABELS: readonly (readonly [string, string])[] = [
  ['Country', 'about'], ['ORGANISATION', 'about'], ['Registry', 'about'], ['Licence', 'summary'],
  ['Maintainer', 'profile'], ['Package', 'readme'], ['Release', 'notes'],
];

export interface LoadOptions {
  /** Embed each node's prose and build vector indexes (default true; the generator's test skips it). */
  vectors?: boolean;
}

/** Loads the world: nodes with prose, facts, name and some value indexes, embeddings, a full-text index. */
export function loadSoftware(db: Database, w: SoftwareWorld, options: LoadOptions = {}): void {
  const run = (cypher: string, rows: readonly object[]): void => {
    for (let i = 0; i < rows.length; i += 2000) db.executeSync(cypher, { rows: rows.slice(i, i + 2000) });
  };
  for (const [label] of SOFTWARE_LABELS) db.executeSync(`CREATE INDEX FOR (n:${label}) ON (n.name)`);
  // Some key-like properties are indexed and the rest are not, so both grounding paths are asked.
  for (const [label, key] of [['Package', 'pkgId'], ['Maintainer', 'fingerprint'], ['Release', 'checksum'], ['Country', 'iso']]) {
    db.executeSync(`CREATE INDEX FOR (n:${label}) ON (n.${key})`);
  }
  run(`UNWIND $rows AS r CREATE (:Country {name: r.name, iso: r.iso, about: r.name + ' is a country'})`, w.countries);
  run(
    `UNWIND $rows AS r MATCH (c:Country {name: r.country})
     CREATE (:ORGANISATION {name: r.name, regNo: r.regNo, founded: r.founded,
       about: r.name + ' has written and funded software since ' + toString(r.founded)})-[:HEADQUARTERED_IN]->(c)`,
    w.organisations.map((o) => ({ ...o, country: w.countries[o.country].name })),
  );
  run(
    `UNWIND $rows AS r MATCH (o:ORGANISATION {name: r.operator})
     CREATE (:Registry {name: r.name, host: r.host, about: r.name + ' hosts published packages for download'})-[:runBy]->(o)`,
    w.registries.map((g) => ({ ...g, operator: w.organisations[g.operator].name })),
  );
  run(`UNWIND $rows AS r CREATE (:Licence {name: r.name, spdx: r.spdx, summary: 'The ' + r.name + ' sets the terms for using and sharing code'})`, w.licences);
  run(
    `UNWIND $rows AS r MATCH (o:ORGANISATION {name: r.org})
     CREATE (:Maintainer {name: r.name, handle: r.handle, fingerprint: r.fingerprint,
       profile: r.name + ' writes and reviews open source code'})-[:memberOf {observation_class: 'observed', confidence: 0.7, source: 'org-directory'}]->(o)`,
    w.maintainers.map((m) => ({ ...m, org: w.organisations[m.org].name })),
  );
  run(
    `UNWIND $rows AS r MATCH (m:Maintainer {name: r.name}), (o:ORGANISATION {name: r.org})
     CREATE (m)-[:memberOf {observation_class: 'predicted', confidence: 0.92, source: 'commit-email-guess'}]->(o)`,
    w.maintainers.filter((m) => m.predicted >= 0).map((m) => ({ name: m.name, org: w.organisations[m.predicted].name })),
  );
  // The package id and dates stay out of the readme, so a question quoting them must find the property.
  run(
    `UNWIND $rows AS r MATCH (l:Licence {name: r.licence}), (g:Registry {name: r.registry})
     CREATE (p:Package {name: r.name, pkgId: r.pkgId, firstPublished: date(r.firstPublished), stars: r.stars,
       readme: r.name + ' is a small library with ' + toString(r.stars) + ' stars'}),
       (p)-[:LICENSED_UNDER]->(l),
       (p)-[:PUBLISHED_TO {observation_class: 'observed', confidence: 0.7, source: 'registry-feed'}]->(g)`,
    w.packages.map((p) => ({ ...p, licence: w.licences[p.licence].name, registry: w.registries[p.registry].name })),
  );
  run(
    `UNWIND $rows AS r MATCH (p:Package {name: r.pkg}), (g:Registry {name: r.registry})
     CREATE (p)-[:PUBLISHED_TO {observation_class: 'predicted', confidence: 0.95, source: 'mirror-crawler'}]->(g)`,
    w.packages.filter((p) => p.predicted >= 0).map((p) => ({ pkg: p.name, registry: w.registries[p.predicted].name })),
  );
  run(
    `UNWIND $rows AS r MATCH (p:Package {name: r.pkg}), (m:Maintainer {name: r.maintainer}) CREATE (p)-[:MAINTAINED_BY]->(m)`,
    w.packages.flatMap((p) => p.maintainers.map((m) => ({ pkg: p.name, maintainer: w.maintainers[m].name }))),
  );
  run(
    `UNWIND $rows AS r MATCH (p:Package {name: r.pkg}), (d:Package {name: r.dep}) CREATE (p)-[:dependsOn]->(d)`,
    w.packages.flatMap((p) => p.deps.map((d) => ({ pkg: p.name, dep: w.packages[d].name }))),
  );
  run(
    `UNWIND $rows AS r MATCH (p:Package {name: r.pkg}), (m:Maintainer {name: r.signer})
     CREATE (x:Release {name: r.name, version: r.version, checksum: r.checksum, releasedOn: date(r.releasedOn), codename: r.codename,
       notes: 'Version ' + r.version + ' of ' + r.pkg + ' with fixes and improvements'}),
       (x)-[:releaseOf]->(p), (x)-[:SIGNED_BY]->(m)`,
    w.releases.map((x) => ({ ...x, pkg: w.packages[x.pkg].name, signer: w.maintainers[x.signer].name })),
  );
  if (options.vectors !== false) {
    for (const [label, prose] of SOFTWARE_LABELS) {
      const index = `${label.toLowerCase()}_vec`;
      db.executeSync(`CALL graphdb.embed.nodes({label: '${label}', textProperty: '${prose}', vectorProperty: 'embedding', batchSize: 256}) YIELD nodes RETURN nodes`);
      db.executeSync(`CREATE VECTOR INDEX ${index} FOR (n:${label}) ON (n.embedding) OPTIONS {indexConfig: {\`vector.dimensions\`: 384}}`);
      db.executeSync(`CALL db.awaitIndex('${index}')`);
    }
  }
  const labels = SOFTWARE_LABELS.map(([l]) => l).join('|');
  db.executeSync(`CREATE FULLTEXT INDEX software_text FOR (n:${labels}) ON EACH [n.name, n.readme, n.profile, n.about, n.notes, n.summary]`);
  // Populated in the background otherwise: questions asked at once would fall back to the text scan.
  db.executeSync("CALL db.awaitIndex('software_text')");
}
