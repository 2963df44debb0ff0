/**
 * Questions about the held-out clinical world (clinical.ts) in issue 32's five shapes, phrased the
 * way staff and researchers ask: questions and imperatives, the question word first, last or
 * missing, words the schema never uses (ward, doctor, drug, trial, sponsor, lead researcher,
 * prescribed for, sites), possessives, quoted values and relative clauses. Each question's gold
 * answers come from a Cypher query on the loaded graph, observed facts only; a draw whose gold
 * comes out empty is drawn again.
 */

import type { Database } from '../../../src/engine/database.js';
import { SHAPES, type Rng, type Shape } from '../domain.js';
import { type Ask, drawQuestions, MONTHS, type Question, type Template, type Trust } from '../held-out-questions.js';
import type { ClinicalWorld } from './clinical.js';

export { SHAPES, type Question, type Shape, type Trust };

// Posts and compounds can be predicted; only observed ones are truth.
const OBSERVED = `a.observation_class <> 'predicted'`;

/** A date as people write it ("4 March 1998"), not as the graph stores it. */
export function spokenDate(iso: string): string {
  const [y, m, d] = iso.split('-').map(Number);
  return `${d} ${MONTHS[m - 1]} ${y}`;
}

function templates(w: ClinicalWorld): Record<Shape, [string, Template][]> {
  const differ = (observed: string, predicted: string): Trust | undefined => (observed === predicted ? undefined : { observed, predicted });
  // Half of the draws that can carry a trust probe land on an entity with a predicted rival.
  const clinician = (r: Rng): number => (r.next() < 0.5 ? r.int(Math.ceil(w.clinicians.length / 10)) * 10 : r.int(w.clinicians.length));
  const study = (r: Rng): number => (r.next() < 0.5 ? r.int(Math.ceil(w.studies.length / 12)) * 12 : r.int(w.studies.length));
  const unitOf = (c: number, predicted: boolean): number => (predicted ? w.clinicians[c].predicted : w.clinicians[c].unit);
  const postTrust = (c: number): Trust | undefined =>
    w.clinicians[c].predicted < 0 ? undefined : differ(w.units[unitOf(c, false)].name, w.units[unitOf(c, true)].name);
  const hospitalTrust = (c: number): Trust | undefined =>
    w.clinicians[c].predicted < 0 ? undefined : differ(w.hospitals[w.units[unitOf(c, false)].hospital].name, w.hospitals[w.units[unitOf(c, true)].hospital].name);
  const boardTrust = (c: number): Trust | undefined => {
    if (w.clinicians[c].predicted < 0) return undefined;
    const board = (u: number): string => w.boards[w.hospitals[w.units[u].hospital].board].name;
    return differ(board(unitOf(c, false)), board(unitOf(c, true)));
  };
  const compoundTrust = (s: number): Trust | undefined =>
    w.studies[s].predicted < 0 ? undefined : differ(w.compounds[w.studies[s].compound].name, w.compounds[w.studies[s].predicted].name);
  const makerTrust = (s: number): Trust | undefined =>
    w.studies[s].predicted < 0 ? undefined : differ(w.firms[w.compounds[w.studies[s].compound].firm].name, w.firms[w.compounds[w.studies[s].predicted].firm].name);

  const unit = (r: Rng): string => r.pick(w.units).name;
  const hospital = (r: Rng): string => r.pick(w.hospitals).name;
  const board = (r: Rng): string => r.pick(w.boards).name;
  const firm = (r: Rng): string => r.pick(w.firms).name;
  const compound = (r: Rng): string => r.pick(w.compounds).name;
  const condition = (r: Rng): string => r.pick(w.conditions).name;
  const chief = (r: Rng): string => w.clinicians[r.pick(w.studies).chief].name;

  const postOf = `MATCH (:Clinician {name: $x})-[a:HOLDS_POST_IN]->(u:CareUnit) WHERE ${OBSERVED} RETURN u.name AS name`;
  const hospitalOfUnit = 'MATCH (:CareUnit {name: $x})-[:partOf]->(h:Hospital) RETURN h.name AS name';
  const boardOf = 'MATCH (:Hospital {name: $x})-[:GOVERNED_BY]->(b:HEALTH_BOARD) RETURN b.name AS name';
  const compoundOf = `MATCH (:CLINICAL_STUDY {name: $x})-[a:evaluates]->(c:Compound) WHERE ${OBSERVED} RETURN c.name AS name`;
  const funderOf = 'MATCH (:CLINICAL_STUDY {name: $x})-[:FUNDED_BY]->(f:PharmaFirm) RETURN f.name AS name';
  const chiefOf = 'MATCH (:CLINICAL_STUDY {name: $x})-[:CHIEF_INVESTIGATOR]->(c:Clinician) RETURN c.name AS name';
  const holderOf = 'MATCH (:Compound {name: $x})-[:licensedTo]->(f:PharmaFirm) RETURN f.name AS name';
  const usesOf = 'MATCH (:Compound {name: $x})-[:indicatedFor]->(k:Condition) RETURN k.name AS name';
  const staffOf = `MATCH (c:Clinician)-[a:HOLDS_POST_IN]->(:CareUnit {name: $x}) WHERE ${OBSERVED} RETURN c.name AS name`;
  const unitsOf = 'MATCH (u:CareUnit)-[:partOf]->(:Hospital {name: $x}) RETURN u.name AS name';
  const hospitalsOf = 'MATCH (h:Hospital)-[:GOVERNED_BY]->(:HEALTH_BOARD {name: $x}) RETURN h.name AS name';
  const studiesOf = `MATCH (s:CLINICAL_STUDY)-[a:evaluates]->(:Compound {name: $x}) WHERE ${OBSERVED} RETURN s.name AS name`;
  const fundedBy = 'MATCH (s:CLINICAL_STUDY)-[:FUNDED_BY]->(:PharmaFirm {name: $x}) RETURN s.name AS name';
  const compoundsOf = 'MATCH (c:Compound)-[:licensedTo]->(:PharmaFirm {name: $x}) RETURN c.name AS name';
  const drugsFor = 'MATCH (c:Compound)-[:indicatedFor]->(:Condition {name: $x}) RETURN c.name AS name';
  const ledBy = 'MATCH (s:CLINICAL_STUDY)-[:CHIEF_INVESTIGATOR]->(:Clinician {name: $x}) RETURN s.name AS name';
  const studiesAt = 'MATCH (s:CLINICAL_STUDY)-[:enrolsAt]->(:Hospital {name: $x}) RETURN s.name AS name';
  const sitesOf = 'MATCH (:CLINICAL_STUDY {name: $x})-[:enrolsAt]->(h:Hospital) RETURN h.name AS name';
  const byValue = (label: string, key: string): string => `MATCH (n:${label}) WHERE n.${key} = $x RETURN n.name AS name`;
  const byDate = (label: string, key: string): string => `MATCH (n:${label}) WHERE n.${key} = date($x) RETURN n.name AS name`;

  const ask = (text: string, gold: string, x: unknown, trust?: Trust): Ask => ({ text, gold, x, ...(trust ? { trust } : {}) });
  const aboutClinician = (r: Rng, text: (n: string) => string, gold: string, trust: (c: number) => Trust | undefined): Ask => {
    const c = clinician(r);
    const n = w.clinicians[c].name;
    return ask(text(n), gold, n, trust(c));
  };
  const aboutStudy = (r: Rng, text: (n: string) => string, gold: string, trust?: (s: number) => Trust | undefined): Ask => {
    const s = study(r);
    const n = w.studies[s].name;
    return ask(text(n), gold, n, trust?.(s));
  };

  return {
    'one-hop': [
      ['ward works on', (r) => aboutClinician(r, (n) => `Which ward does ${n} work on?`, postOf, postTrust)],
      ['based in which unit', (r) => aboutClinician(r, (n) => `${n} is based in which unit`, postOf, postTrust)],
      ['clinical team', (r) => aboutClinician(r, (n) => `Tell me the clinical team ${n} belongs to`, postOf, postTrust)],
      ['possessive department', (r) => aboutClinician(r, (n) => `${n}'s department?`, postOf, postTrust)],
      ['hospital of unit', (r) => { const u = unit(r); return ask(`Which hospital is ${u} in?`, hospitalOfUnit, u); }],
      ['site that houses', (r) => { const u = unit(r); return ask(`Name the hospital site that houses ${u}`, hospitalOfUnit, u); }],
      ['authority oversees', (r) => { const h = hospital(r); return ask(`Which health authority oversees ${h}?`, boardOf, h); }],
      ['answers to', (r) => { const h = hospital(r); return ask(`${h} answers to what regional board`, boardOf, h); }],
      ['drug being tested', (r) => aboutStudy(r, (n) => `What drug is being tested in the ${n}?`, compoundOf, compoundTrust)],
      ['medicine under investigation', (r) => aboutStudy(r, (n) => `the medicine under investigation in the ${n}`, compoundOf, compoundTrust)],
      ['who pays', (r) => aboutStudy(r, (n) => `Who is paying for the ${n}?`, funderOf)],
      ['lead researcher', (r) => aboutStudy(r, (n) => `Who is the lead researcher on the ${n}?`, chiefOf)],
      ['who markets', (r) => { const x = compound(r); return ask(`Which company markets ${x}?`, holderOf, x); }],
      ['prescribed for', (r) => { const x = compound(r); return ask(`What is ${x} prescribed for?`, usesOf, x); }],
    ],
    reverse: [
      ['who works on', (r) => { const u = unit(r); return ask(`Who works on ${u}?`, staffOf, u); }],
      ['doctor based in', (r) => { const u = unit(r); return ask(`Name a doctor based in ${u}`, staffOf, u); }],
      ['ward at hospital', (r) => { const h = hospital(r); return ask(`Which ward is at ${h}?`, unitsOf, h); }],
      ['hospital run by', (r) => { const b = board(r); return ask(`A hospital run by ${b}, please`, hospitalsOf, b); }],
      ['trial testing', (r) => { const x = compound(r); return ask(`Which trial is testing ${x}?`, studiesOf, x); }],
      ['sponsors which', (r) => { const f = firm(r); return ask(`${f} sponsors which study?`, fundedBy, f); }],
      ['what does firm sell', (r) => { const f = firm(r); return ask(`What medicine does ${f} sell`, compoundsOf, f); }],
      ['drugs treat', (r) => { const k = condition(r); return ask(`Which drugs treat ${k}?`, drugsFor, k); }],
      ['trial led by', (r) => { const c = chief(r); return ask(`What trial does ${c} lead?`, ledBy, c); }],
      ['hosts which trials', (r) => { const h = hospital(r); return ask(`${h} hosts which trials?`, studiesAt, h); }],
      ['can be prescribed for', (r) => { const k = condition(r); return ask(`What can be prescribed for ${k}`, drugsFor, k); }],
      ['someone who works in', (r) => { const u = unit(r); return ask(`Name someone who works in ${u}`, staffOf, u); }],
    ],
    value: [
      ['ODS code', (r) => { const h = r.pick(w.hospitals); return ask(`Which hospital has ODS code ${h.ods_code}?`, byValue('Hospital', 'ods_code'), h.ods_code); }],
      ['what hospital is', (r) => { const h = r.pick(w.hospitals); return ask(`What hospital is ${h.ods_code}?`, byValue('Hospital', 'ods_code'), h.ods_code); }],
      ['GMC number', (r) => { const c = r.pick(w.clinicians); return ask(`Which doctor has GMC number ${c.gmcNumber}?`, byValue('Clinician', 'gmcNumber'), c.gmcNumber); }],
      ['registration', (r) => { const c = r.pick(w.clinicians); return ask(`Find the clinician with registration ${c.gmcNumber}`, byValue('Clinician', 'gmcNumber'), c.gmcNumber); }],
      ['look up NCT', (r) => { const s = r.pick(w.studies); return ask(`Look up ${s.nct_id}`, byValue('CLINICAL_STUDY', 'nct_id'), s.nct_id); }],
      ['EudraCT', (r) => { const s = r.pick(w.studies); return ask(`Which study has the EudraCT number ${s.eudract}?`, byValue('CLINICAL_STUDY', 'eudract'), s.eudract); }],
      ['ATC code', (r) => { const x = r.pick(w.compounds); return ask(`Which compound has ATC code ${x.atc}?`, byValue('Compound', 'atc'), x.atc); }],
      ['sold as quoted', (r) => { const x = r.pick(w.compounds); return ask(`Which drug is sold as "${x.tradeName}"?`, byValue('Compound', 'tradeName'), x.tradeName); }],
      ['ICD-10', (r) => { const k = r.pick(w.conditions); return ask(`What condition is coded ${k.icd10} in ICD-10?`, byValue('Condition', 'icd10'), k.icd10); }],
      ['cost centre', (r) => { const u = r.pick(w.units); return ask(`Which unit is cost centre ${u.costCentre}?`, byValue('CareUnit', 'costCentre'), u.costCentre); }],
      ['board code', (r) => { const b = r.pick(w.boards); return ask(`The health board with code ${b.boardCode} is called what?`, byValue('HEALTH_BOARD', 'boardCode'), b.boardCode); }],
      ['LEI', (r) => { const f = r.pick(w.firms); return ask(`Company with LEI ${f.lei}`, byValue('PharmaFirm', 'lei'), f.lei); }],
      ['first patient on', (r) => { const s = r.pick(w.studies); return ask(`Which trial enrolled its first patient on ${s.firstPatientIn}?`, byDate('CLINICAL_STUDY', 'firstPatientIn'), s.firstPatientIn); }],
      ['registered spoken date', (r) => { const c = r.pick(w.clinicians); return ask(`Which doctor registered on ${spokenDate(c.registered)}?`, byDate('Clinician', 'registered'), c.registered); }],
      ['acronym quoted', (r) => { const s = r.pick(w.studies); return ask(`What is the full name of the '${s.acronym}' trial?`, byValue('CLINICAL_STUDY', 'acronym'), s.acronym); }],
    ],
    'multi-hop': [
      ['hospital of doctor', (r) => aboutClinician(r, (n) => `Which hospital does ${n} work at?`,
        `MATCH (:Clinician {name: $x})-[a:HOLDS_POST_IN]->(:CareUnit)-[:partOf]->(h:Hospital) WHERE ${OBSERVED} RETURN h.name AS name`, hospitalTrust)],
      ['board of unit hospital', (r) => { const u = unit(r); return ask(`Which health board is responsible for the hospital that ${u} is part of?`,
        'MATCH (:CareUnit {name: $x})-[:partOf]->(:Hospital)-[:GOVERNED_BY]->(b:HEALTH_BOARD) RETURN b.name AS name', u); }],
      ['maker of trial drug', (r) => aboutStudy(r, (n) => `Who makes the drug tested in the ${n}?`,
        `MATCH (:CLINICAL_STUDY {name: $x})-[a:evaluates]->(:Compound)-[:licensedTo]->(f:PharmaFirm) WHERE ${OBSERVED} RETURN f.name AS name`, makerTrust)],
      ['disease of trial medicine', (r) => aboutStudy(r, (n) => `What disease does the medicine studied in the ${n} treat?`,
        `MATCH (:CLINICAL_STUDY {name: $x})-[a:evaluates]->(:Compound)-[:indicatedFor]->(k:Condition) WHERE ${OBSERVED} RETURN k.name AS name`)],
      ['hospital of chief investigator', (r) => aboutStudy(r, (n) => `At which hospital does the chief investigator of the ${n} work?`,
        `MATCH (:CLINICAL_STUDY {name: $x})-[:CHIEF_INVESTIGATOR]->(:Clinician)-[a:HOLDS_POST_IN]->(:CareUnit)-[:partOf]->(h:Hospital) WHERE ${OBSERVED} RETURN h.name AS name`)],
      ['trials in board', (r) => { const b = board(r); return ask(`Which trials recruit at hospitals overseen by ${b}?`,
        'MATCH (:HEALTH_BOARD {name: $x})<-[:GOVERNED_BY]-(:Hospital)<-[:enrolsAt]-(s:CLINICAL_STUDY) RETURN s.name AS name', b); }],
      ['boards of trial', (r) => aboutStudy(r, (n) => `Which health boards does the ${n} recruit patients in?`,
        'MATCH (:CLINICAL_STUDY {name: $x})-[:enrolsAt]->(:Hospital)-[:GOVERNED_BY]->(b:HEALTH_BOARD) RETURN b.name AS name')],
      ['funders of trials testing', (r) => { const x = compound(r); return ask(`Who funds the trials that test ${x}?`,
        `MATCH (:Compound {name: $x})<-[a:evaluates]-(:CLINICAL_STUDY)-[:FUNDED_BY]->(f:PharmaFirm) WHERE ${OBSERVED} RETURN f.name AS name`, x); }],
      ['doctors at hospital', (r) => { const h = hospital(r); return ask(`Which doctors work at ${h}?`,
        `MATCH (:Hospital {name: $x})<-[:partOf]-(:CareUnit)<-[a:HOLDS_POST_IN]-(c:Clinician) WHERE ${OBSERVED} RETURN c.name AS name`, h); }],
      ['conditions of firm medicines', (r) => { const f = firm(r); return ask(`Which conditions are treated by medicines sold by ${f}?`,
        'MATCH (:PharmaFirm {name: $x})<-[:licensedTo]-(:Compound)-[:indicatedFor]->(k:Condition) RETURN k.name AS name', f); }],
      ['ward of lead researcher', (r) => aboutStudy(r, (n) => `the ward of the lead researcher of the ${n}`,
        `MATCH (:CLINICAL_STUDY {name: $x})-[:CHIEF_INVESTIGATOR]->(:Clinician)-[a:HOLDS_POST_IN]->(u:CareUnit) WHERE ${OBSERVED} RETURN u.name AS name`)],
      ['board of doctor hospital', (r) => aboutClinician(r, (n) => `Which health board oversees the hospital where ${n} works?`,
        `MATCH (:Clinician {name: $x})-[a:HOLDS_POST_IN]->(:CareUnit)-[:partOf]->(:Hospital)-[:GOVERNED_BY]->(b:HEALTH_BOARD) WHERE ${OBSERVED} RETURN b.name AS name`, boardTrust)],
    ],
    listing: [
      ['list wards of', (r) => { const h = hospital(r); return ask(`List the wards of ${h}.`, unitsOf, h); }],
      ['all doctors on', (r) => { const u = unit(r); return ask(`Who are all the doctors on ${u}?`, staffOf, u); }],
      ['all hospitals under', (r) => { const b = board(r); return ask(`All hospitals under ${b}`, hospitalsOf, b); }],
      ['enumerate sites', (r) => aboutStudy(r, (n) => `Enumerate the sites of the ${n}`, sitesOf)],
      ['every medicine sells', (r) => { const f = firm(r); return ask(`every medicine ${f} sells`, compoundsOf, f); }],
      ['show all studies funded', (r) => { const f = firm(r); return ask(`Show all studies funded by ${f}`, fundedBy, f); }],
      ['drugs used for list', (r) => { const k = condition(r); return ask(`Which drugs are used for ${k}? List them all.`, drugsFor, k); }],
      ['bare departments', (r) => { const h = hospital(r); return ask(`${h} departments`, unitsOf, h); }],
      ['complete roster', (r) => { const u = unit(r); return ask(`Give me the complete roster of ${u}`, staffOf, u); }],
      ['trials taking part all', (r) => { const h = hospital(r); return ask(`What trials is ${h} taking part in? All of them.`, studiesAt, h); }],
      ['every trial investigating', (r) => { const x = compound(r); return ask(`every trial investigating ${x}`, studiesOf, x); }],
      ['possessive hospitals', (r) => { const b = board(r); return ask(`${b}'s hospitals, please`, hospitalsOf, b); }],
    ],
  };
}

/**
 * `perShape` questions of each shape, cycling through that shape's phrasings, with gold answers
 * read from the graph in `db` (which must hold `w`, loaded by loadClinical).
 */
export function clinicalQuestions(db: Database, w: ClinicalWorld, perShape: number, seed = 1128): Question[] {
  return drawQuestions(db, templates(w), perShape, seed);
}
