/**
 * A second held-out world for graph_rag's evaluation (issue 32): hospitals, care units, clinicians,
 * clinical studies, medicines, the firms that hold their licences and the conditions they treat.
 * Written apart from the pipeline and never used to tune it, after products, shipping and rail had
 * all been tuned on. This module owns the world (entities, codes, facts) and loading it into a
 * Database; clinical-questions.ts asks about it and run-heldout2.ts scores the answers.
 *
 * The schema mixes styles the way a merged hospital data warehouse might:
 *
 *   (:Clinician)-[:HOLDS_POST_IN]->(:CareUnit)-[:partOf]->(:Hospital)-[:GOVERNED_BY]->(:HEALTH_BOARD)
 *   (:CLINICAL_STUDY)-[:evaluates]->(:Compound)-[:licensedTo]->(:PharmaFirm)
 *   (:CLINICAL_STUDY)-[:FUNDED_BY]->(:PharmaFirm)     (:CLINICAL_STUDY)-[:enrolsAt]->(:Hospital)
 *   (:CLINICAL_STUDY)-[:CHIEF_INVESTIGATOR]->(:Clinician)
 *   (:Compound)-[:indicatedFor]->(:Condition)
 *
 * Key-like values: ODS codes on hospitals, board codes, cost centres on units, GMC numbers (held
 * as integers) and registration dates on clinicians, NCT ids, EudraCT numbers, acronyms and
 * first-patient dates on studies, ATC codes, trade names and first-licence dates on compounds,
 * ICD-10 codes on conditions, LEIs on firms. Every tenth clinician also has a more confident
 * predicted post in another unit, and every twelfth study a more confident predicted compound:
 * the trust probes. Prose lives in `about`, the text the embeddings and full-text index read.
 */

import type { Database } from '../../../src/engine/database.js';
import { Rng, WorldDraws } from '../domain.js';

export interface HealthBoard { name: string; boardCode: string; residents: number }
export interface Hospital { name: string; ods_code: string; bedCount: number; opened: string; board: number }
export interface CareUnit { name: string; costCentre: string; specialty: string; beds: number; hospital: number }
export interface Clinician { name: string; gmcNumber: number; registered: string; grade: string; unit: number; predicted: number }
export interface PharmaFirm { name: string; lei: string; founded: number }
export interface Condition { name: string; icd10: string; organ: string }
export interface Compound { name: string; atc: string; tradeName: string; firstLicensed: string; firm: number; conditions: number[] }
export interface Study {
  name: string;
  nct_id: string;
  eudract: string;
  acronym: string;
  phase: string;
  targetEnrolment: number;
  firstPatientIn: string;
  compound: number;
  predicted: number;
  funder: number;
  chief: number;
  sites: number[];
}

export interface ClinicalWorld {
  boards: HealthBoard[];
  hospitals: Hospital[];
  units: CareUnit[];
  clinicians: Clinician[];
  firms: PharmaFirm[];
  conditions: Condition[];
  compounds: Compound[];
  studies: Study[];
}

const PLACE_HEAD = ['Aber', 'Bal', 'Caer', 'Dor', 'Eas', 'Fal', 'Gar', 'Hol', 'Inver', 'Kil', 'Lan', 'Mor', 'Nant', 'Ock', 'Pol', 'Quen', 'Ros', 'Sker', 'Tre', 'Ulla', 'Ven', 'Whit', 'Yar', 'Bryn', 'Craig', 'Dal', 'Ester', 'Glas', 'Har', 'Lis'];
const PLACE_TAIL = ['gavenny', 'more', 'narvon', 'chester', 'wood', 'mouth', 'loch', 'brook', 'ness', 'marnock', 'caster', 'rigg', 'garth', 'ington', 'perro', 'sborough', 'lyn', 'ridge', 'haven', 'dean', 'tor', 'stow', 'field', 'keld'];
const SAINTS = ['Aidan', 'Brigid', 'Columba', 'Cuthbert', 'Dunstan', 'Edmund', 'Frideswide', 'Gregory', 'Hilda', 'Illtyd', 'Kentigern', 'Leonard', 'Margaret', 'Ninian', 'Oswald', 'Petroc', 'Swithun', 'Teilo', 'Winifred', 'Wilfrid', 'Alban', 'Bede', 'Chad', 'David', 'Helen', 'Luke', 'Mungo', 'Piran'];
const REGIONS = ['Clwyd', 'Tayside', 'Grampian', 'Lanark', 'Powys', 'Gwent', 'Dyfed', 'Lomond', 'Forth Valley', 'Borders', 'Galloway', 'Highland', 'Orkney', 'Shetland', 'Ayrshire', 'Lothian', 'Tees', 'Wear', 'Furness', 'Kennet', 'Avon', 'Medway', 'Lune', 'Ribble', 'Trent', 'Ouse', 'Derwent', 'Eden', 'Tamar', 'Wensum', 'Stour', 'Nene', 'Cherwell', 'Tavy', 'Usk', 'Taff', 'Conwy', 'Teme', 'Dart', 'Exe'];
const WARD_WORDS = ['Kingfisher', 'Bluebell', 'Rowan', 'Linden', 'Heather', 'Primrose', 'Osprey', 'Juniper', 'Larch', 'Foxglove', 'Wren', 'Curlew', 'Hawthorn', 'Magnolia', 'Sycamore', 'Teasel', 'Sorrel', 'Bracken', 'Yarrow', 'Lapwing', 'Merlin', 'Plover', 'Alder', 'Willow', 'Cedar', 'Poppy', 'Thistle', 'Clover', 'Saffron', 'Marigold', 'Nightingale', 'Seacole', 'Lister', 'Jenner', 'Fleming', 'Cavell', 'Harvey', 'Sydenham', 'Addison', 'Bright', 'Garrod', 'Hunter', 'Paget', 'Osler', 'Simpson', 'Snow', 'Barnardo', 'Anning', 'Somerville', 'Florey'];
const SPECIALTIES = ['Cardiology', 'Renal', 'Respiratory', 'Stroke', 'Oncology', 'Haematology', 'Neonatal', 'Maternity', 'Orthopaedic', 'Gastroenterology', 'Dermatology', 'Rheumatology', 'Ophthalmology', 'Urology', 'Neurology', 'Endocrine', 'Hepatology', 'Vascular', 'Burns', 'Paediatric', 'Geriatric', 'Infectious Diseases', 'Palliative', 'Critical Care', 'Rehabilitation'];
const UNIT_KIND = ['Ward', 'Unit', 'Suite', 'Wing', 'Centre'];
const GIVEN = ['Amara', 'Bronwen', 'Callum', 'Deepa', 'Eilidh', 'Farhan', 'Gethin', 'Hana', 'Ifeoma', 'Jasper', 'Kirsty', 'Lachlan', 'Meera', 'Niamh', 'Obinna', 'Priya', 'Rhodri', 'Saoirse', 'Tomasz', 'Uzma', 'Vikram', 'Wiktoria', 'Yusuf', 'Zainab', 'Aled', 'Bethan', 'Ciaran', 'Dafydd', 'Esme', 'Fionn', 'Greer', 'Hamish', 'Imogen', 'Joaquim', 'Keziah', 'Lowri', 'Malachy', 'Nkechi', 'Orla', 'Parveen', 'Rafferty', 'Siobhan', 'Tariq', 'Una', 'Violetta', 'Wynn', 'Xanthe', 'Yannick', 'Zofia', 'Anwen', 'Bilal', 'Catrin', 'Declan', 'Efua', 'Ffion', 'Gwilym', 'Hollis', 'Isla', 'Jory', 'Kenji'];
const FAMILY = ['Adebayo', 'Blackwood', 'Chaudhry', 'Davenport', 'Ekwueme', 'Fairbairn', 'Gallacher', 'Haldane', 'Iqbal', 'Jarvie', 'Kowalczyk', 'Llewellyn', 'McAllister', 'Nwosu', 'Ogilvie', 'Pritchard', 'Quigley', 'Rahman', 'Sutherland', 'Tennant', 'Urquhart', 'Vaughan', 'Whitelaw', 'Yeoman', 'Zielinski', 'Abernethy', 'Bhattacharya', 'Cairncross', 'Dalziel', 'Esterhuizen', 'Fothergill', 'Gwynne', 'Hendry', 'Ishikawa', 'Kerrigan', 'Lamont', 'Mbeki', 'Naismith', 'Okonkwo', 'Penhaligon', 'Rosslyn', 'Sandilands', 'Trevelyan', 'Underwood', 'Villiers', 'Wishart', 'Achterberg', 'Brodie', 'Crichton', 'Dunbar', 'Elphinstone', 'Fyfe', 'Gunn', 'Hepburn', 'Innes', 'Kinnear', 'Leitch', 'Munro', 'Nairn', 'Oyelaran', 'Petrie', 'Rennie', 'Strachan', 'Thorburn', 'Waddell', 'Agarwal', 'Baptiste', 'Coutts', 'Drysdale', 'Ellison', 'Forsyth', 'Gillespie', 'Holloway', 'Imrie', 'Kaur', 'Lindqvist', 'Mowat', 'Nakamura', 'Oduya', 'Pagnell', 'Renwick', 'Sinclair', 'Tolland', 'Veitch', 'Wemyss', 'Yardley', 'Zaman', 'Arbuthnot', 'Buchan', 'Cowie'];
const GRADES = ['consultant physician', 'consultant surgeon', 'specialty registrar', 'specialty doctor', 'nurse consultant', 'clinical fellow', 'associate specialist'];
const DRUG_HEAD = ['vel', 'tra', 'dor', 'mira', 'cef', 'pex', 'zol', 'abro', 'ner', 'lumo', 'sita', 'quin', 'fen', 'obi', 'rava', 'tel', 'evo', 'cari', 'pimo', 'dexa', 'gana', 'hylo', 'ixa', 'jeno', 'kalo', 'lera', 'moxi', 'nivo', 'orta', 'suvo'];
const DRUG_MID = ['', 'o', 'ra', 'ti', 'me', 'lu', 'da', 'xe', 'vi', 'po'];
const DRUG_STEM = ['mab', 'tinib', 'pril', 'sartan', 'olol', 'vastatin', 'prazole', 'cillin', 'floxacin', 'glutide', 'parin', 'ciclib', 'lukast', 'gliptin', 'dronate', 'setron', 'triptan', 'zepam', 'caine', 'vudine'];
const BRAND_HEAD = ['Vel', 'Zyn', 'Ora', 'Quel', 'Tav', 'Rix', 'Nol', 'Bex', 'Cyr', 'Dax', 'Ely', 'Fos', 'Gyn', 'Hal', 'Iv', 'Jor', 'Kal', 'Lum', 'Myr', 'Nex', 'Ov', 'Pra', 'Syl', 'Tor', 'Ux', 'Vor', 'Wyl', 'Xel', 'Yor', 'Zel'];
const BRAND_MID = ['', 'a', 'o', 'i', 'en', 'ar'];
const BRAND_TAIL = ['trix', 'ora', 'ivex', 'adel', 'onyx', 'avia', 'umo', 'eris', 'ilda', 'aro', 'ynt', 'esta', 'ocor', 'apra', 'ixal'];
const ATC_GROUPS = ['A', 'B', 'C', 'D', 'G', 'H', 'J', 'L', 'M', 'N', 'P', 'R', 'S', 'V'];
const QUALIFIERS = ['Acute', 'Chronic', 'Juvenile', 'Refractory', 'Hereditary', 'Late-onset', 'Familial', 'Idiopathic', 'Recurrent', 'Progressive', 'Congenital', 'Autoimmune'];
const ORGANS: [string, string][] = [['Renal', 'kidney'], ['Hepatic', 'liver'], ['Pulmonary', 'lung'], ['Cardiac', 'heart'], ['Retinal', 'eye'], ['Cerebral', 'brain'], ['Pancreatic', 'pancreas'], ['Cutaneous', 'skin'], ['Articular', 'joints'], ['Gastric', 'stomach'], ['Colonic', 'bowel'], ['Vascular', 'blood vessels'], ['Thyroid', 'thyroid'], ['Spinal', 'spine'], ['Bronchial', 'airways']];
const PROCESSES = ['Fibrosis', 'Failure', 'Neuropathy', 'Dystrophy', 'Stenosis', 'Insufficiency', 'Sclerosis', 'Myopathy', 'Vasculitis', 'Hypertrophy', 'Ischaemia', 'Atrophy'];
const FIRM_HEAD = ['Aldous', 'Brightwater', 'Corvane', 'Deverell', 'Emberly', 'Foxhall', 'Greystone', 'Halden', 'Isherwood', 'Kelso', 'Lyndhurst', 'Marchbank', 'Northcote', 'Ormsby', 'Penrose', 'Radnor', 'Stanmore', 'Thackeray', 'Wexcombe', 'Ashgrove'];
const FIRM_TAIL = ['Therapeutics', 'Biosciences', 'Pharma', 'Laboratories', 'Life Sciences', 'Biologics', 'Medicines'];
const STUDY_WORD = ['Beacon', 'Lantern', 'Harbour', 'Compass', 'Meridian', 'Summit', 'Keystone', 'Horizon', 'Waymark', 'Lodestar', 'Bridgehead', 'Cairn', 'Solstice', 'Tideline', 'Watershed', 'Foothold', 'Landfall', 'Crossing', 'Signal', 'Anchor', 'Northlight', 'Ridgeway', 'Sentinel', 'Threshold', 'Vantage', 'Wellspring', 'Pathfinder', 'Milestone', 'Causeway', 'Outlook'];
const STUDY_TOPIC = ['Heart', 'Renal', 'Airway', 'Stroke', 'Sepsis', 'Diabetes', 'Memory', 'Bone', 'Skin', 'Sleep', 'Liver', 'Vision', 'Pain', 'Mood', 'Joint', 'Blood', 'Bowel', 'Thyroid', 'Lung', 'Nerve'];
const STUDY_KIND = ['Study', 'Trial', 'Outcomes Trial', 'Prevention Study', 'Pilot', 'Feasibility Study'];
const ACRONYM_WORD = ['ORION', 'KESTREL', 'PELICAN', 'TALISMAN', 'CORMORANT', 'AURORA', 'MISTRAL', 'ZEPHYR', 'CASCADE', 'EMBER', 'GLACIER', 'HALCYON', 'INDIGO', 'JUNCTURE', 'KINGSWAY', 'LAGOON', 'MOSAIC', 'NEBULA', 'OBSIDIAN', 'PRISM', 'QUARTZ', 'RAPTOR', 'SAPPHIRE', 'TUNDRA', 'UMBRA', 'VERTEX', 'WILLOW', 'XENIA', 'YARROW', 'ZENITH', 'ATLAS', 'BOREAS', 'CYGNUS', 'DRACO', 'ELARA', 'FORNAX', 'GEMINI', 'HYDRA', 'IONA', 'JUNO', 'KORE', 'LYRA', 'MENSA', 'NORMA', 'OBERON', 'PYXIS', 'RHEA', 'SIRIUS', 'THEBE', 'VELA'];
const PHASES = ['I', 'II', 'III', 'IV'];
const ALNUM = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';
const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ';

/** A made-up nonproprietary drug name; two vowels never meet at a seam ("nivo" + "o" reads as a typo). */
function inn(head: string, mid: string, stem: string): string {
  const vowel = (ch: string | undefined): boolean => ch !== undefined && 'aeiou'.includes(ch);
  const body = vowel(head.at(-1)) && vowel(mid[0]) ? head + mid.slice(1) : head + mid;
  return vowel(body.at(-1)) && vowel(stem[0]) ? body + stem.slice(1) : body + stem;
}

/** Entity counts for a world of about `n` entities, with floors so a small run still has every kind. */
export function clinicalCounts(n: number): Record<keyof ClinicalWorld, number> {
  const boards = Math.min(REGIONS.length * 3, Math.max(6, Math.round(n * 0.003)));
  const hospitals = Math.max(15, Math.round(n * 0.025));
  const units = Math.max(40, Math.round(n * 0.12));
  const firms = Math.min(FIRM_HEAD.length * FIRM_TAIL.length, Math.max(8, Math.round(n * 0.006)));
  const conditions = Math.max(20, Math.round(n * 0.02));
  const compounds = Math.max(40, Math.round(n * 0.08));
  const studies = Math.max(50, Math.round(n * 0.15));
  const clinicians = Math.max(100, n - boards - hospitals - units - firms - conditions - compounds - studies);
  return { boards, hospitals, units, clinicians, firms, conditions, compounds, studies };
}

/** The world for about `n` entities; the same `n` and `seed` give the same world. */
export function generateClinical(n: number, seed = 20261128): ClinicalWorld {
  const r = new Rng(seed);
  const c = clinicalCounts(n);
  // Names (and trade names, which read like names) are unique across the graph so each gold
  // answer is one entity; codes and dates are unique across the graph so a value names one.
  const { uname, ucode, chars, date, distinct } = new WorldDraws(r);
  const place = (): string => r.pick(PLACE_HEAD) + r.pick(PLACE_TAIL);

  const boards = Array.from({ length: c.boards }, (): HealthBoard => ({
    name: uname(() => {
      const region = r.pick(REGIONS);
      switch (r.int(3)) {
        case 0: return `${region} Health Board`;
        case 1: return `NHS ${region}`;
        default: return `${region} Integrated Care Board`;
      }
    }),
    boardCode: ucode(() => `HB${r.digits(2)}${chars(1, UPPER)}`),
    residents: 60000 + r.int(1500000),
  }));
  const hospitals = Array.from({ length: c.hospitals }, (): Hospital => ({
    name: uname(() => {
      switch (r.int(6)) {
        case 0: return `St ${r.pick(SAINTS)}'s Hospital, ${place()}`;
        case 1: return `${place()} General Infirmary`;
        case 2: return `Royal ${place()} Hospital`;
        case 3: return `${place()} Community Hospital`;
        case 4: return `${place()} and ${place()} Cottage Hospital`;
        default: return `${r.pick(GIVEN)} ${r.pick(FAMILY)} Memorial Hospital`;
      }
    }),
    ods_code: ucode(() => `R${chars(2, ALNUM)}${r.digits(2)}`),
    bedCount: 20 + r.int(1200),
    opened: ucode(() => date(1840, 170)),
    board: r.int(c.boards),
  }));
  const units = Array.from({ length: c.units }, (): CareUnit => {
    const specialty = r.pick(SPECIALTIES);
    return {
      name: uname(() => (r.next() < 0.5 ? `${r.pick(WARD_WORDS)} ${r.pick(UNIT_KIND)}` : `${r.pick(WARD_WORDS)} ${specialty} ${r.pick(UNIT_KIND)}`)),
      costCentre: ucode(() => `${r.digits(5)}/${chars(1, UPPER)}`),
      specialty,
      beds: 4 + r.int(36),
      hospital: r.int(c.hospitals),
    };
  });
  const clinicians = Array.from({ length: c.clinicians }, (_, i): Clinician => {
    const unit = r.int(c.units);
    return {
      name: uname(() => `${r.pick(GIVEN)} ${r.next() < 0.3 ? `${chars(1, UPPER)}. ` : ''}${r.pick(FAMILY)}`),
      gmcNumber: ucode(() => 1000000 + r.int(9000000)),
      registered: ucode(() => date(1975, 50)),
      grade: r.pick(GRADES),
      unit,
      predicted: i % 10 === 0 ? (unit + 1 + r.int(c.units - 1)) % c.units : -1,
    };
  });
  const firms = Array.from({ length: c.firms }, (): PharmaFirm => ({
    name: uname(() => `${r.pick(FIRM_HEAD)} ${r.pick(FIRM_TAIL)}`),
    lei: ucode(() => `${r.digits(4)}00${chars(12, ALNUM)}${r.digits(2)}`),
    founded: 1850 + r.int(170),
  }));
  const conditions = Array.from({ length: c.conditions }, (): Condition => {
    const [adjective, organ] = r.pick(ORGANS);
    return {
      name: uname(() => `${r.pick(QUALIFIERS)} ${adjective} ${r.pick(PROCESSES)}`),
      icd10: ucode(() => `${chars(1, UPPER)}${r.digits(2)}.${r.digits(1)}`),
      organ,
    };
  });
  const compounds = Array.from({ length: c.compounds }, (): Compound => ({
    name: uname(() => inn(r.pick(DRUG_HEAD), r.pick(DRUG_MID), r.pick(DRUG_STEM))),
    atc: ucode(() => `${r.pick(ATC_GROUPS)}${r.digits(2)}${chars(2, UPPER)}${r.digits(2)}`),
    tradeName: uname(() => r.pick(BRAND_HEAD) + r.pick(BRAND_MID) + r.pick(BRAND_TAIL)),
    firstLicensed: ucode(() => date(1960, 64)),
    firm: r.int(c.firms),
    conditions: distinct(1 + r.int(2), c.conditions),
  }));
  const studies = Array.from({ length: c.studies }, (_, i): Study => {
    const compound = r.int(c.compounds);
    const year = 2000 + r.int(25);
    return {
      name: uname(() => `${r.pick(STUDY_WORD)} ${r.pick(STUDY_TOPIC)} ${r.pick(STUDY_KIND)}`),
      nct_id: ucode(() => `NCT0${r.digits(7)}`),
      eudract: ucode(() => `${year}-${r.digits(6)}-${r.digits(2)}`),
      acronym: ucode(() => `${r.pick(ACRONYM_WORD)}-${1 + r.int(9)}${r.pick(['', 'A', 'B', 'C', 'X'])}`),
      phase: r.pick(PHASES),
      targetEnrolment: 20 + r.int(4000),
      firstPatientIn: ucode(() => date(year, 1)),
      compound,
      predicted: i % 12 === 0 ? (compound + 1 + r.int(c.compounds - 1)) % c.compounds : -1,
      funder: r.int(c.firms),
      chief: r.int(c.clinicians),
      sites: distinct(2 + r.int(5), c.hospitals),
    };
  });
  return { boards, hospitals, units, clinicians, firms, conditions, compounds, studies };
}

/** Every label in the world, for indexes and embeddings. */
export const CLINICAL_LABELS = ['HEALTH_BOARD', 'Hospital', 'CareUnit', 'Clinician', 'PharmaFirm', 'Condition', 'Compound', 'CLINICAL_STUDY'] as const;

export interface LoadOptions {
  /** Embed each node's `about` and build vector indexes (default true; the generator's test skips it). */
  vectors?: boolean;
}

/** Loads the world: nodes with prose, facts, name and some value indexes, embeddings, a full-text index. */
export function loadClinical(db: Database, w: ClinicalWorld, options: LoadOptions = {}): void {
  const run = (cypher: string, rows: readonly object[]): void => {
    for (let i = 0; i < rows.length; i += 2000) db.executeSync(cypher, { rows: rows.slice(i, i + 2000) });
  };
  for (const label of CLINICAL_LABELS) db.executeSync(`CREATE INDEX FOR (n:${label}) ON (n.name)`);
  // Some key-like properties are indexed and the rest are not, so both grounding paths are asked.
  for (const [label, key] of [['Hospital', 'ods_code'], ['Clinician', 'gmcNumber'], ['CLINICAL_STUDY', 'nct_id'], ['Compound', 'atc']]) {
    db.executeSync(`CREATE INDEX FOR (n:${label}) ON (n.${key})`);
  }
  run(
    `UNWIND $rows AS r CREATE (:HEALTH_BOARD {name: r.name, boardCode: r.boardCode, residents: r.residents,
       about: r.name + ' plans and pays for health services for about ' + toString(r.residents) + ' residents'})`,
    w.boards,
  );
  run(
    `UNWIND $rows AS r MATCH (b:HEALTH_BOARD {name: r.board})
     CREATE (:Hospital {name: r.name, ods_code: r.ods_code, bedCount: r.bedCount, opened: date(r.opened),
       about: r.name + ' is an acute hospital with ' + toString(r.bedCount) + ' beds'})-[:GOVERNED_BY]->(b)`,
    w.hospitals.map((h) => ({ ...h, board: w.boards[h.board].name })),
  );
  run(
    `UNWIND $rows AS r MATCH (h:Hospital {name: r.hospital})
     CREATE (:CareUnit {name: r.name, costCentre: r.costCentre, specialty: r.specialty, beds: r.beds,
       about: r.name + ' is a ' + toLower(r.specialty) + ' inpatient area with ' + toString(r.beds) + ' beds'})-[:partOf]->(h)`,
    w.units.map((u) => ({ ...u, hospital: w.hospitals[u.hospital].name })),
  );
  run(
    `UNWIND $rows AS r MATCH (u:CareUnit {name: r.unit})
     CREATE (:Clinician {name: r.name, gmcNumber: r.gmcNumber, registered: date(r.registered), grade: r.grade,
       about: r.name + ' is a ' + r.grade})-[:HOLDS_POST_IN {observation_class: 'observed', confidence: 0.7, source: 'ESR'}]->(u)`,
    w.clinicians.map((x) => ({ ...x, unit: w.units[x.unit].name })),
  );
  run(
    `UNWIND $rows AS r MATCH (c:Clinician {name: r.name}), (u:CareUnit {name: r.unit})
     CREATE (c)-[:HOLDS_POST_IN {observation_class: 'predicted', confidence: 0.94, source: 'rota-model'}]->(u)`,
    w.clinicians.filter((x) => x.predicted >= 0).map((x) => ({ name: x.name, unit: w.units[x.predicted].name })),
  );
  run(
    `UNWIND $rows AS r CREATE (:PharmaFirm {name: r.name, lei: r.lei, founded: r.founded,
       about: r.name + ' develops and sells prescription medicines'})`,
    w.firms,
  );
  run(
    `UNWIND $rows AS r CREATE (:Condition {name: r.name, icd10: r.icd10,
       about: r.name + ' is a disorder of the ' + r.organ})`,
    w.conditions,
  );
  // The trade name stays out of the prose, so a question quoting it must find the property.
  run(
    `UNWIND $rows AS r MATCH (f:PharmaFirm {name: r.firm})
     CREATE (:Compound {name: r.name, atc: r.atc, tradeName: r.tradeName, firstLicensed: date(r.firstLicensed),
       about: r.name + ' is a prescription medicine first licensed in ' + substring(r.firstLicensed, 0, 4)})-[:licensedTo]->(f)`,
    w.compounds.map((x) => ({ ...x, firm: w.firms[x.firm].name })),
  );
  run(
    `UNWIND $rows AS r MATCH (x:Compound {name: r.compound}), (c:Condition {name: r.condition}) CREATE (x)-[:indicatedFor]->(c)`,
    w.compounds.flatMap((x) => x.conditions.map((k) => ({ compound: x.name, condition: w.conditions[k].name }))),
  );
  run(
    `UNWIND $rows AS r MATCH (x:Compound {name: r.compound}), (f:PharmaFirm {name: r.funder}), (c:Clinician {name: r.chief})
     CREATE (s:CLINICAL_STUDY {name: r.name, nct_id: r.nct_id, eudract: r.eudract, acronym: r.acronym, phase: r.phase,
       targetEnrolment: r.targetEnrolment, firstPatientIn: date(r.firstPatientIn),
       about: r.name + ' is a phase ' + r.phase + ' randomised study aiming to recruit ' + toString(r.targetEnrolment) + ' participants'}),
       (s)-[:evaluates {observation_class: 'observed', confidence: 0.7, source: 'registry'}]->(x),
       (s)-[:FUNDED_BY]->(f), (s)-[:CHIEF_INVESTIGATOR]->(c)`,
    w.studies.map((s) => ({ ...s, compound: w.compounds[s.compound].name, funder: w.firms[s.funder].name, chief: w.clinicians[s.chief].name })),
  );
  run(
    `UNWIND $rows AS r MATCH (s:CLINICAL_STUDY {name: r.study}), (x:Compound {name: r.compound})
     CREATE (s)-[:evaluates {observation_class: 'predicted', confidence: 0.95, source: 'abstract-miner'}]->(x)`,
    w.studies.filter((s) => s.predicted >= 0).map((s) => ({ study: s.name, compound: w.compounds[s.predicted].name })),
  );
  run(
    `UNWIND $rows AS r MATCH (s:CLINICAL_STUDY {name: r.study}), (h:Hospital {name: r.hospital}) CREATE (s)-[:enrolsAt {siteNumber: r.site}]->(h)`,
    w.studies.flatMap((s) => s.sites.map((h, i) => ({ study: s.name, hospital: w.hospitals[h].name, site: i + 1 }))),
  );
  if (options.vectors !== false) {
    for (const label of CLINICAL_LABELS) {
      const index = `${label.toLowerCase()}_vec`;
      db.executeSync(`CALL graphdb.embed.nodes({label: '${label}', textProperty: 'about', vectorProperty: 'embedding', batchSize: 256}) YIELD nodes RETURN nodes`);
      db.executeSync(`CREATE VECTOR INDEX ${index} FOR (n:${label}) ON (n.embedding) OPTIONS {indexConfig: {\`vector.dimensions\`: 384}}`);
      db.executeSync(`CALL db.awaitIndex('${index}')`);
    }
  }
  db.executeSync(`CREATE FULLTEXT INDEX clinical_text FOR (n:${CLINICAL_LABELS.join('|')}) ON EACH [n.name, n.about]`);
  // Populated in the background otherwise: questions asked at once would fall back to the text scan.
  db.executeSync("CALL db.awaitIndex('clinical_text')");
}
