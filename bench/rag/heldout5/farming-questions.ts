/**
 * Questions about the held-out arable-farming world (farming.ts) in issue 32's five shapes, phrased
 * the way farm advisers, co-op staff and grain buyers ask: questions and imperatives, the question
 * word first, last or missing, words the schema never uses (farmer, owner, field, paddock, sown,
 * grown, seed, breeder, bought, taken, harvest, organic, members, who runs), possessives, quoted
 * values, values with spaces and slashes, code-like names and relative clauses. Each question's
 * gold answers come from a Cypher query on the loaded graph, observed facts only; a draw whose gold
 * comes out empty is drawn again.
 */

import type { Database } from '../../../src/engine/database.js';
import { SHAPES, type Rng, type Shape } from '../domain.js';
import { type Ask, drawQuestions, MONTHS, type Question, type Template, type Trust } from '../held-out-questions.js';
import type { FarmingWorld } from './farming.js';

export { SHAPES, type Question, type Shape, type Trust };

// Affiliations and deliveries can be predicted; only observed ones are truth.
const OBSERVED = `a.observation_class <> 'predicted'`;

/** A date as a farm diary says it ("August 12, 2019"), not as the graph stores it. */
export function spokenDate(iso: string): string {
  const [y, m, d] = iso.split('-').map(Number);
  return `${MONTHS[m - 1]} ${d}, ${y}`;
}

function templates(w: FarmingWorld): Record<Shape, [string, Template][]> {
  const differ = (observed: string, predicted: string): Trust | undefined => (observed === predicted ? undefined : { observed, predicted });
  // Half of the draws that can carry a trust probe land on an entity with a predicted rival.
  const growerIx = (r: Rng): number => (r.next() < 0.5 ? r.int(Math.ceil(w.growers.length / 10)) * 10 : r.int(w.growers.length));
  const lotIx = (r: Rng): number => (r.next() < 0.5 ? r.int(Math.ceil(w.lots.length / 12)) * 12 : r.int(w.lots.length));
  const coopOf = (g: number, predicted: boolean): number => (predicted ? w.growers[g].predicted : w.growers[g].coop);
  const millOf = (l: number, predicted: boolean): number => (predicted ? w.lots[l].predicted : w.lots[l].mill);
  const coopTrust = (g: number): Trust | undefined =>
    w.growers[g].predicted < 0 ? undefined : differ(w.coops[coopOf(g, false)].name, w.coops[coopOf(g, true)].name);
  const coopDistrictTrust = (g: number): Trust | undefined =>
    w.growers[g].predicted < 0
      ? undefined
      : differ(w.districts[w.coops[coopOf(g, false)].district].name, w.districts[w.coops[coopOf(g, true)].district].name);
  const millTrust = (l: number): Trust | undefined =>
    w.lots[l].predicted < 0 ? undefined : differ(w.mills[millOf(l, false)].name, w.mills[millOf(l, true)].name);
  const millDistrictTrust = (l: number): Trust | undefined =>
    w.lots[l].predicted < 0
      ? undefined
      : differ(w.districts[w.mills[millOf(l, false)].district].name, w.districts[w.mills[millOf(l, true)].district].name);

  const farm = (r: Rng): string => r.pick(w.farms).name;
  const grower = (r: Rng): string => w.growers[r.pick(w.farms).grower].name;
  const plot = (r: Rng): string => r.pick(w.plots).name;
  const variety = (r: Rng): string => r.pick(w.varieties).name;
  const crop = (r: Rng): string => r.pick(w.crops).name;
  const seedCo = (r: Rng): string => r.pick(w.seedCompanies).name;
  const certifier = (r: Rng): string => r.pick(w.certifiers).name;
  const mill = (r: Rng): string => r.pick(w.mills).name;
  const coop = (r: Rng): string => r.pick(w.coops).name;
  const district = (r: Rng): string => r.pick(w.districts).name;
  const lot = (r: Rng): string => r.pick(w.lots).name;

  const growerOf = 'MATCH (:Farm {name: $x})-[:FARMED_BY]->(g:Grower) RETURN g.name AS name';
  const districtOfFarm = 'MATCH (:Farm {name: $x})-[:inDistrict]->(d:District) RETURN d.name AS name';
  const varietyOfPlot = 'MATCH (:Plot {name: $x})-[:PLANTED_WITH]->(v:Variety) RETURN v.name AS name';
  const cropOfVariety = 'MATCH (:Variety {name: $x})-[:CULTIVAR_OF]->(c:CROP) RETURN c.name AS name';
  const breederOf = 'MATCH (:Variety {name: $x})-[:bredBy]->(s:seed_company) RETURN s.name AS name';
  const coopOfGrower = `MATCH (:Grower {name: $x})-[a:affiliatedWith]->(c:CoOp) WHERE ${OBSERVED} RETURN c.name AS name`;
  const millOfLot = `MATCH (:HarvestLot {name: $x})-[a:deliveredTo]->(m:Mill) WHERE ${OBSERVED} RETURN m.name AS name`;
  const plotOfLot = 'MATCH (:HarvestLot {name: $x})-[:HARVESTED_FROM]->(p:Plot) RETURN p.name AS name';
  const farmOfPlot = 'MATCH (:Plot {name: $x})-[:belongsTo]->(f:Farm) RETURN f.name AS name';
  const certifierOf = 'MATCH (:Farm {name: $x})-[:inspectedBy]->(b:CertificationBody) RETURN b.name AS name';
  const districtOfCoop = 'MATCH (:CoOp {name: $x})-[:registered_in]->(d:District) RETURN d.name AS name';
  const districtOfMill = 'MATCH (:Mill {name: $x})-[:located_in]->(d:District) RETURN d.name AS name';
  const farmsOfGrower = 'MATCH (f:Farm)-[:FARMED_BY]->(:Grower {name: $x}) RETURN f.name AS name';
  const farmsIn = 'MATCH (f:Farm)-[:inDistrict]->(:District {name: $x}) RETURN f.name AS name';
  const plotsSownWith = 'MATCH (p:Plot)-[:PLANTED_WITH]->(:Variety {name: $x}) RETURN p.name AS name';
  const varietiesOfCrop = 'MATCH (v:Variety)-[:CULTIVAR_OF]->(:CROP {name: $x}) RETURN v.name AS name';
  const bredBy = 'MATCH (v:Variety)-[:bredBy]->(:seed_company {name: $x}) RETURN v.name AS name';
  const membersOf = `MATCH (g:Grower)-[a:affiliatedWith]->(:CoOp {name: $x}) WHERE ${OBSERVED} RETURN g.name AS name`;
  const lotsAt = `MATCH (l:HarvestLot)-[a:deliveredTo]->(:Mill {name: $x}) WHERE ${OBSERVED} RETURN l.name AS name`;
  const lotsFrom = 'MATCH (l:HarvestLot)-[:HARVESTED_FROM]->(:Plot {name: $x}) RETURN l.name AS name';
  const plotsOf = 'MATCH (p:Plot)-[:belongsTo]->(:Farm {name: $x}) RETURN p.name AS name';
  const farmsCertifiedBy = 'MATCH (f:Farm)-[:inspectedBy]->(:CertificationBody {name: $x}) RETURN f.name AS name';
  const coopsIn = 'MATCH (c:CoOp)-[:registered_in]->(:District {name: $x}) RETURN c.name AS name';
  const millsIn = 'MATCH (m:Mill)-[:located_in]->(:District {name: $x}) RETURN m.name AS name';
  const byValue = (label: string, key: string): string => `MATCH (n:${label}) WHERE n.${key} = $x RETURN n.name AS name`;
  const byDate = (label: string, key: string): string => `MATCH (n:${label}) WHERE n.${key} = date($x) RETURN n.name AS name`;

  const ask = (text: string, gold: string, x: unknown, trust?: Trust): Ask => ({ text, gold, x, ...(trust ? { trust } : {}) });
  const aboutGrower = (r: Rng, text: (n: string) => string, gold: string, trust: (g: number) => Trust | undefined): Ask => {
    const g = growerIx(r);
    const n = w.growers[g].name;
    return ask(text(n), gold, n, trust(g));
  };
  const aboutLot = (r: Rng, text: (n: string) => string, gold: string, trust?: (l: number) => Trust | undefined): Ask => {
    const l = lotIx(r);
    const n = w.lots[l].name;
    return ask(text(n), gold, n, trust?.(l));
  };

  return {
    'one-hop': [
      ['who farms', (r) => { const f = farm(r); return ask(`Who farms ${f}?`, growerOf, f); }],
      ['farmer at', (r) => { const f = farm(r); return ask(`Who is the farmer at ${f}?`, growerOf, f); }],
      ['district of farm', (r) => { const f = farm(r); return ask(`Which district is ${f} in?`, districtOfFarm, f); }],
      ['sown on plot', (r) => { const p = plot(r); return ask(`What variety was sown on ${p}?`, varietyOfPlot, p); }],
      ['kind of crop', (r) => { const v = variety(r); return ask(`What kind of crop is ${v}?`, cropOfVariety, v); }],
      ['who bred', (r) => { const v = variety(r); return ask(`Who bred ${v}?`, breederOf, v); }],
      ['coop of grower', (r) => aboutGrower(r, (n) => `Which cooperative is ${n} a member of?`, coopOfGrower, coopTrust)],
      ['grower co-op fragment', (r) => aboutGrower(r, (n) => `${n}'s co-op`, coopOfGrower, coopTrust)],
      ['mill of lot', (r) => aboutLot(r, (n) => `Which mill was ${n} delivered to?`, millOfLot, millTrust)],
      ['who bought lot', (r) => aboutLot(r, (n) => `Who bought ${n}?`, millOfLot, millTrust)],
      ['field of lot', (r) => { const l = lot(r); return ask(`Which field was ${l} harvested from?`, plotOfLot, l); }],
      ['farm of plot', (r) => { const p = plot(r); return ask(`${p} is part of which farm?`, farmOfPlot, p); }],
      ['who certifies', (r) => { const f = farm(r); return ask(`Who certifies ${f} as organic?`, certifierOf, f); }],
      ['district of mill', (r) => { const m = mill(r); return ask(`${m} stands in which district?`, districtOfMill, m); }],
      ['where coop registered', (r) => { const c = coop(r); return ask(`Where is the ${c} registered?`, districtOfCoop, c); }],
    ],
    reverse: [
      ['farms grower runs', (r) => { const g = grower(r); return ask(`Which farms does ${g} run?`, farmsOfGrower, g); }],
      ['farms in district', (r) => { const d = district(r); return ask(`Which farms are in ${d}?`, farmsIn, d); }],
      ['fields sown with', (r) => { const v = variety(r); return ask(`Which fields are sown with ${v}?`, plotsSownWith, v); }],
      ['varieties of crop', (r) => { const c = crop(r); return ask(`What varieties of ${c} are there?`, varietiesOfCrop, c); }],
      ['bred by seed house', (r) => { const s = seedCo(r); return ask(`Which varieties did ${s} breed?`, bredBy, s); }],
      ['growers in coop', (r) => { const c = coop(r); return ask(`Who belongs to the ${c}?`, membersOf, c); }],
      ['delivered to mill', (r) => { const m = mill(r); return ask(`What has been delivered to ${m}?`, lotsAt, m); }],
      ['lots from plot', (r) => { const p = plot(r); return ask(`Which harvest lots came off ${p}?`, lotsFrom, p); }],
      ['a field on farm', (r) => { const f = farm(r); return ask(`Name a field on ${f}`, plotsOf, f); }],
      ['farms certifier inspects', (r) => { const b = certifier(r); return ask(`Which farms does ${b} inspect?`, farmsCertifiedBy, b); }],
      ['coop in district', (r) => { const d = district(r); return ask(`Is there a co-op registered in ${d}?`, coopsIn, d); }],
      ['mill in district', (r) => { const d = district(r); return ask(`a mill located in ${d}`, millsIn, d); }],
    ],
    value: [
      ['holding number', (r) => { const f = r.pick(w.farms); return ask(`Which farm has holding number ${f.holding}?`, byValue('Farm', 'holding_number'), f.holding); }],
      ['look up holding', (r) => { const f = r.pick(w.farms); return ask(`Look up holding ${f.holding}`, byValue('Farm', 'holding_number'), f.holding); }],
      ['producer number', (r) => { const g = r.pick(w.growers); return ask(`Whose producer number is ${g.producerNo}?`, byValue('Grower', 'producer_no'), g.producerNo); }],
      ['variety reg code', (r) => { const v = r.pick(w.varieties); return ask(`What variety is registered as ${v.regCode}?`, byValue('Variety', 'regCode'), v.regCode); }],
      ['lot code', (r) => { const l = r.pick(w.lots); return ask(`Which lot carries the code ${l.lotCode}?`, byValue('HarvestLot', 'lotCode'), l.lotCode); }],
      ['harvested spoken', (r) => { const l = r.pick(w.lots); return ask(`What was harvested on ${spokenDate(l.harvested)}?`, byDate('HarvestLot', 'harvested'), l.harvested); }],
      ['harvested iso', (r) => { const l = r.pick(w.lots); return ask(`Which lot was harvested on ${l.harvested}?`, byDate('HarvestLot', 'harvested'), l.harvested); }],
      ['eppo code', (r) => { const c = r.pick(w.crops); return ask(`Which crop has the EPPO code ${c.eppo}?`, byValue('CROP', 'eppo'), c.eppo); }],
      ['seed licence', (r) => { const s = r.pick(w.seedCompanies); return ask(`Which seed company holds licence ${s.licenceNo}?`, byValue('seed_company', 'seed_licence'), s.licenceNo); }],
      ['mill site code', (r) => { const m = r.pick(w.mills); return ask(`site ${m.siteCode}: which mill is that?`, byValue('Mill', 'siteCode'), m.siteCode); }],
      ['vat number', (r) => { const c = r.pick(w.coops); return ask(`Find the cooperative with VAT number ${c.vat}`, byValue('CoOp', 'vat_number'), c.vat); }],
      ['district code', (r) => { const d = r.pick(w.districts); return ask(`Which district uses the code ${d.code}?`, byValue('District', 'code'), d.code); }],
      ['accreditation', (r) => { const b = r.pick(w.certifiers); return ask(`Which certification body has accreditation number ${b.accreditation}?`, byValue('CertificationBody', 'accreditation_no'), b.accreditation); }],
      ['variety registered date', (r) => { const v = r.pick(w.varieties); return ask(`Which variety was registered on ${spokenDate(v.registered)}?`, byDate('Variety', 'registered'), v.registered); }],
      ['parcel quoted', (r) => { const p = r.pick(w.plots); return ask(`Which field is parcel "${p.parcelRef}"?`, byValue('Plot', 'parcel_ref'), p.parcelRef); }],
      ['farm established', (r) => { const f = r.pick(w.farms); return ask(`the farm established on ${f.established}`, byDate('Farm', 'established'), f.established); }],
    ],
    'multi-hop': [
      ['coop of farmer of farm', (r) => { const f = farm(r); return ask(`Which cooperative does the farmer of ${f} belong to?`,
        `MATCH (:Farm {name: $x})-[:FARMED_BY]->(:Grower)-[a:affiliatedWith]->(c:CoOp) WHERE ${OBSERVED} RETURN c.name AS name`, f); }],
      ['district of grower coop', (r) => aboutGrower(r, (n) => `In which district is the co-op that ${n} belongs to registered?`,
        `MATCH (:Grower {name: $x})-[a:affiliatedWith]->(:CoOp)-[:registered_in]->(d:District) WHERE ${OBSERVED} RETURN d.name AS name`, coopDistrictTrust)],
      ['crop of lot', (r) => { const l = lot(r); return ask(`What crop was grown on the field that ${l} came from?`,
        'MATCH (:HarvestLot {name: $x})-[:HARVESTED_FROM]->(:Plot)-[:PLANTED_WITH]->(:Variety)-[:CULTIVAR_OF]->(c:CROP) RETURN c.name AS name', l); }],
      ['breeder of variety on plot', (r) => { const p = plot(r); return ask(`Who bred the variety sown on ${p}?`,
        'MATCH (:Plot {name: $x})-[:PLANTED_WITH]->(:Variety)-[:bredBy]->(s:seed_company) RETURN s.name AS name', p); }],
      ['mills of farm harvest', (r) => { const f = farm(r); return ask(`Which mills has the harvest of ${f} been delivered to?`,
        `MATCH (:Farm {name: $x})<-[:belongsTo]-(:Plot)<-[:HARVESTED_FROM]-(:HarvestLot)-[a:deliveredTo]->(m:Mill) WHERE ${OBSERVED} RETURN m.name AS name`, f); }],
      ['district of farm of plot', (r) => { const p = plot(r); return ask(`Which district is the farm that ${p} belongs to in?`,
        'MATCH (:Plot {name: $x})-[:belongsTo]->(:Farm)-[:inDistrict]->(d:District) RETURN d.name AS name', p); }],
      ['farmer of lot field', (r) => { const l = lot(r); return ask(`Who farms the field ${l} was harvested from?`,
        'MATCH (:HarvestLot {name: $x})-[:HARVESTED_FROM]->(:Plot)-[:belongsTo]->(:Farm)-[:FARMED_BY]->(g:Grower) RETURN g.name AS name', l); }],
      ['varieties on farm', (r) => { const f = farm(r); return ask(`Which varieties are grown on ${f}?`,
        'MATCH (:Farm {name: $x})<-[:belongsTo]-(:Plot)-[:PLANTED_WITH]->(v:Variety) RETURN v.name AS name', f); }],
      ['crops of breeder', (r) => { const s = seedCo(r); return ask(`Which crops does ${s} breed varieties of?`,
        'MATCH (:seed_company {name: $x})<-[:bredBy]-(:Variety)-[:CULTIVAR_OF]->(c:CROP) RETURN c.name AS name', s); }],
      ['growers in district', (r) => { const d = district(r); return ask(`Which growers farm in ${d}?`,
        'MATCH (:District {name: $x})<-[:inDistrict]-(:Farm)-[:FARMED_BY]->(g:Grower) RETURN g.name AS name', d); }],
      ['certifiers of grower farms', (r) => { const g = grower(r); return ask(`Who certifies the farms run by ${g}?`,
        'MATCH (:Grower {name: $x})<-[:FARMED_BY]-(:Farm)-[:inspectedBy]->(b:CertificationBody) RETURN b.name AS name', g); }],
      ['district of mill of lot', (r) => aboutLot(r, (n) => `Where is the mill that ${n} went to located?`,
        `MATCH (:HarvestLot {name: $x})-[a:deliveredTo]->(:Mill)-[:located_in]->(d:District) WHERE ${OBSERVED} RETURN d.name AS name`, millDistrictTrust)],
    ],
    listing: [
      ['all farms of grower', (r) => { const g = grower(r); return ask(`List all farms run by ${g}`, farmsOfGrower, g); }],
      ['all fields', (r) => { const f = farm(r); return ask(`all fields of ${f}`, plotsOf, f); }],
      ['every variety', (r) => { const c = crop(r); return ask(`Show every variety of ${c}`, varietiesOfCrop, c); }],
      ['members of coop', (r) => { const c = coop(r); return ask(`List the members of the ${c}.`, membersOf, c); }],
      ['bare members', (r) => { const c = coop(r); return ask(`${c} members`, membersOf, c); }],
      ['every lot at mill', (r) => { const m = mill(r); return ask(`every lot delivered to ${m}`, lotsAt, m); }],
      ['farms in district', (r) => { const d = district(r); return ask(`Enumerate the farms in ${d}`, farmsIn, d); }],
      ['fields all', (r) => { const f = farm(r); return ask(`${f}'s fields, all of them`, plotsOf, f); }],
      ['bred list', (r) => { const s = seedCo(r); return ask(`What has ${s} bred? List them all.`, bredBy, s); }],
      ['all certified by', (r) => { const b = certifier(r); return ask(`Give me all the farms certified by ${b}`, farmsCertifiedBy, b); }],
      ['all lots of field', (r) => { const p = plot(r); return ask(`Show all harvest lots from ${p}`, lotsFrom, p); }],
      ['coops registered', (r) => { const d = district(r); return ask(`Show all cooperatives registered in ${d}`, coopsIn, d); }],
    ],
  };
}

/**
 * `perShape` questions of each shape, cycling through that shape's phrasings, with gold answers
 * read from the graph in `db` (which must hold `w`, loaded by loadFarming).
 */
export function farmingQuestions(db: Database, w: FarmingWorld, perShape: number, seed = 1201): Question[] {
  return drawQuestions(db, templates(w), perShape, seed);
}
