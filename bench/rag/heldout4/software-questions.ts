/**
 * Questions about the held-out software-package world (software.ts) in issue 32's five shapes,
 * phrased the way developers and release managers ask: questions and imperatives, the question
 * word first, last or missing, words the schema never uses (library, project, author, owner,
 * company, employer, works for, uses, ships, mirror, download, version, tag, signed off),
 * possessives, quoted values, values with spaces and relative clauses. Each question's gold
 * answers come from a Cypher query on the loaded graph, observed facts only; a draw whose gold
 * comes out empty is drawn again.
 */

import type { Database } from '../../../src/engine/database.js';
import { SHAPES, type Rng, type Shape } from '../domain.js';
import { type Ask, drawQuestions, MONTHS, type Question, type Template, type Trust } from '../held-out-questions.js';
import type { SoftwareWorld } from './software.js';

export { SHAPES, type Question, type Shape, type Trust };

// Memberships and registries can be predicted; only observed ones are truth.
const OBSERVED = `a.observation_class <> 'predicted'`;

/** A date as a changelog reader says it ("4 March 1998"), not as the graph stores it. */
export function spokenDate(iso: string): string {
  const [y, m, d] = iso.split('-').map(Number);
  return `${d} ${MONTHS[m - 1]} ${y}`;
}

function templates(w: SoftwareWorld): Record<Shape, [string, Template][]> {
  const differ = (observed: string, predicted: string): Trust | undefined => (observed === predicted ? undefined : { observed, predicted });
  // Half of the draws that can carry a trust probe land on an entity with a predicted rival.
  const maintainerIx = (r: Rng): number => (r.next() < 0.5 ? r.int(Math.ceil(w.maintainers.length / 10)) * 10 : r.int(w.maintainers.length));
  const packageIx = (r: Rng): number => (r.next() < 0.5 ? r.int(Math.ceil(w.packages.length / 12)) * 12 : r.int(w.packages.length));
  const orgOf = (m: number, predicted: boolean): number => (predicted ? w.maintainers[m].predicted : w.maintainers[m].org);
  const registryOf = (p: number, predicted: boolean): number => (predicted ? w.packages[p].predicted : w.packages[p].registry);
  const orgTrust = (m: number): Trust | undefined =>
    w.maintainers[m].predicted < 0 ? undefined : differ(w.organisations[orgOf(m, false)].name, w.organisations[orgOf(m, true)].name);
  const orgCountryTrust = (m: number): Trust | undefined =>
    w.maintainers[m].predicted < 0
      ? undefined
      : differ(w.countries[w.organisations[orgOf(m, false)].country].name, w.countries[w.organisations[orgOf(m, true)].country].name);
  const registryTrust = (p: number): Trust | undefined =>
    w.packages[p].predicted < 0 ? undefined : differ(w.registries[registryOf(p, false)].name, w.registries[registryOf(p, true)].name);
  const operatorTrust = (p: number): Trust | undefined =>
    w.packages[p].predicted < 0
      ? undefined
      : differ(w.organisations[w.registries[registryOf(p, false)].operator].name, w.organisations[w.registries[registryOf(p, true)].operator].name);

  const pkg = (r: Rng): string => r.pick(w.packages).name;
  const maintainer = (r: Rng): string => w.maintainers[r.pick(r.pick(w.packages).maintainers)].name;
  const release = (r: Rng): string => r.pick(w.releases).name;
  const org = (r: Rng): string => r.pick(w.organisations).name;
  const registry = (r: Rng): string => r.pick(w.registries).name;
  const licence = (r: Rng): string => r.pick(w.licences).name;
  const country = (r: Rng): string => r.pick(w.countries).name;
  const operatorOrg = (r: Rng): string => w.organisations[r.pick(w.registries).operator].name;

  const maintainersOf = 'MATCH (:Package {name: $x})-[:MAINTAINED_BY]->(m:Maintainer) RETURN m.name AS name';
  const licenceOf = 'MATCH (:Package {name: $x})-[:LICENSED_UNDER]->(l:Licence) RETURN l.name AS name';
  const registryOfPkg = `MATCH (:Package {name: $x})-[a:PUBLISHED_TO]->(g:Registry) WHERE ${OBSERVED} RETURN g.name AS name`;
  const orgOfMaintainer = `MATCH (:Maintainer {name: $x})-[a:memberOf]->(o:ORGANISATION) WHERE ${OBSERVED} RETURN o.name AS name`;
  const depsOf = 'MATCH (:Package {name: $x})-[:dependsOn]->(d:Package) RETURN d.name AS name';
  const dependentsOf = 'MATCH (p:Package)-[:dependsOn]->(:Package {name: $x}) RETURN p.name AS name';
  const packageOfRelease = 'MATCH (:Release {name: $x})-[:releaseOf]->(p:Package) RETURN p.name AS name';
  const signerOf = 'MATCH (:Release {name: $x})-[:SIGNED_BY]->(m:Maintainer) RETURN m.name AS name';
  const countryOfOrg = 'MATCH (:ORGANISATION {name: $x})-[:HEADQUARTERED_IN]->(c:Country) RETURN c.name AS name';
  const operatorOf = 'MATCH (:Registry {name: $x})-[:runBy]->(o:ORGANISATION) RETURN o.name AS name';
  const packagesOfMaintainer = 'MATCH (p:Package)-[:MAINTAINED_BY]->(:Maintainer {name: $x}) RETURN p.name AS name';
  const packagesUnder = 'MATCH (p:Package)-[:LICENSED_UNDER]->(:Licence {name: $x}) RETURN p.name AS name';
  const releasesOf = 'MATCH (x:Release)-[:releaseOf]->(:Package {name: $x}) RETURN x.name AS name';
  const membersOf = `MATCH (m:Maintainer)-[a:memberOf]->(:ORGANISATION {name: $x}) WHERE ${OBSERVED} RETURN m.name AS name`;
  const orgsIn = 'MATCH (o:ORGANISATION)-[:HEADQUARTERED_IN]->(:Country {name: $x}) RETURN o.name AS name';
  const packagesOn = `MATCH (p:Package)-[a:PUBLISHED_TO]->(:Registry {name: $x}) WHERE ${OBSERVED} RETURN p.name AS name`;
  const registriesRunBy = 'MATCH (g:Registry)-[:runBy]->(:ORGANISATION {name: $x}) RETURN g.name AS name';
  const signedBy = 'MATCH (x:Release)-[:SIGNED_BY]->(:Maintainer {name: $x}) RETURN x.name AS name';
  const byValue = (label: string, key: string): string => `MATCH (n:${label}) WHERE n.${key} = $x RETURN n.name AS name`;
  const byDate = (label: string, key: string): string => `MATCH (n:${label}) WHERE n.${key} = date($x) RETURN n.name AS name`;

  const ask = (text: string, gold: string, x: unknown, trust?: Trust): Ask => ({ text, gold, x, ...(trust ? { trust } : {}) });
  const aboutMaintainer = (r: Rng, text: (n: string) => string, gold: string, trust: (m: number) => Trust | undefined): Ask => {
    const m = maintainerIx(r);
    const n = w.maintainers[m].name;
    return ask(text(n), gold, n, trust(m));
  };
  const aboutPackage = (r: Rng, text: (n: string) => string, gold: string, trust?: (p: number) => Trust | undefined): Ask => {
    const p = packageIx(r);
    const n = w.packages[p].name;
    return ask(text(n), gold, n, trust?.(p));
  };
  const coded = w.releases.filter((x) => x.codename !== null);

  return {
    'one-hop': [
      ['who maintains', (r) => { const p = pkg(r); return ask(`Who maintains ${p}?`, maintainersOf, p); }],
      ['maintained by whom', (r) => { const p = pkg(r); return ask(`${p} is maintained by whom?`, maintainersOf, p); }],
      ['licence under', (r) => { const p = pkg(r); return ask(`What licence is ${p} under?`, licenceOf, p); }],
      ['published to', (r) => aboutPackage(r, (n) => `Which registry is ${n} published to?`, registryOfPkg, registryTrust)],
      ['download from', (r) => aboutPackage(r, (n) => `Where can I download ${n} from?`, registryOfPkg, registryTrust)],
      ['belongs to org', (r) => aboutMaintainer(r, (n) => `${n} belongs to which organisation?`, orgOfMaintainer, orgTrust)],
      ['employer', (r) => aboutMaintainer(r, (n) => `Which company does ${n} work for?`, orgOfMaintainer, orgTrust)],
      ['depends on', (r) => { const p = pkg(r); return ask(`What does ${p} depend on?`, depsOf, p); }],
      ['release of which', (r) => { const x = release(r); return ask(`Which package is ${x} a release of?`, packageOfRelease, x); }],
      ['who signed', (r) => { const x = release(r); return ask(`Who signed ${x}?`, signerOf, x); }],
      ['org country', (r) => { const o = org(r); return ask(`In which country is ${o} based?`, countryOfOrg, o); }],
      ['who runs registry', (r) => { const g = registry(r); return ask(`Who runs the ${g}?`, operatorOf, g); }],
      ['licence of software package', (r) => { const p = pkg(r); return ask(`the license of the software package ${p}`, licenceOf, p); }],
    ],
    reverse: [
      ['packages maintained', (r) => { const m = maintainer(r); return ask(`Which packages does ${m} maintain?`, packagesOfMaintainer, m); }],
      ['what depends on', (r) => { const p = pkg(r); return ask(`What depends on ${p}?`, dependentsOf, p); }],
      ['released under licence', (r) => { const l = licence(r); return ask(`Name a package released under the ${l}`, packagesUnder, l); }],
      ['versions of', (r) => { const p = pkg(r); return ask(`Which versions of ${p} have shipped?`, releasesOf, p); }],
      ['who works for', (r) => { const o = org(r); return ask(`Who works for ${o}?`, membersOf, o); }],
      ['orgs in country', (r) => { const c = country(r); return ask(`Which organisations are headquartered in ${c}?`, orgsIn, c); }],
      ['hosted on registry', (r) => { const g = registry(r); return ask(`What is hosted on the ${g}?`, packagesOn, g); }],
      ['registry operated by', (r) => { const o = operatorOrg(r); return ask(`Which registry does ${o} operate?`, registriesRunBy, o); }],
      ['releases signed', (r) => { const m = maintainer(r); return ask(`Which releases did ${m} sign?`, signedBy, m); }],
      ['library that uses', (r) => { const p = pkg(r); return ask(`a library that uses ${p}`, dependentsOf, p); }],
      ['has as maintainer', (r) => { const m = maintainer(r); return ask(`Which project has ${m} as a maintainer?`, packagesOfMaintainer, m); }],
      ['company in country', (r) => { const c = country(r); return ask(`Is there a software company in ${c}?`, orgsIn, c); }],
    ],
    value: [
      ['package id', (r) => { const p = r.pick(w.packages); return ask(`Which package has the id ${p.pkgId}?`, byValue('Package', 'pkgId'), p.pkgId); }],
      ['look up id', (r) => { const p = r.pick(w.packages); return ask(`Look up ${p.pkgId}`, byValue('Package', 'pkgId'), p.pkgId); }],
      ['fingerprint', (r) => { const m = r.pick(w.maintainers); return ask(`Whose GPG key has the fingerprint ${m.fingerprint}?`, byValue('Maintainer', 'fingerprint'), m.fingerprint); }],
      ['handle', (r) => { const m = r.pick(w.maintainers); return ask(`Find the maintainer with the handle ${m.handle}`, byValue('Maintainer', 'handle'), m.handle); }],
      ['checksum', (r) => { const x = r.pick(w.releases); return ask(`Which release has checksum ${x.checksum}?`, byValue('Release', 'checksum'), x.checksum); }],
      ['codename quoted', (r) => { const x = r.pick(coded); return ask(`Which release is codenamed "${x.codename}"?`, byValue('Release', 'codename'), x.codename); }],
      ['codename bare', (r) => { const x = r.pick(coded); return ask(`the release code-named ${x.codename}`, byValue('Release', 'codename'), x.codename); }],
      ['released spoken', (r) => { const x = r.pick(w.releases); return ask(`What was released on ${spokenDate(x.releasedOn)}?`, byDate('Release', 'releasedOn'), x.releasedOn); }],
      ['release iso', (r) => { const x = r.pick(w.releases); return ask(`Which version came out on ${x.releasedOn}?`, byDate('Release', 'releasedOn'), x.releasedOn); }],
      ['spdx', (r) => { const l = r.pick(w.licences); return ask(`Which licence has the SPDX identifier ${l.spdx}?`, byValue('Licence', 'spdx'), l.spdx); }],
      ['registration number', (r) => { const o = r.pick(w.organisations); return ask(`Which organisation has registration number ${o.regNo}?`, byValue('ORGANISATION', 'regNo'), o.regNo); }],
      ['host', (r) => { const g = r.pick(w.registries); return ask(`Which registry lives at ${g.host}?`, byValue('Registry', 'host'), g.host); }],
      ['iso code', (r) => { const c = r.pick(w.countries); return ask(`What country has the code ${c.iso}?`, byValue('Country', 'iso'), c.iso); }],
      ['first published', (r) => { const p = r.pick(w.packages); return ask(`Which package was first published on ${p.firstPublished}?`, byDate('Package', 'firstPublished'), p.firstPublished); }],
    ],
    'multi-hop': [
      ['country of employer', (r) => aboutMaintainer(r, (n) => `In which country is the organisation ${n} belongs to based?`,
        `MATCH (:Maintainer {name: $x})-[a:memberOf]->(:ORGANISATION)-[:HEADQUARTERED_IN]->(c:Country) WHERE ${OBSERVED} RETURN c.name AS name`, orgCountryTrust)],
      ['operator of registry of', (r) => aboutPackage(r, (n) => `Who runs the registry that ${n} is published to?`,
        `MATCH (:Package {name: $x})-[a:PUBLISHED_TO]->(:Registry)-[:runBy]->(o:ORGANISATION) WHERE ${OBSERVED} RETURN o.name AS name`, operatorTrust)],
      ['orgs of maintainers', (r) => { const p = pkg(r); return ask(`Which organisations do the maintainers of ${p} work for?`,
        `MATCH (:Package {name: $x})-[:MAINTAINED_BY]->(:Maintainer)-[a:memberOf]->(o:ORGANISATION) WHERE ${OBSERVED} RETURN o.name AS name`, p); }],
      ['maintainers of deps', (r) => { const p = pkg(r); return ask(`Who maintains the packages that ${p} depends on?`,
        'MATCH (:Package {name: $x})-[:dependsOn]->(:Package)-[:MAINTAINED_BY]->(m:Maintainer) RETURN m.name AS name', p); }],
      ['licences of deps', (r) => { const p = pkg(r); return ask(`Which licences do the dependencies of ${p} use?`,
        'MATCH (:Package {name: $x})-[:dependsOn]->(:Package)-[:LICENSED_UNDER]->(l:Licence) RETURN l.name AS name', p); }],
      ['dependents of maintainer', (r) => { const m = maintainer(r); return ask(`Which packages depend on packages maintained by ${m}?`,
        'MATCH (:Maintainer {name: $x})<-[:MAINTAINED_BY]-(:Package)<-[:dependsOn]-(p:Package) RETURN p.name AS name', m); }],
      ['signers of releases', (r) => { const p = pkg(r); return ask(`Who signed the releases of ${p}?`,
        'MATCH (:Package {name: $x})<-[:releaseOf]-(:Release)-[:SIGNED_BY]->(m:Maintainer) RETURN m.name AS name', p); }],
      ['packages signed for', (r) => { const m = maintainer(r); return ask(`For which packages has ${m} signed a release?`,
        'MATCH (:Maintainer {name: $x})<-[:SIGNED_BY]-(:Release)-[:releaseOf]->(p:Package) RETURN p.name AS name', m); }],
      ['registry operator country', (r) => { const g = registry(r); return ask(`Where is the company that operates the ${g} headquartered?`,
        'MATCH (:Registry {name: $x})-[:runBy]->(:ORGANISATION)-[:HEADQUARTERED_IN]->(c:Country) RETURN c.name AS name', g); }],
      ['registries of maintainer', (r) => { const m = maintainer(r); return ask(`Which registries host packages maintained by ${m}?`,
        `MATCH (:Maintainer {name: $x})<-[:MAINTAINED_BY]-(:Package)-[a:PUBLISHED_TO]->(g:Registry) WHERE ${OBSERVED} RETURN g.name AS name`, m); }],
      ['licence behind release', (r) => { const x = release(r); return ask(`What licence does the package behind ${x} carry?`,
        'MATCH (:Release {name: $x})-[:releaseOf]->(:Package)-[:LICENSED_UNDER]->(l:Licence) RETURN l.name AS name', x); }],
      ['packages of org people', (r) => { const o = org(r); return ask(`Which packages are maintained by people at ${o}?`,
        `MATCH (:ORGANISATION {name: $x})<-[a:memberOf]-(:Maintainer)<-[:MAINTAINED_BY]-(p:Package) WHERE ${OBSERVED} RETURN p.name AS name`, o); }],
    ],
    listing: [
      ['all packages of maintainer', (r) => { const m = maintainer(r); return ask(`List all packages maintained by ${m}`, packagesOfMaintainer, m); }],
      ['all dependencies', (r) => { const p = pkg(r); return ask(`all dependencies of ${p}`, depsOf, p); }],
      ['every release', (r) => { const p = pkg(r); return ask(`Show every release of ${p}`, releasesOf, p); }],
      ['everything depending', (r) => { const p = pkg(r); return ask(`Show everything that depends on ${p}`, dependentsOf, p); }],
      ['members of org', (r) => { const o = org(r); return ask(`List the members of ${o}.`, membersOf, o); }],
      ['bare staff', (r) => { const o = org(r); return ask(`${o} staff`, membersOf, o); }],
      ['all on registry', (r) => { const g = registry(r); return ask(`every package on the ${g}`, packagesOn, g); }],
      ['orgs in country', (r) => { const c = country(r); return ask(`Enumerate the organisations in ${c}`, orgsIn, c); }],
      ['maintainers all', (r) => { const p = pkg(r); return ask(`${p}'s maintainers, all of them`, maintainersOf, p); }],
      ['signed list', (r) => { const m = maintainer(r); return ask(`What has ${m} signed? List them all.`, signedBy, m); }],
      ['all under licence', (r) => { const l = licence(r); return ask(`Give me all the packages under the ${l}`, packagesUnder, l); }],
      ['registries run by', (r) => { const o = operatorOrg(r); return ask(`Show all registries ${o} runs`, registriesRunBy, o); }],
    ],
  };
}

/**
 * `perShape` questions of each shape, cycling through that shape's phrasings, with gold answers
 * read from the graph in `db` (which must hold `w`, loaded by loadSoftware).
 */
export function softwareQuestions(db: Database, w: SoftwareWorld, perShape: number, seed = 1130): Question[] {
  return drawQuestions(db, templates(w), perShape, seed);
}
