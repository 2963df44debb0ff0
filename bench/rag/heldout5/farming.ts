/**
 * A fifth held-out world for graph_rag's evaluation (issue 32): arable farming. Farms, the growers
 * who farm them, the cooperatives growers are affiliated with, the districts farms, cooperatives
 * and mills lie in, the plots (fields) of each farm, the crop varieties sown on plots, the crops
 * those varieties belong to, the seed companies that bred them, the harvest lots taken off plots,
 * the mills lots are delivered to, and the certification bodies that inspect farms. Written apart
 * from the pipeline (before reading src/rag/ on this branch), after products, shipping, rail,
 * clinical, film and software had all been used to tune it. This module owns the world (entities,
 * codes, facts) and loading it into a Database; farming-questions.ts asks about it and
 * run-heldout5.ts scores the answers.
 *
 * The schema mixes naming styles the way a merged farm-records system might:
 *
 *   (:Farm)-[:FARMED_BY]->(:Grower)-[:affiliatedWith]->(:CoOp)-[:registered_in]->(:District)
 *   (:Farm)-[:inDistrict]->(:District)           (:Farm)-[:inspectedBy]->(:CertificationBody)
 *   (:Plot)-[:belongsTo]->(:Farm)                (:Plot)-[:PLANTED_WITH]->(:Variety)
 *   (:Variety)-[:CULTIVAR_OF]->(:CROP)           (:Variety)-[:bredBy]->(:seed_company)
 *   (:HarvestLot)-[:HARVESTED_FROM]->(:Plot)     (:HarvestLot)-[:deliveredTo]->(:Mill)-[:located_in]->(:District)
 *
 * Harvest lots are named by a code ("Lot 2019-0412"), so some names are key-like themselves; plots
 * are named by their farm and field ("Ashcombe Estate Church Close"). Key-like values: holding
 * numbers (with slashes) and establishment dates on farms; producer numbers on growers; VAT numbers
 * on cooperatives; district codes; parcel references (with a space) on plots; registration codes
 * and registration dates on varieties; EPPO-style codes on crops; seed licence numbers on seed
 * companies; lot codes and harvest dates on lots; site codes on mills; accreditation numbers on
 * certification bodies. Some are indexed, some not. Every tenth grower also has a more confident
 * predicted cooperative, and every twelfth lot a more confident predicted mill: the trust probes.
 * Prose lives in properties named differently per label (`description`, `bio`, `about`,
 * `overview`, `notes`, `traits`, `summary`, `profile`, `remit`, `remarks`).
 */

import type { Database } from '../../../src/engine/database.js';
import { Rng, WorldDraws } from '../domain.js';

export interface District { name: string; code: string }
export interface Crop { name: string; eppo: string }
export interface SeedCompany { name: string; licenceNo: string }
export interface Certifier { name: string; accreditation: string }
export interface Mill { name: string; siteCode: string; district: number }
export interface CoOp { name: string; vat: string; district: number }
export interface Grower { name: string; producerNo: string; coop: number; predicted: number }
export interface Farm { name: string; holding: string; established: string; areaHa: number; grower: number; district: number; certifier: number }
export interface Plot { name: string; parcelRef: string; farm: number; variety: number }
export interface Variety { name: string; regCode: string; registered: string; crop: number; breeder: number }
export interface Lot { name: string; lotCode: string; harvested: string; tonnes: number; plot: number; mill: number; predicted: number }

export interface FarmingWorld {
  districts: District[];
  crops: Crop[];
  seedCompanies: SeedCompany[];
  certifiers: Certifier[];
  mills: Mill[];
  coops: CoOp[];
  growers: Grower[];
  farms: Farm[];
  plots: Plot[];
  varieties: Variety[];
  lots: Lot[];
}

const DISTRICT = ['Alderwick', 'Brackenmoor', 'Caldervale', 'Dunmore Fen', 'Eastholm', 'Fernleigh', 'Glenarrow', 'Hawkridge', 'Ivybridge Levels', 'Jessop Downs', 'Kilmarden', 'Longhope', 'Marshfield', 'Netherby', 'Oxley Wold', 'Pendlebury', 'Quarrington', 'Ravensmere', 'Stowford', 'Thistledown', 'Upper Wyre', 'Vennford', 'Westcombe', 'Yarrowdale', 'Ashby Carr', 'Bellingham Vale', 'Coldharbour', 'Drayton Flats', 'Elmstead', 'Foxley Heath', 'Greystoke', 'Hartwell', 'Inglebrook', 'Kingsmead', 'Lowfield', 'Millbeck', 'Northwold', 'Oakenshaw', 'Pitsford', 'Redlynch'];
const CROPS: readonly string[] = ['Wheat', 'Barley', 'Oats', 'Rye', 'Maize', 'Oilseed Rape', 'Field Beans', 'Peas', 'Potatoes', 'Sugar Beet', 'Linseed', 'Sunflower', 'Soybean', 'Triticale', 'Spelt', 'Sorghum', 'Lentils', 'Chickpeas', 'Buckwheat', 'Millet', 'Quinoa', 'Hemp', 'Lupins', 'Mustard'];
const SEED_CO = ['Northfield Seeds', 'Agrovance Breeding', 'Greenfurrow Genetics', 'Hallam Plant Breeders', 'Kernel & Stalk Ltd', 'Meadowgold Seed Co', 'Prairiecrest Seeds', 'Rootstock Breeding', 'Sowell Agronomy', 'Tillworth Seeds', 'Vantage Grain Genetics', 'Wheatley Breeders', 'Barnstable Seed House', 'Copperfield Genetics', 'Dunlin Seeds', 'Elmore Plant Science', 'Furlong Seeds', 'Gatefield Breeding'];
const CERTIFIERS = ['Soil Trust Certification', 'Green Leaf Organic Standards', 'Red Tractor Assurance Board', 'Field Stewardship Council', 'Organic Growers Inspectorate', 'Living Land Certification', 'Clearwater Farm Assurance', 'Harvest Integrity Audits', 'Sustainable Acre Scheme', 'Biodynamic Standards Office', 'Heritage Grain Assurance', 'Rural Quality Inspectorate'];
const MILL_KIND = ['Flour Mill', 'Maltings', 'Grain Store', 'Oilseed Crushers', 'Feed Mill', 'Granary'];
const COOP_KIND = ["Growers' Cooperative", 'Grain Co-operative', 'Producers Union', 'Farmers Cooperative', 'Marketing Co-op'];
const FARM_HEAD = ['Ash', 'Holly', 'Red', 'Black', 'Thorn', 'Oak', 'Elm', 'Birch', 'Rook', 'Hazel', 'Wil', 'Brook', 'Stone', 'Mill', 'Fox', 'Hare', 'Lark', 'Swallow', 'Heather', 'Bramble', 'Cold', 'Long', 'High', 'Nether', 'Broad', 'Wheat', 'Barn', 'Gold', 'Sand', 'Clay', 'Moss', 'Fern'];
const FARM_TAIL = ['combe', 'brook', 'moor', 'field', 'ley', 'wood', 'hurst', 'ridge', 'stead', 'well', 'ford', 'holme', 'acre', 'thorpe', 'cote', 'den'];
const FARM_KIND = ['Farm', 'Estate', 'Holding', 'Croft', 'Grange', 'Manor Farm', 'Hall Farm', 'Farms'];
const FIELD = ['Church Close', 'Long Meadow', 'Top Field', 'Bottom Piece', 'Forty Acres', 'Windmill Hill', 'Pond Field', 'Barn Close', 'Ten Acre', 'Hollow Ground', 'Lower Leys', 'Great Field', 'Brick Kiln Field', 'Oak Piece', 'Spring Field', 'Home Paddock', 'Far Furlong', 'Gravel Pit Field', 'Lane Field', 'Warren'];
const VAR_A = ['Amber', 'Gallant', 'Sceptre', 'Maris', 'Crusoe', 'Kerrin', 'Belgrade', 'Saffron', 'Tundra', 'Vista', 'Orwell', 'Cassius', 'Dunston', 'Fenland', 'Gleam', 'Harlow', 'Icon', 'Jubal', 'Kestrel', 'Lumen', 'Mondial', 'Nimbus', 'Odyssey', 'Paragon', 'Quest', 'Rowan', 'Solstice', 'Talisman', 'Umber', 'Valour'];
const VAR_B = ['Crest', 'Gold', 'Prime', 'Piper', 'Star', 'Rider', 'Max', 'Dawn', 'Royal', 'Plus', 'Supreme', 'Harvest', 'Vale', 'Ridge', 'Glory', 'Queen', 'Hunter', 'Spirit', 'Arrow', 'Shield', 'Beacon', 'Meadow', 'Summit', 'Tide', 'Banner', 'Flare', 'Haven', 'Mark', 'Pride', 'Sentinel'];
const GIVEN = ['Agnes', 'Bram', 'Cerys', 'Declan', 'Elowen', 'Fergus', 'Gwyneth', 'Hector', 'Isla', 'Jory', 'Kit', 'Lowri', 'Morgan', 'Niamh', 'Osian', 'Petra', 'Rhodri', 'Sian', 'Tam', 'Una', 'Vaughan', 'Wynn', 'Ailsa', 'Bryn', 'Carys', 'Dai', 'Effie', 'Finlay', 'Greer', 'Hamish', 'Ianto', 'Jessamy', 'Kenver', 'Lachlan', 'Mairi', 'Nesta', 'Orla', 'Percy', 'Rosalind', 'Seren', 'Tobias', 'Wilfred', 'Yestin', 'Annis', 'Bertram', 'Clemency', 'Digby', 'Edwina', 'Gideon', 'Hester'];
const FAMILY = ['Ackroyd', 'Beddoes', 'Crabtree', 'Dimmock', 'Eustace', 'Fairbairn', 'Goodall', 'Haworth', 'Illingworth', 'Jowett', 'Kershaw', 'Lumb', 'Midgley', 'Nuttall', 'Ogden', 'Pickles', 'Royle', 'Sutcliffe', 'Thwaite', 'Uttley', 'Varley', 'Whiteley', 'Yeadon', 'Armitage', 'Blamires', 'Cockcroft', 'Dearden', 'Emmott', 'Feather', 'Greenwood', 'Hirst', 'Ingham', 'Jagger', 'Kitson', 'Laycock', 'Mitchell', 'Naylor', 'Oldroyd', 'Pollard', 'Rhodes', 'Shackleton', 'Tattersall', 'Walshaw', 'Binns', 'Clegg', 'Dewhirst', 'Firth', 'Gaukroger', 'Holdsworth', 'Lister', 'Marsden', 'Normanton', 'Priestley', 'Riley', 'Stansfield', 'Tillotson', 'Wadsworth', 'Ashworth', 'Brearley', 'Crossley'];
const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const ALNUM = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** Entity counts for a world of about `n` entities, with floors so a small run still has every kind. */
export function farmingCounts(n: number): Record<keyof FarmingWorld, number> {
  const districts = Math.min(DISTRICT.length, Math.max(8, Math.round(n * 0.004)));
  const crops = CROPS.length;
  const seedCompanies = Math.min(SEED_CO.length, Math.max(6, Math.round(n * 0.0015)));
  const certifiers = Math.min(CERTIFIERS.length, Math.max(5, Math.round(n * 0.001)));
  const mills = Math.max(8, Math.round(n * 0.003));
  const coops = Math.max(10, Math.round(n * 0.01));
  const farms = Math.max(60, Math.round(n * 0.18));
  const plots = Math.max(100, Math.round(n * 0.35));
  const varieties = Math.max(40, Math.round(n * 0.04));
  const lots = Math.max(80, Math.round(n * 0.25));
  const growers = Math.max(50, n - districts - crops - seedCompanies - certifiers - mills - coops - farms - plots - varieties - lots);
  return { districts, crops, seedCompanies, certifiers, mills, coops, growers, farms, plots, varieties, lots };
}

/** The world for about `n` entities; the same `n` and `seed` give the same world. */
export function generateFarming(n: number, seed = 20261201): FarmingWorld {
  const r = new Rng(seed);
  const c = farmingCounts(n);
  // Names are unique across the graph so each gold answer is one entity; codes, numbers and
  // dates are unique across the graph so a value names one entity.
  const { uname, ucode, chars, date } = new WorldDraws(r);

  const districts = Array.from({ length: c.districts }, (_, i): District => ({
    name: uname(() => DISTRICT[i]),
    code: ucode(() => `${chars(2, UPPER)}-${r.digits(2)}`),
  }));
  const crops = CROPS.map((name): Crop => ({ name: uname(() => name), eppo: ucode(() => chars(5, UPPER)) }));
  const seedCompanies = Array.from({ length: c.seedCompanies }, (_, i): SeedCompany => ({
    name: uname(() => SEED_CO[i]),
    licenceNo: ucode(() => `SL/${r.digits(4)}/${chars(1, UPPER)}`),
  }));
  const certifiers = Array.from({ length: c.certifiers }, (_, i): Certifier => ({
    name: uname(() => CERTIFIERS[i]),
    accreditation: ucode(() => `ACC-${r.digits(4)}`),
  }));
  const place = (): string => r.pick(DISTRICT).split(' ')[0];
  const mills = Array.from({ length: c.mills }, (): Mill => ({
    name: uname(() => `${place()} ${r.pick(MILL_KIND)}`),
    siteCode: ucode(() => `M${r.digits(5)}`),
    district: r.int(c.districts),
  }));
  const coops = Array.from({ length: c.coops }, (): CoOp => ({
    name: uname(() => `${r.pick(FARM_HEAD)}${r.pick(FARM_TAIL)} ${r.pick(COOP_KIND)}`),
    vat: ucode(() => `EU${r.digits(9)}`),
    district: r.int(c.districts),
  }));
  const growers = Array.from({ length: c.growers }, (_, i): Grower => {
    const coop = r.int(c.coops);
    return {
      name: uname(() => `${r.pick(GIVEN)} ${r.next() < 0.2 ? `${chars(1, UPPER)}. ` : ''}${r.pick(FAMILY)}`),
      producerNo: ucode(() => `${r.digits(3)}-${r.digits(3)}-${chars(2, UPPER)}`),
      coop,
      predicted: i % 10 === 0 ? (coop + 1 + r.int(c.coops - 1)) % c.coops : -1,
    };
  });
  const varieties = Array.from({ length: c.varieties }, (): Variety => ({
    name: uname(() => `${r.pick(VAR_A)} ${r.pick(VAR_B)}`),
    regCode: ucode(() => `CV-${1990 + r.int(34)}-${r.digits(4)}`),
    registered: ucode(() => date(1990, 34)),
    crop: r.int(c.crops),
    breeder: r.int(c.seedCompanies),
  }));
  const farms = Array.from({ length: c.farms }, (_, i): Farm => ({
    name: uname(() => `${r.pick(FARM_HEAD)}${r.pick(FARM_TAIL)} ${r.pick(FARM_KIND)}`),
    holding: ucode(() => `${r.digits(2)}/${r.digits(3)}/${r.digits(4)}`),
    established: ucode(() => date(1850, 170)),
    areaHa: 20 + r.int(900),
    // Every grower farms at least one farm when there are enough farms.
    grower: i < c.growers ? i : r.int(c.growers),
    district: r.int(c.districts),
    certifier: r.int(c.certifiers),
  }));
  const plots = Array.from({ length: c.plots }, (_, i): Plot => {
    const farm = i < c.farms ? i : r.int(c.farms);
    return {
      name: uname(() => `${farms[farm].name} ${r.pick(FIELD)}`),
      parcelRef: ucode(() => `${chars(2, UPPER)}${r.digits(4)} ${r.digits(4)}`),
      farm,
      variety: r.int(c.varieties),
    };
  });
  const lots = Array.from({ length: c.lots }, (_, i): Lot => {
    const mill = r.int(c.mills);
    return {
      name: uname(() => `Lot ${2012 + r.int(12)}-${r.digits(4)}`),
      lotCode: ucode(() => `${chars(4, ALNUM)}-${chars(4, ALNUM)}`),
      harvested: ucode(() => date(2012, 12)),
      tonnes: 5 + r.int(300),
      plot: i < c.plots ? i : r.int(c.plots),
      mill,
      predicted: i % 12 === 0 ? (mill + 1 + r.int(c.mills - 1)) % c.mills : -1,
    };
  });
  return { districts, crops, seedCompanies, certifiers, mills, coops, growers, farms, plots, varieties, lots };
}

/** Every label in the world with the property its prose lives in, for indexes and embeddings. */
export const FARMING_LABELS: readonly (readonly [string, string])[] = [
  ['District', 'overview'], ['CROP', 'summary'], ['seed_company', 'profile'], ['CertificationBody', 'remit'],
  ['Mill', 'about'], ['CoOp', 'about'], ['Grower', 'bio'], ['Farm', 'description'], ['Plot', 'notes'],
  ['Variety', 'traits'], ['HarvestLot', 'remarks'],
];

export interface LoadOptions {
  /** Embed each node's prose and build vector indexes (default true; the generator's test skips it). */
  vectors?: boolean;
}

/** Loads the world: nodes with prose, facts, name and some value indexes, embeddings, a full-text index. */
export function loadFarming(db: Database, w: FarmingWorld, options: LoadOptions = {}): void {
  const run = (cypher: string, rows: readonly object[]): void => {
    for (let i = 0; i < rows.length; i += 2000) db.executeSync(cypher, { rows: rows.slice(i, i + 2000) });
  };
  for (const [label] of FARMING_LABELS) db.executeSync(`CREATE INDEX FOR (n:${label}) ON (n.name)`);
  // Some key-like properties are indexed and the rest are not, so both grounding paths are asked.
  for (const [label, key] of [['Farm', 'holding_number'], ['Variety', 'regCode'], ['HarvestLot', 'lotCode'], ['CROP', 'eppo']]) {
    db.executeSync(`CREATE INDEX FOR (n:${label}) ON (n.${key})`);
  }
  const district = (i: number): string => w.districts[i].name;
  run(`UNWIND $rows AS r CREATE (:District {name: r.name, code: r.code, overview: r.name + ' is a farming district of mixed arable land'})`, w.districts);
  run(`UNWIND $rows AS r CREATE (:CROP {name: r.name, eppo: r.eppo, summary: r.name + ' is an arable crop grown for grain, oil or roots'})`, w.crops);
  run(`UNWIND $rows AS r CREATE (:seed_company {name: r.name, seed_licence: r.licenceNo, profile: r.name + ' breeds and sells certified seed'})`, w.seedCompanies);
  run(`UNWIND $rows AS r CREATE (:CertificationBody {name: r.name, accreditation_no: r.accreditation, remit: r.name + ' audits farms against its standard every year'})`, w.certifiers);
  run(
    `UNWIND $rows AS r MATCH (d:District {name: r.district})
     CREATE (:Mill {name: r.name, siteCode: r.siteCode, about: r.name + ' takes grain and seed from local farms'})-[:located_in]->(d)`,
    w.mills.map((m) => ({ ...m, district: district(m.district) })),
  );
  run(
    `UNWIND $rows AS r MATCH (d:District {name: r.district})
     CREATE (:CoOp {name: r.name, vat_number: r.vat, about: r.name + ' pools storage and marketing for its members'})-[:registered_in]->(d)`,
    w.coops.map((x) => ({ ...x, district: district(x.district) })),
  );
  run(
    `UNWIND $rows AS r MATCH (c:CoOp {name: r.coop})
     CREATE (:Grower {name: r.name, producer_no: r.producerNo, bio: r.name + ' has farmed in the area for many years'})
       -[:affiliatedWith {observation_class: 'observed', confidence: 0.7, source: 'coop-register'}]->(c)`,
    w.growers.map((g) => ({ ...g, coop: w.coops[g.coop].name })),
  );
  run(
    `UNWIND $rows AS r MATCH (g:Grower {name: r.name}), (c:CoOp {name: r.coop})
     CREATE (g)-[:affiliatedWith {observation_class: 'predicted', confidence: 0.9, source: 'delivery-pattern-model'}]->(c)`,
    w.growers.filter((g) => g.predicted >= 0).map((g) => ({ name: g.name, coop: w.coops[g.predicted].name })),
  );
  run(`UNWIND $rows AS r MATCH (s:seed_company {name: r.breeder}), (c:CROP {name: r.crop})
     CREATE (v:Variety {name: r.name, regCode: r.regCode, registered: date(r.registered),
       traits: r.name + ' is a ' + toLower(r.crop) + ' variety with good standing power and yield'}),
       (v)-[:CULTIVAR_OF]->(c), (v)-[:bredBy]->(s)`,
  w.varieties.map((v) => ({ ...v, crop: w.crops[v.crop].name, breeder: w.seedCompanies[v.breeder].name })));
  // The holding number and dates stay out of the description, so a question quoting them must find the property.
  run(
    `UNWIND $rows AS r MATCH (g:Grower {name: r.grower}), (d:District {name: r.district}), (b:CertificationBody {name: r.certifier})
     CREATE (f:Farm {name: r.name, holding_number: r.holding, established: date(r.established), area_ha: r.areaHa,
       description: r.name + ' is a ' + toString(r.areaHa) + ' hectare arable farm'}),
       (f)-[:FARMED_BY]->(g), (f)-[:inDistrict]->(d), (f)-[:inspectedBy]->(b)`,
    w.farms.map((f) => ({ ...f, grower: w.growers[f.grower].name, district: district(f.district), certifier: w.certifiers[f.certifier].name })),
  );
  run(
    `UNWIND $rows AS r MATCH (f:Farm {name: r.farm}), (v:Variety {name: r.variety})
     CREATE (p:Plot {name: r.name, parcel_ref: r.parcelRef, notes: 'A field of ' + r.farm + ' sown this season'}),
       (p)-[:belongsTo]->(f), (p)-[:PLANTED_WITH]->(v)`,
    w.plots.map((p) => ({ ...p, farm: w.farms[p.farm].name, variety: w.varieties[p.variety].name })),
  );
  run(
    `UNWIND $rows AS r MATCH (p:Plot {name: r.plot}), (m:Mill {name: r.mill})
     CREATE (l:HarvestLot {name: r.name, lotCode: r.lotCode, harvested: date(r.harvested), tonnes: r.tonnes,
       remarks: toString(r.tonnes) + ' tonnes taken off ' + r.plot}),
       (l)-[:HARVESTED_FROM]->(p),
       (l)-[:deliveredTo {observation_class: 'observed', confidence: 0.72, source: 'weighbridge-ticket'}]->(m)`,
    w.lots.map((l) => ({ ...l, plot: w.plots[l.plot].name, mill: w.mills[l.mill].name })),
  );
  run(
    `UNWIND $rows AS r MATCH (l:HarvestLot {name: r.lot}), (m:Mill {name: r.mill})
     CREATE (l)-[:deliveredTo {observation_class: 'predicted', confidence: 0.94, source: 'haulage-route-guess'}]->(m)`,
    w.lots.filter((l) => l.predicted >= 0).map((l) => ({ lot: l.name, mill: w.mills[l.predicted].name })),
  );
  if (options.vectors !== false) {
    for (const [label, prose] of FARMING_LABELS) {
      const index = `${label.toLowerCase()}_vec`;
      db.executeSync(`CALL graphdb.embed.nodes({label: '${label}', textProperty: '${prose}', vectorProperty: 'embedding', batchSize: 256}) YIELD nodes RETURN nodes`);
      db.executeSync(`CREATE VECTOR INDEX ${index} FOR (n:${label}) ON (n.embedding) OPTIONS {indexConfig: {\`vector.dimensions\`: 384}}`);
      db.executeSync(`CALL db.awaitIndex('${index}')`);
    }
  }
  const labels = FARMING_LABELS.map(([l]) => l).join('|');
  const prose = [...new Set(FARMING_LABELS.map(([, p]) => p))].map((p) => `n.${p}`).join(', ');
  db.executeSync(`CREATE FULLTEXT INDEX farming_text FOR (n:${labels}) ON EACH [n.name, ${prose}]`);
  // Populated in the background otherwise: questions asked at once would fall back to the text scan.
  db.executeSync("CALL db.awaitIndex('farming_text')");
}
