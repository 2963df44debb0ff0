/**
 * Questions about the held-out astronomy world (observatory.ts) in issue 32's five shapes, phrased
 * the way astronomers, librarians and time-allocation staff ask: questions and imperatives, the
 * question word first, last or missing, words the schema never uses (works, staff, colleagues,
 * pointed at, led, PI, wrote, pays for, home institution, sits on, where ... stand), possessives,
 * quoted titles and values, values with slashes, dots, spaces and signs, catalogue designations
 * and programme codes as names, and relative clauses. Each question's gold answers come from a
 * Cypher query on the loaded graph, observed facts only; a draw whose gold comes out empty is
 * drawn again.
 */

import type { Database } from '../../../src/engine/database.js';
import { SHAPES, type Rng, type Shape } from '../domain.js';
import { type Ask, drawQuestions, MONTHS, type Question, type Template, type Trust } from '../held-out-questions.js';
import type { ObservatoryWorld } from './observatory.js';

export { SHAPES, type Question, type Shape, type Trust };

// Employment and targets can be predicted; only observed ones are truth.
const OBSERVED = `e.observation_class <> 'predicted'`;

/** A date the way a person writes it ("14 March 2019"), not as the graph stores it. */
export function spokenDate(iso: string): string {
  const [y, m, d] = iso.split('-').map(Number);
  return `${d} ${MONTHS[m - 1]} ${y}`;
}

function templates(w: ObservatoryWorld): Record<Shape, [string, Template][]> {
  const differ = (observed: string, predicted: string): Trust | undefined => (observed === predicted ? undefined : { observed, predicted });
  // Half of the draws that can carry a trust probe land on an entity with a predicted rival.
  const astronomerIx = (r: Rng): number => (r.next() < 0.5 ? r.int(Math.ceil(w.astronomers.length / 10)) * 10 : r.int(w.astronomers.length));
  const runIx = (r: Rng): number => (r.next() < 0.5 ? r.int(Math.ceil(w.runs.length / 12)) * 12 : r.int(w.runs.length));
  const employerTrust = (a: number): Trust | undefined =>
    w.astronomers[a].predicted < 0 ? undefined : differ(w.institutes[w.astronomers[a].employer].name, w.institutes[w.astronomers[a].predicted].name);
  const targetTrust = (x: number): Trust | undefined =>
    w.runs[x].predicted < 0 ? undefined : differ(w.objects[w.runs[x].target].name, w.objects[w.runs[x].predicted].name);
  const targetConstellationTrust = (x: number): Trust | undefined =>
    w.runs[x].predicted < 0
      ? undefined
      : differ(w.constellations[w.objects[w.runs[x].target].constellation].name, w.constellations[w.objects[w.runs[x].predicted].constellation].name);
  const piEmployerTrust = (x: number): Trust | undefined => employerTrust(w.runs[x].pi);

  const astronomer = (r: Rng): string => r.pick(w.astronomers).name;
  const run = (r: Rng): string => r.pick(w.runs).name;
  const instrument = (r: Rng): string => r.pick(w.instruments).name;
  const telescope = (r: Rng): string => r.pick(w.telescopes).name;
  const observatory = (r: Rng): string => r.pick(w.observatories).name;
  const object = (r: Rng): string => r.pick(w.objects).name;
  const constellation = (r: Rng): string => r.pick(w.constellations).name;
  const paper = (r: Rng): string => r.pick(w.papers).name;
  const journal = (r: Rng): string => r.pick(w.journals).name;
  const institute = (r: Rng): string => r.pick(w.institutes).name;
  const agency = (r: Rng): string => r.pick(w.agencies).name;
  const site = (r: Rng): string => r.pick(w.sites).name;

  const employerOf = `MATCH (i:Institute)-[e:EMPLOYS]->(:Astronomer {name: $x}) WHERE ${OBSERVED} RETURN i.name AS name`;
  const piOf = 'MATCH (:ObservingRun {name: $x})-[:hasPI]->(a:Astronomer) RETURN a.name AS name';
  const targetOf = `MATCH (:ObservingRun {name: $x})-[e:TARGETED]->(o:celestial_object) WHERE ${OBSERVED} RETURN o.name AS name`;
  const instrumentOf = 'MATCH (:ObservingRun {name: $x})-[:onInstrument]->(i:instrument) RETURN i.name AS name';
  const telescopeOf = 'MATCH (:instrument {name: $x})-[:MOUNTED_ON]->(t:TELESCOPE) RETURN t.name AS name';
  const operatorOf = 'MATCH (:TELESCOPE {name: $x})-[:operated_by]->(o:Observatory) RETURN o.name AS name';
  const siteOf = 'MATCH (:Observatory {name: $x})-[:SITED_AT]->(s:Site) RETURN s.name AS name';
  const constellationOf = 'MATCH (:celestial_object {name: $x})-[:lies_in]->(c:Constellation) RETURN c.name AS name';
  const journalOf = 'MATCH (:Paper {name: $x})-[:appearedIn]->(j:Journal) RETURN j.name AS name';
  const builderOf = 'MATCH (:instrument {name: $x})-[:builtBy]->(b:Institute) RETURN b.name AS name';
  const fundersOf = 'MATCH (:Observatory {name: $x})-[:FUNDED_BY]->(a:FundingAgency) RETURN a.name AS name';
  const staffOf = `MATCH (:Institute {name: $x})-[e:EMPLOYS]->(a:Astronomer) WHERE ${OBSERVED} RETURN a.name AS name`;
  const runsLedBy = 'MATCH (x:ObservingRun)-[:hasPI]->(:Astronomer {name: $x}) RETURN x.name AS name';
  const papersBy = 'MATCH (p:Paper)-[:written_by]->(:Astronomer {name: $x}) RETURN p.name AS name';
  const telescopesOf = 'MATCH (t:TELESCOPE)-[:operated_by]->(:Observatory {name: $x}) RETURN t.name AS name';
  const instrumentsOn = 'MATCH (i:instrument)-[:MOUNTED_ON]->(:TELESCOPE {name: $x}) RETURN i.name AS name';
  const objectsIn = 'MATCH (o:celestial_object)-[:lies_in]->(:Constellation {name: $x}) RETURN o.name AS name';
  const runsOn = `MATCH (x:ObservingRun)-[e:TARGETED]->(:celestial_object {name: $x}) WHERE ${OBSERVED} RETURN x.name AS name`;
  const papersIn = 'MATCH (p:Paper)-[:appearedIn]->(:Journal {name: $x}) RETURN p.name AS name';
  const observatoriesOn = 'MATCH (o:Observatory)-[:SITED_AT]->(:Site {name: $x}) RETURN o.name AS name';
  const funded = 'MATCH (o:Observatory)-[:FUNDED_BY]->(:FundingAgency {name: $x}) RETURN o.name AS name';
  const builtBy = 'MATCH (i:instrument)-[:builtBy]->(:Institute {name: $x}) RETURN i.name AS name';
  const runsWith = 'MATCH (x:ObservingRun)-[:onInstrument]->(:instrument {name: $x}) RETURN x.name AS name';
  const papersFrom = 'MATCH (p:Paper)-[:USES_DATA_FROM]->(:ObservingRun {name: $x}) RETURN p.name AS name';
  const byValue = (label: string, key: string): string => `MATCH (n:${label}) WHERE n.${key} = $x RETURN n.name AS name`;
  const byDate = (label: string, key: string): string => `MATCH (n:${label}) WHERE n.${key} = date($x) RETURN n.name AS name`;

  const ask = (text: string, gold: string, x: unknown, trust?: Trust): Ask => ({ text, gold, x, ...(trust ? { trust } : {}) });
  const aboutAstronomer = (r: Rng, text: (n: string) => string, gold: string, trust: (a: number) => Trust | undefined): Ask => {
    const a = astronomerIx(r);
    const n = w.astronomers[a].name;
    return ask(text(n), gold, n, trust(a));
  };
  const aboutRun = (r: Rng, text: (n: string) => string, gold: string, trust?: (x: number) => Trust | undefined): Ask => {
    const x = runIx(r);
    const n = w.runs[x].name;
    return ask(text(n), gold, n, trust?.(x));
  };

  return {
    'one-hop': [
      ['where works', (r) => aboutAstronomer(r, (n) => `Where does ${n} work?`, employerOf, employerTrust)],
      ['who employs', (r) => aboutAstronomer(r, (n) => `Who employs ${n}?`, employerOf, employerTrust)],
      ['home institution fragment', (r) => aboutAstronomer(r, (n) => `${n}'s home institution`, employerOf, employerTrust)],
      ['who was PI', (r) => { const x = run(r); return ask(`Who was the PI on ${x}?`, piOf, x); }],
      ['led by whom', (r) => { const x = run(r); return ask(`${x} was led by whom?`, piOf, x); }],
      ['what observed', (r) => aboutRun(r, (n) => `What did ${n} observe?`, targetOf, targetTrust)],
      ['target of run', (r) => aboutRun(r, (n) => `Which object was the target of ${n}?`, targetOf, targetTrust)],
      ['instrument used', (r) => { const x = run(r); return ask(`Which instrument was used for ${x}?`, instrumentOf, x); }],
      ['mounted on', (r) => { const i = instrument(r); return ask(`${i} sits on which telescope?`, telescopeOf, i); }],
      ['who operates', (r) => { const t = telescope(r); return ask(`Who operates the ${t}?`, operatorOf, t); }],
      ['where observatory', (r) => { const o = observatory(r); return ask(`Where does the ${o} stand?`, siteOf, o); }],
      ['constellation of object', (r) => { const o = object(r); return ask(`In which constellation is ${o}?`, constellationOf, o); }],
      ['where published', (r) => { const p = paper(r); return ask(`Where was "${p}" published?`, journalOf, p); }],
      ['who built', (r) => { const i = instrument(r); return ask(`Who built ${i}?`, builderOf, i); }],
      ['who pays', (r) => { const o = observatory(r); return ask(`Who pays for the ${o}?`, fundersOf, o); }],
    ],
    reverse: [
      ['who works at', (r) => { const i = institute(r); return ask(`Who works at the ${i}?`, staffOf, i); }],
      ['runs led', (r) => { const a = astronomer(r); return ask(`Which observing runs did ${a} lead?`, runsLedBy, a); }],
      ['what published', (r) => { const a = astronomer(r); return ask(`What has ${a} published?`, papersBy, a); }],
      ['telescopes operated', (r) => { const o = observatory(r); return ask(`Which telescopes does the ${o} operate?`, telescopesOf, o); }],
      ['instruments on', (r) => { const t = telescope(r); return ask(`What instruments are on the ${t}?`, instrumentsOn, t); }],
      ['objects in', (r) => { const c = constellation(r); return ask(`Which objects lie in ${c}?`, objectsIn, c); }],
      ['runs observed object', (r) => { const o = object(r); return ask(`Which runs observed ${o}?`, runsOn, o); }],
      ['a paper in journal', (r) => { const j = journal(r); return ask(`Name a paper that appeared in ${j}`, papersIn, j); }],
      ['observatory on site', (r) => { const s = site(r); return ask(`Which observatory is on ${s}?`, observatoriesOn, s); }],
      ['what funds', (r) => { const a = agency(r); return ask(`What does the ${a} fund?`, funded, a); }],
      ['built by institute', (r) => { const i = institute(r); return ask(`Which instruments were built by the ${i}?`, builtBy, i); }],
      ['runs that used', (r) => { const i = instrument(r); return ask(`runs that used ${i}`, runsWith, i); }],
      ['papers from run', (r) => { const x = run(r); return ask(`Which papers use data from ${x}?`, papersFrom, x); }],
    ],
    value: [
      ['orcid', (r) => { const a = r.pick(w.astronomers); return ask(`Whose ORCID is ${a.orcid}?`, byValue('Astronomer', 'orcid'), a.orcid); }],
      ['doi', (r) => { const p = r.pick(w.papers); return ask(`Which paper has DOI ${p.doi}?`, byValue('Paper', 'doi'), p.doi); }],
      ['bibcode quoted', (r) => { const p = r.pick(w.papers); return ask(`Find the paper with bibcode "${p.bibcode}"`, byValue('Paper', 'bibcode'), p.bibcode); }],
      ['published spoken', (r) => { const p = r.pick(w.papers); return ask(`Which paper came out on ${spokenDate(p.published)}?`, byDate('Paper', 'published'), p.published); }],
      ['observatory code', (r) => { const o = r.pick(w.observatories); return ask(`Which observatory has the code ${o.code}?`, byValue('Observatory', 'obs_code'), o.code); }],
      ['issn', (r) => { const j = r.pick(w.journals); return ask(`ISSN ${j.issn} is which journal?`, byValue('Journal', 'issn'), j.issn); }],
      ['ror id', (r) => { const i = r.pick(w.institutes); return ask(`Which institute has the ROR id ${i.ror}?`, byValue('Institute', 'ror_id'), i.ror); }],
      ['coordinates', (r) => { const o = r.pick(w.objects); return ask(`What object is at ${o.coords}?`, byValue('celestial_object', 'coordinates'), o.coords); }],
      ['iau abbreviation', (r) => { const c = r.pick(w.constellations); return ask(`Which constellation is abbreviated ${c.abbr}?`, byValue('Constellation', 'iau_abbr'), c.abbr); }],
      ['night iso', (r) => { const x = r.pick(w.runs); return ask(`Which run observed on the night of ${x.night}?`, byDate('ObservingRun', 'night'), x.night); }],
      ['archive id', (r) => { const x = r.pick(w.runs); return ask(`Look up archive id ${x.archiveId}`, byValue('ObservingRun', 'archive_id'), x.archiveId); }],
      ['serial number', (r) => { const i = r.pick(w.instruments); return ask(`Which instrument has serial number ${i.serial}?`, byValue('instrument', 'serial_no'), i.serial); }],
      ['first light', (r) => { const t = r.pick(w.telescopes); return ask(`Which telescope saw first light on ${spokenDate(t.firstLight)}?`, byDate('TELESCOPE', 'first_light'), t.firstLight); }],
      ['agency code', (r) => { const a = r.pick(w.agencies); return ask(`agency code ${a.code}`, byValue('FundingAgency', 'agency_code'), a.code); }],
      ['site code', (r) => { const s = r.pick(w.sites); return ask(`What site is ${s.code}?`, byValue('Site', 'site_code'), s.code); }],
      ['altitude', (r) => { const s = r.pick(w.sites); return ask(`Which site is at an altitude of ${s.altitude} m?`, byValue('Site', 'altitude_m'), s.altitude); }],
    ],
    'multi-hop': [
      ['site of telescope observatory', (r) => { const t = telescope(r); return ask(`Where is the observatory that operates the ${t}?`,
        'MATCH (:TELESCOPE {name: $x})-[:operated_by]->(:Observatory)-[:SITED_AT]->(s:Site) RETURN s.name AS name', t); }],
      ['institute of PI', (r) => aboutRun(r, (n) => `Which institute employs the PI of ${n}?`,
        `MATCH (:ObservingRun {name: $x})-[:hasPI]->(:Astronomer)<-[e:EMPLOYS]-(i:Institute) WHERE ${OBSERVED} RETURN i.name AS name`, piEmployerTrust)],
      ['constellation of run target', (r) => aboutRun(r, (n) => `Which constellation was ${n} pointed at?`,
        `MATCH (:ObservingRun {name: $x})-[e:TARGETED]->(:celestial_object)-[:lies_in]->(c:Constellation) WHERE ${OBSERVED} RETURN c.name AS name`, targetConstellationTrust)],
      ['telescope of run', (r) => { const x = run(r); return ask(`Which telescope was used for ${x}?`,
        'MATCH (:ObservingRun {name: $x})-[:onInstrument]->(:instrument)-[:MOUNTED_ON]->(t:TELESCOPE) RETURN t.name AS name', x); }],
      ['papers about object', (r) => { const o = object(r); return ask(`Which papers used observations of ${o}?`,
        `MATCH (:celestial_object {name: $x})<-[e:TARGETED]-(:ObservingRun)<-[:USES_DATA_FROM]-(p:Paper) WHERE ${OBSERVED} RETURN p.name AS name`, o); }],
      ['journals of astronomer', (r) => { const a = astronomer(r); return ask(`Which journals has ${a} published in?`,
        'MATCH (:Astronomer {name: $x})<-[:written_by]-(:Paper)-[:appearedIn]->(j:Journal) RETURN j.name AS name', a); }],
      ['observatory of instrument', (r) => { const i = instrument(r); return ask(`Which observatory runs the telescope that ${i} is mounted on?`,
        'MATCH (:instrument {name: $x})-[:MOUNTED_ON]->(:TELESCOPE)-[:operated_by]->(o:Observatory) RETURN o.name AS name', i); }],
      ['funder of telescope', (r) => { const t = telescope(r); return ask(`Who funds the observatory that operates the ${t}?`,
        'MATCH (:TELESCOPE {name: $x})-[:operated_by]->(:Observatory)-[:FUNDED_BY]->(a:FundingAgency) RETURN a.name AS name', t); }],
      ['PIs on instrument', (r) => { const i = instrument(r); return ask(`Who has led runs on ${i}?`,
        'MATCH (:instrument {name: $x})<-[:onInstrument]-(:ObservingRun)-[:hasPI]->(a:Astronomer) RETURN a.name AS name', i); }],
      ['objects astronomer observed', (r) => { const a = astronomer(r); return ask(`What objects has ${a} observed as PI?`,
        `MATCH (:Astronomer {name: $x})<-[:hasPI]-(:ObservingRun)-[e:TARGETED]->(o:celestial_object) WHERE ${OBSERVED} RETURN o.name AS name`, a); }],
      ['co-authors', (r) => { const a = astronomer(r); return ask(`Who has co-authored a paper with ${a}?`,
        'MATCH (x:Astronomer {name: $x})<-[:written_by]-(:Paper)-[:written_by]->(c:Astronomer) WHERE c <> x RETURN DISTINCT c.name AS name', a); }],
      ['telescopes on site', (r) => { const s = site(r); return ask(`Which telescopes are on ${s}?`,
        'MATCH (:Site {name: $x})<-[:SITED_AT]-(:Observatory)<-[:operated_by]-(t:TELESCOPE) RETURN t.name AS name', s); }],
      ['telescope behind paper', (r) => { const p = paper(r); return ask(`Which telescope took the data for "${p}"?`,
        'MATCH (:Paper {name: $x})-[:USES_DATA_FROM]->(:ObservingRun)-[:onInstrument]->(:instrument)-[:MOUNTED_ON]->(t:TELESCOPE) RETURN t.name AS name', p); }],
    ],
    listing: [
      ['everyone employed', (r) => { const i = institute(r); return ask(`List everyone employed by the ${i}`, staffOf, i); }],
      ['all papers by', (r) => { const a = astronomer(r); return ask(`all papers by ${a}`, papersBy, a); }],
      ['every telescope', (r) => { const o = observatory(r); return ask(`Show every telescope the ${o} operates`, telescopesOf, o); }],
      ['instruments all', (r) => { const t = telescope(r); return ask(`${t} instruments, all of them`, instrumentsOn, t); }],
      ['enumerate objects', (r) => { const c = constellation(r); return ask(`Enumerate the objects in ${c}`, objectsIn, c); }],
      ['every run led', (r) => { const a = astronomer(r); return ask(`every run led by ${a}`, runsLedBy, a); }],
      ['all papers in journal', (r) => { const j = journal(r); return ask(`Give me all the papers published in ${j}`, papersIn, j); }],
      ['observatories funded', (r) => { const a = agency(r); return ask(`List the observatories funded by the ${a}.`, funded, a); }],
      ['bare staff', (r) => { const i = institute(r); return ask(`${i} staff`, staffOf, i); }],
      ['runs used list', (r) => { const i = instrument(r); return ask(`What runs used ${i}? List them all.`, runsWith, i); }],
      ['all built at', (r) => { const i = institute(r); return ask(`All the instruments built at the ${i}`, builtBy, i); }],
      ['all papers from run', (r) => { const x = run(r); return ask(`Show all papers that used data from ${x}`, papersFrom, x); }],
    ],
  };
}

/**
 * `perShape` questions of each shape, cycling through that shape's phrasings, with gold answers
 * read from the graph in `db` (which must hold `w`, loaded by loadObservatory).
 */
export function observatoryQuestions(db: Database, w: ObservatoryWorld, perShape: number, seed = 1206): Question[] {
  return drawQuestions(db, templates(w), perShape, seed);
}
