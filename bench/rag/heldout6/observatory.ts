/**
 * A sixth held-out world for graph_rag's evaluation (issue 32): observational astronomy.
 * Observatories and the mountain sites they stand on, the telescopes they operate, the instruments
 * mounted on those telescopes and the institutes that built them, the astronomers institutes
 * employ, the observing runs astronomers lead (on an instrument, aimed at a celestial object), the
 * constellations objects lie in, the papers that use the runs' data, the journals papers appear
 * in, and the funding agencies behind observatories. Written apart from the pipeline (before
 * reading src/rag/ on this branch), after products, shipping, rail, clinical, film, software and
 * farming had all been used to tune it. This module owns the world (entities, codes, facts) and
 * loading it into a Database; observatory-questions.ts asks about it and run-heldout6.ts scores
 * the answers.
 *
 * The schema mixes naming styles, and some facts point from the object back to the subject a
 * person would start from (an institute EMPLOYS an astronomer; a run hasPI an astronomer):
 *
 *   (:Observatory)-[:SITED_AT]->(:Site)            (:Observatory)-[:FUNDED_BY]->(:FundingAgency)
 *   (:TELESCOPE)-[:operated_by]->(:Observatory)    (:instrument)-[:MOUNTED_ON]->(:TELESCOPE)
 *   (:instrument)-[:builtBy]->(:Institute)         (:Institute)-[:EMPLOYS]->(:Astronomer)
 *   (:ObservingRun)-[:hasPI]->(:Astronomer)        (:ObservingRun)-[:onInstrument]->(:instrument)
 *   (:ObservingRun)-[:TARGETED]->(:celestial_object)-[:lies_in]->(:Constellation)
 *   (:Paper)-[:written_by]->(:Astronomer)          (:Paper)-[:USES_DATA_FROM]->(:ObservingRun)
 *   (:Paper)-[:appearedIn]->(:Journal)
 *
 * Some names are key-like themselves: celestial objects carry catalogue designations ("NGC 4417",
 * "HD 189733"), runs are named by programme ("Programme 2019B.K-0471"), instruments by acronym
 * ("NIRPOL-2"); paper titles are long and may hold a constellation's name. Key-like values: ORCID
 * iDs on astronomers; DOIs (slashes and dots), bibcodes (runs of dots) and publication dates on
 * papers; observatory codes; ISSNs on journals; ROR ids on institutes; sky coordinates (with a
 * space and a sign) on objects; IAU abbreviations on constellations; observing nights and archive
 * ids on runs; serial numbers on instruments; first-light dates and apertures on telescopes;
 * agency codes; site codes and altitudes (numbers) on sites. Some are indexed, some not. Every
 * tenth astronomer is also claimed, more confidently, by a predicted employer, and every twelfth
 * run has a more confident predicted target: the trust probes. Prose lives in properties named
 * differently per label (`history`, `specs`, `capabilities`, `biography`, `log`,
 * `catalogue_entry`, `mythology`, `abstract`, `scope`, `mission`, `mandate`, `conditions`).
 */

import type { Database } from '../../../src/engine/database.js';
import { Rng, WorldDraws } from '../domain.js';

export interface Constellation { name: string; abbr: string; hemisphere: string }
export interface Journal { name: string; abbr: string; issn: string }
export interface Agency { name: string; code: string }
export interface Site { name: string; code: string; altitude: number; country: string }
export interface Observatory { name: string; code: string; site: number; funders: number[] }
export interface Telescope { name: string; aperture: number; firstLight: string; observatory: number }
export interface Institute { name: string; ror: string }
export interface Instrument { name: string; kind: string; serial: string; telescope: number; builder: number }
export interface Astronomer { name: string; orcid: string; topic: string; employer: number; predicted: number }
export interface SkyObject { name: string; kind: string; coords: string; magnitude: number; constellation: number }
export interface Run { name: string; night: string; archiveId: string; hours: number; pi: number; instrument: number; target: number; predicted: number }
export interface Paper { name: string; doi: string; bibcode: string; published: string; authors: number[]; runs: number[]; journal: number }

export interface ObservatoryWorld {
  constellations: Constellation[];
  journals: Journal[];
  agencies: Agency[];
  sites: Site[];
  observatories: Observatory[];
  telescopes: Telescope[];
  institutes: Institute[];
  instruments: Instrument[];
  astronomers: Astronomer[];
  objects: SkyObject[];
  runs: Run[];
  papers: Paper[];
}

const CONSTELLATIONS: readonly (readonly [string, string, string])[] = [
  ['Andromeda', 'And', 'northern'], ['Aquila', 'Aql', 'equatorial'], ['Auriga', 'Aur', 'northern'], ['Bootes', 'Boo', 'northern'],
  ['Carina', 'Car', 'southern'], ['Cassiopeia', 'Cas', 'northern'], ['Centaurus', 'Cen', 'southern'], ['Cepheus', 'Cep', 'northern'],
  ['Cetus', 'Cet', 'equatorial'], ['Columba', 'Col', 'southern'], ['Corona Borealis', 'CrB', 'northern'], ['Crux', 'Cru', 'southern'],
  ['Cygnus', 'Cyg', 'northern'], ['Dorado', 'Dor', 'southern'], ['Draco', 'Dra', 'northern'], ['Eridanus', 'Eri', 'southern'],
  ['Fornax', 'For', 'southern'], ['Gemini', 'Gem', 'northern'], ['Grus', 'Gru', 'southern'], ['Hercules', 'Her', 'northern'],
  ['Hydra', 'Hya', 'equatorial'], ['Lacerta', 'Lac', 'northern'], ['Leo', 'Leo', 'equatorial'], ['Lepus', 'Lep', 'southern'],
  ['Lyra', 'Lyr', 'northern'], ['Monoceros', 'Mon', 'equatorial'], ['Ophiuchus', 'Oph', 'equatorial'], ['Orion', 'Ori', 'equatorial'],
  ['Pavo', 'Pav', 'southern'], ['Pegasus', 'Peg', 'northern'], ['Perseus', 'Per', 'northern'], ['Phoenix', 'Phe', 'southern'],
  ['Puppis', 'Pup', 'southern'], ['Sagittarius', 'Sgr', 'southern'], ['Scorpius', 'Sco', 'southern'], ['Sculptor', 'Scl', 'southern'],
  ['Taurus', 'Tau', 'northern'], ['Tucana', 'Tuc', 'southern'], ['Ursa Major', 'UMa', 'northern'], ['Virgo', 'Vir', 'equatorial'],
];
const JOURNALS: readonly (readonly [string, string])[] = [
  ['Annals of Stellar Physics', 'AnSP'], ['Astrophysical Letters', 'ApL'], ['Journal of Galactic Studies', 'JGS'], ['Monthly Review of Astronomy', 'MRA'],
  ['Celestial Mechanics Quarterly', 'CMQ'], ['Transactions in Observational Astronomy', 'TOA'], ['The Photometric Journal', 'PhJ'],
  ['Spectroscopy Reports', 'SpR'], ['Bulletin of the Southern Sky Society', 'BSSS'], ['Exoplanet Research', 'ExR'],
  ['Review of Instrumentation for Astronomy', 'RIA'], ['Journal of Radio Astronomy', 'JRA'], ['Cosmology Communications', 'CosC'],
  ['Proceedings of the Optical Sky Union', 'POSU'], ['Variable Star Notes', 'VSN'], ['Interstellar Medium Letters', 'ISML'],
  ['Planetary Nebula Review', 'PNR'], ['Time Domain Astronomy', 'TDA'], ['Survey Science Journal', 'SSJ'], ['Nordic Astronomical Papers', 'NAP'],
];
const AGENCIES = ['National Science Foundation of Arveny', 'Southern Skies Research Council', 'Federal Office for Space Science', 'Royal Society for Astronomy Grants', 'Pan-Andean Astronomy Fund', 'Nordic Research Agency', 'Pacific Observatories Trust', 'European Sky Consortium', 'Mountain Science Endowment', 'Helios Philanthropic Foundation', 'Lumen Institute Fund', 'Continental Research Board'];
const SITES: readonly (readonly [string, string])[] = [
  ['Cerro Alto Verde', 'Chile'], ['Cerro Lagunillas', 'Chile'], ['Mount Kestrel', 'United States'], ['Roque Blanco', 'Spain'], ['Pico Ardiente', 'Mexico'],
  ['Mauna Keala', 'United States'], ['Sierra Nevadilla', 'Spain'], ['Mount Tarawera Ridge', 'New Zealand'], ['Gamsberg Plateau', 'Namibia'], ['Cerro Paranillo', 'Chile'],
  ['Mount Hopkinson', 'United States'], ['Kitt Ridge', 'United States'], ['Siding Range', 'Australia'], ['Mount Stromlo Heights', 'Australia'], ['Calar Medio', 'Spain'],
  ['Devasthal Peak', 'India'], ['Maidanak Hill', 'Uzbekistan'], ['Sutherland Karoo', 'South Africa'], ['Mount Graham Spur', 'United States'], ['Cerro Armazonas', 'Chile'],
  ['Zelenchuk Ridge', 'Russia'], ['Xinglong Summit', 'China'], ['Ali Plateau', 'China'], ['Mount Abu Heights', 'India'], ['Skinakas Peak', 'Greece'],
  ['Rozhen Hill', 'Bulgaria'], ['Ondrejov Plateau', 'Czechia'], ['Mount Locke', 'United States'], ['Llano de Chajnantor', 'Chile'], ['Mount Lemmon Ridge', 'United States'],
  ['Teide Saddle', 'Spain'], ['Mount John', 'New Zealand'],
];
const OBS_HEAD = ['Halvorsen', 'Okafor', 'Lindqvist', 'Marchetti', 'Tanaka', 'Vasquez', 'Brennan', 'Koval', 'Aldana', 'Nakamura', 'Oyelaran', 'Petrov', 'Quintero', 'Sandoval', 'Thorsen', 'Ueda', 'Varga', 'Whitcombe', 'Yilmaz', 'Zeller'];
const OBS_KIND = ['Observatory', 'Astronomical Observatory', 'Astrophysical Station', 'Sky Observatory', 'Radio Observatory'];
const TEL_HEAD = ['Aurora', 'Meridian', 'Polaris', 'Zenith', 'Nightingale', 'Solstice', 'Equinox', 'Horizon', 'Beacon', 'Halcyon', 'Sentinel', 'Vanguard', 'Pioneer', 'Odyssey', 'Starlight', 'Skylark', 'Kingfisher', 'Falcon', 'Osprey', 'Heron', 'Albatross', 'Condor', 'Raven', 'Swift', 'Argus', 'Atlas', 'Titan', 'Helios', 'Selene', 'Nova'];
const TEL_KIND = ['Telescope', 'Reflector', 'Refractor', 'Schmidt Camera', 'Survey Telescope', 'Solar Telescope', 'Radio Dish', 'Infrared Telescope'];
const CITY = ['Arveny', 'Bellmoor', 'Calvera', 'Dunhallow', 'Estrany', 'Falkirsk', 'Granholt', 'Havrenne', 'Istrova', 'Jorvik', 'Kelmarsh', 'Lindau', 'Marisol', 'Norrtal', 'Ostrava Nova', 'Pellham', 'Quillan', 'Rosvik', 'Santorral', 'Tarnow', 'Uppdal', 'Valmora', 'Westerly', 'Ystad Vale', 'Zarandos', 'Alcona', 'Brightwater', 'Coral Bay', 'Delmont', 'Evenbrook'];
const INST_KIND = ['Institute for Astrophysics', 'University Department of Astronomy', 'Centre for Space Science', 'Astronomical Institute', 'Laboratory for Optics and Detectors'];
const INSTR_A = ['HAR', 'NIR', 'ECH', 'POL', 'SOL', 'UV', 'FOR', 'IMA', 'SPEC', 'CRY', 'MOS', 'IFU', 'LUC', 'GRA', 'OSI', 'KMO'];
const INSTR_B = ['PS', 'SPEC', 'CAM', 'POL', 'RES', 'IRS', 'ELLE', 'AMI', 'ONE', 'TEC', 'SCOPE', 'IX'];
const INSTR_KIND = ['spectrograph', 'imager', 'polarimeter', 'integral field unit', 'infrared camera', 'echelle spectrograph', 'coronagraph', 'photometer'];
const GIVEN = ['Ingrid', 'Rafael', 'Mei', 'Tomasz', 'Ayesha', 'Kofi', 'Lucia', 'Anders', 'Priya', 'Mateo', 'Chiara', 'Dmitri', 'Amara', 'Hiroshi', 'Solveig', 'Emeka', 'Farida', 'Joaquin', 'Keiko', 'Leontine', 'Marek', 'Nadia', 'Oskar', 'Paloma', 'Ravi', 'Sunniva', 'Teodor', 'Valentina', 'Wen', 'Xiomara', 'Yusuf', 'Zofia', 'Adaeze', 'Bjorn', 'Camila', 'Darius', 'Elif', 'Florian', 'Gulnara', 'Henrik', 'Imani', 'Jasper', 'Kalinda', 'Lorenzo', 'Mirela', 'Nikhil', 'Ottilie', 'Pavel', 'Renata', 'Soren'];
const FAMILY = ['Okonkwo', 'Lindqvist', 'Moreau', 'Castellanos', 'Iwasaki', 'Kowalczyk', 'Adeyemi', 'Fitzgerald', 'Haugland', 'Mendoza', 'Ruggiero', 'Sokolova', 'Takahashi', 'Venkataraman', 'Wojcik', 'Zamora', 'Abernathy', 'Bergstrom', 'Chandrasekhar', 'Delacroix', 'Eriksen', 'Falcone', 'Gallardo', 'Hosseini', 'Ivanova', 'Jankowski', 'Kristiansen', 'Larrea', 'Mbeki', 'Nieminen', 'Oduya', 'Pellegrini', 'Rasmussen', 'Saarinen', 'Tavares', 'Uchenna', 'Vidal', 'Whitford', 'Xu', 'Yamaguchi', 'Amundsen', 'Beaumont', 'Cervantes', 'Dunleavy', 'Esposito', 'Fournier', 'Grabowski', 'Hakimi', 'Ibarra', 'Jovanovic', 'Kuznetsov', 'Lefevre', 'Marangoni', 'Novak', 'Oyelowo', 'Pacheco', 'Quiroga', 'Rinaldi', 'Strand', 'Toivonen'];
const TOPICS = ['exoplanet atmospheres', 'white dwarf cooling', 'galaxy evolution', 'stellar populations', 'variable stars', 'the interstellar medium', 'star formation', 'active galactic nuclei', 'brown dwarfs', 'globular clusters', 'supernova remnants', 'gravitational lensing'];
const CATALOGUES: readonly (readonly [string, number])[] = [['NGC', 4], ['HD', 6], ['HIP', 5], ['GJ', 3], ['PGC', 6], ['IC', 4], ['TYC', 4], ['WD', 4]];
const OBJECT_KIND = ['spiral galaxy', 'elliptical galaxy', 'open cluster', 'globular cluster', 'planetary nebula', 'main-sequence star', 'red giant', 'white dwarf', 'binary star', 'emission nebula', 'quasar', 'exoplanet host star'];
const TITLE_A = ['Deep', 'Wide-field', 'High-resolution', 'Time-resolved', 'Multi-epoch', 'Near-infrared', 'Ultraviolet', 'Polarimetric', 'A Census of', 'Precise', 'Low-noise', 'Long-baseline', 'First', 'Revisited', 'Spectroscopic'];
const TITLE_B = ['Photometry', 'Spectroscopy', 'Imaging', 'Astrometry', 'Monitoring', 'Kinematics', 'Abundances', 'Light Curves', 'Radial Velocities', 'Morphology', 'Variability', 'Mapping'];
const TITLE_C = ['Cool Dwarfs', 'Hot Subdwarfs', 'Open Clusters', 'Dusty Discs', 'Barred Spirals', 'Compact Groups', 'Young Stellar Objects', 'Eclipsing Binaries', 'Planetary Nebulae', 'Metal-poor Stars', 'Cepheid Variables', 'Circumstellar Shells', 'Tidal Streams', 'Molecular Clouds', 'Dwarf Galaxies', 'Hot Jupiters'];
const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const LOWER_ALNUM = 'abcdefghjkmnpqrstvwxyz0123456789';

/** Entity counts for a world of about `n` entities, with floors so a small run still has every kind. */
export function observatoryCounts(n: number): Record<keyof ObservatoryWorld, number> {
  const constellations = CONSTELLATIONS.length;
  const journals = Math.min(JOURNALS.length, Math.max(8, Math.round(n * 0.002)));
  const agencies = Math.min(AGENCIES.length, Math.max(5, Math.round(n * 0.0012)));
  const sites = Math.min(SITES.length, Math.max(8, Math.round(n * 0.003)));
  const observatories = Math.min(OBS_HEAD.length * OBS_KIND.length, Math.max(15, Math.round(n * 0.006)));
  const telescopes = Math.min(TEL_HEAD.length * TEL_KIND.length, Math.max(30, Math.round(n * 0.015)));
  const institutes = Math.min(CITY.length * INST_KIND.length, Math.max(12, Math.round(n * 0.01)));
  const instruments = Math.max(40, Math.round(n * 0.03));
  const objects = Math.max(80, Math.round(n * 0.12));
  const runs = Math.max(90, Math.round(n * 0.25));
  const papers = Math.max(90, Math.round(n * 0.24));
  const astronomers = Math.max(100, n - constellations - journals - agencies - sites - observatories - telescopes - institutes - instruments - objects - runs - papers);
  return { constellations, journals, agencies, sites, observatories, telescopes, institutes, instruments, astronomers, objects, runs, papers };
}

/** The world for about `n` entities; the same `n` and `seed` give the same world. */
export function generateObservatory(n: number, seed = 20261206): ObservatoryWorld {
  const r = new Rng(seed);
  const c = observatoryCounts(n);
  // Names are unique across the graph so each gold answer is one entity; codes, numbers and
  // dates are unique across the graph so a value names one entity.
  const { uname, ucode, chars, date, distinct } = new WorldDraws(r);
  const two = (x: number): string => String(x).padStart(2, '0');

  const constellations = CONSTELLATIONS.map(([name, abbr, hemisphere]): Constellation => ({ name: uname(() => name), abbr: ucode(() => abbr), hemisphere }));
  const journals = Array.from({ length: c.journals }, (_, i): Journal => ({
    name: uname(() => JOURNALS[i][0]),
    abbr: JOURNALS[i][1],
    issn: ucode(() => `${r.digits(4)}-${r.digits(3)}${r.next() < 0.1 ? 'X' : r.digits(1)}`),
  }));
  const agencies = Array.from({ length: c.agencies }, (_, i): Agency => ({ name: uname(() => AGENCIES[i]), code: ucode(() => `FA-${r.digits(3)}`) }));
  const sites = Array.from({ length: c.sites }, (_, i): Site => ({
    name: uname(() => SITES[i][0]),
    code: ucode(() => `ST${r.digits(3)}`),
    altitude: ucode(() => 1800 + r.int(3400)),
    country: SITES[i][1],
  }));
  const observatories = Array.from({ length: c.observatories }, (_, i): Observatory => ({
    name: uname(() => `${r.pick(OBS_HEAD)} ${r.pick(OBS_KIND)}`),
    code: ucode(() => `${chars(1, UPPER)}${r.digits(2)}`),
    // Every site has an observatory when there are enough observatories.
    site: i < c.sites ? i : r.int(c.sites),
    funders: distinct(1 + r.int(2), c.agencies),
  }));
  const telescopes = Array.from({ length: c.telescopes }, (_, i): Telescope => ({
    name: uname(() => `${r.pick(TEL_HEAD)} ${r.pick(TEL_KIND)}`),
    aperture: ucode(() => Math.round((0.4 + r.next() * 10) * 100) / 100),
    firstLight: ucode(() => date(1950, 74)),
    observatory: i < c.observatories ? i : r.int(c.observatories),
  }));
  const institutes = Array.from({ length: c.institutes }, (): Institute => ({
    name: uname(() => `${r.pick(CITY)} ${r.pick(INST_KIND)}`),
    ror: ucode(() => `0${chars(6, LOWER_ALNUM)}${r.digits(2)}`),
  }));
  const instruments = Array.from({ length: c.instruments }, (_, i): Instrument => ({
    name: uname(() => `${r.pick(INSTR_A)}${r.pick(INSTR_B)}${r.next() < 0.6 ? `-${1 + r.int(9)}` : ''}`),
    kind: r.pick(INSTR_KIND),
    serial: ucode(() => `SN-${r.digits(6)}`),
    telescope: i < c.telescopes ? i : r.int(c.telescopes),
    builder: r.int(c.institutes),
  }));
  const astronomers = Array.from({ length: c.astronomers }, (_, i): Astronomer => {
    const employer = r.int(c.institutes);
    return {
      name: uname(() => `${r.pick(GIVEN)} ${r.next() < 0.25 ? `${chars(1, UPPER)}. ` : ''}${r.pick(FAMILY)}`),
      orcid: ucode(() => `0000-000${r.digits(1)}-${r.digits(4)}-${r.digits(3)}${r.next() < 0.1 ? 'X' : r.digits(1)}`),
      topic: r.pick(TOPICS),
      employer,
      predicted: i % 10 === 0 ? (employer + 1 + r.int(c.institutes - 1)) % c.institutes : -1,
    };
  });
  const objects = Array.from({ length: c.objects }, (): SkyObject => {
    const [cat, width] = r.pick(CATALOGUES);
    const sign = r.next() < 0.5 ? '-' : '+';
    return {
      name: uname(() => `${cat} ${r.digits(width).replace(/^0/, String(1 + r.int(9)))}`),
      kind: r.pick(OBJECT_KIND),
      coords: ucode(() => `${two(r.int(24))}h${two(r.int(60))}m${two(r.int(60))}s ${sign}${two(r.int(90))}d${two(r.int(60))}m${two(r.int(60))}s`),
      magnitude: Math.round((4 + r.next() * 16) * 10) / 10,
      constellation: r.int(c.constellations),
    };
  });
  const runs = Array.from({ length: c.runs }, (_, i): Run => {
    const target = i < c.objects ? i : r.int(c.objects);
    return {
      name: uname(() => `Programme ${1998 + r.int(27)}${r.next() < 0.5 ? 'A' : 'B'}.${chars(1, UPPER)}-${r.digits(4)}`),
      night: ucode(() => date(1998, 27)),
      archiveId: ucode(() => `ARC${r.digits(7)}`),
      hours: 1 + r.int(40),
      pi: r.int(c.astronomers),
      // Every instrument has been used when there are enough runs.
      instrument: i < c.instruments ? i : r.int(c.instruments),
      target,
      predicted: i % 12 === 0 ? (target + 1 + r.int(c.objects - 1)) % c.objects : -1,
    };
  });
  const papers = Array.from({ length: c.papers }, (_, i): Paper => {
    const journal = r.int(c.journals);
    const year = 1999 + r.int(26);
    const first = i < c.astronomers ? i : r.int(c.astronomers);
    const authors = [first, ...distinct(r.int(4), c.astronomers).filter((a) => a !== first)];
    const published = ucode(() => date(year, 1));
    return {
      name: uname(() => `${r.pick(TITLE_A)} ${r.pick(TITLE_B)} of ${r.pick(TITLE_C)} ${r.next() < 0.5 ? 'in' : 'toward'} ${r.pick(constellations).name}`),
      doi: ucode(() => `10.${1000 + r.int(9000)}/${journals[journal].abbr.toLowerCase()}.${year}.${r.digits(4)}`),
      bibcode: ucode(() => `${year}${journals[journal].abbr.padEnd(5, '.')}${String(1 + r.int(900)).padStart(4, '.')}.${String(1 + r.int(2000)).padStart(4, '.')}${chars(1, UPPER)}`),
      published,
      authors,
      runs: distinct(1 + r.int(2), c.runs),
      journal,
    };
  });
  return { constellations, journals, agencies, sites, observatories, telescopes, institutes, instruments, astronomers, objects, runs, papers };
}

/** Every label in the world with the property its prose lives in, for indexes and embeddings. */
export const OBSERVATORY_LABELS: readonly (readonly [string, string])[] = [
  ['Constellation', 'mythology'], ['Journal', 'scope'], ['FundingAgency', 'mandate'], ['Site', 'conditions'],
  ['Observatory', 'history'], ['TELESCOPE', 'specs'], ['Institute', 'mission'], ['instrument', 'capabilities'],
  ['Astronomer', 'biography'], ['celestial_object', 'catalogue_entry'], ['ObservingRun', 'log'], ['Paper', 'abstract'],
];

export interface LoadOptions {
  /** Embed each node's prose and build vector indexes (default true; the generator's test skips it). */
  vectors?: boolean;
}

/** Loads the world: nodes with prose, facts, name and some value indexes, embeddings, a full-text index. */
export function loadObservatory(db: Database, w: ObservatoryWorld, options: LoadOptions = {}): void {
  const run = (cypher: string, rows: readonly object[]): void => {
    for (let i = 0; i < rows.length; i += 2000) db.executeSync(cypher, { rows: rows.slice(i, i + 2000) });
  };
  for (const [label] of OBSERVATORY_LABELS) db.executeSync(`CREATE INDEX FOR (n:${label}) ON (n.name)`);
  // Some key-like properties are indexed and the rest are not, so both grounding paths are asked.
  for (const [label, key] of [['Astronomer', 'orcid'], ['Paper', 'doi'], ['Observatory', 'obs_code'], ['Journal', 'issn']]) {
    db.executeSync(`CREATE INDEX FOR (n:${label}) ON (n.${key})`);
  }
  run(`UNWIND $rows AS r CREATE (:Constellation {name: r.name, iau_abbr: r.abbr, mythology: r.name + ' is a constellation of the ' + r.hemisphere + ' sky'})`, w.constellations);
  run(`UNWIND $rows AS r CREATE (:Journal {name: r.name, issn: r.issn, scope: r.name + ' publishes peer-reviewed research in astronomy and astrophysics'})`, w.journals);
  run(`UNWIND $rows AS r CREATE (:FundingAgency {name: r.name, agency_code: r.code, mandate: r.name + ' pays for national research facilities and grants'})`, w.agencies);
  run(`UNWIND $rows AS r CREATE (:Site {name: r.name, site_code: r.code, altitude_m: r.altitude, country: r.country,
       conditions: r.name + ' is a high, dry mountain site with dark skies and steady seeing'})`, w.sites);
  run(`UNWIND $rows AS r CREATE (:Institute {name: r.name, ror_id: r.ror, mission: r.name + ' carries out research and teaching in astrophysics'})`, w.institutes);
  // Codes and dates stay out of the prose, so a question quoting them must find the property.
  run(
    `UNWIND $rows AS r MATCH (s:Site {name: r.site})
     CREATE (o:Observatory {name: r.name, obs_code: r.code, history: r.name + ' has watched the night sky for decades'})-[:SITED_AT]->(s)
     WITH o, r UNWIND r.funders AS f MATCH (a:FundingAgency {name: f}) CREATE (o)-[:FUNDED_BY]->(a)`,
    w.observatories.map((o) => ({ ...o, site: w.sites[o.site].name, funders: o.funders.map((f) => w.agencies[f].name) })),
  );
  run(
    `UNWIND $rows AS r MATCH (o:Observatory {name: r.observatory})
     CREATE (:TELESCOPE {name: r.name, aperture_m: r.aperture, first_light: date(r.firstLight),
       specs: r.name + ' has a ' + toString(r.aperture) + ' metre primary mirror'})-[:operated_by]->(o)`,
    w.telescopes.map((t) => ({ ...t, observatory: w.observatories[t.observatory].name })),
  );
  run(
    `UNWIND $rows AS r MATCH (t:TELESCOPE {name: r.telescope}), (b:Institute {name: r.builder})
     CREATE (i:instrument {name: r.name, serial_no: r.serial, kind: r.kind, capabilities: r.name + ' is a ' + r.kind + ' for faint sources'}),
       (i)-[:MOUNTED_ON]->(t), (i)-[:builtBy]->(b)`,
    w.instruments.map((i) => ({ ...i, telescope: w.telescopes[i.telescope].name, builder: w.institutes[i.builder].name })),
  );
  run(
    `UNWIND $rows AS r MATCH (e:Institute {name: r.employer})
     CREATE (e)-[:EMPLOYS {observation_class: 'observed', confidence: 0.75, source: 'staff-roster'}]->
       (:Astronomer {name: r.name, orcid: r.orcid, biography: r.name + ' works on ' + r.topic})`,
    w.astronomers.map((a) => ({ ...a, employer: w.institutes[a.employer].name })),
  );
  run(
    `UNWIND $rows AS r MATCH (e:Institute {name: r.employer}), (a:Astronomer {name: r.name})
     CREATE (e)-[:EMPLOYS {observation_class: 'predicted', confidence: 0.92, source: 'affiliation-string-parser'}]->(a)`,
    w.astronomers.filter((a) => a.predicted >= 0).map((a) => ({ name: a.name, employer: w.institutes[a.predicted].name })),
  );
  run(
    `UNWIND $rows AS r MATCH (c:Constellation {name: r.constellation})
     CREATE (:celestial_object {name: r.name, coordinates: r.coords, magnitude: r.magnitude, kind: r.kind,
       catalogue_entry: r.name + ' is a ' + r.kind + ' of magnitude ' + toString(r.magnitude)})-[:lies_in]->(c)`,
    w.objects.map((o) => ({ ...o, constellation: w.constellations[o.constellation].name })),
  );
  run(
    `UNWIND $rows AS r MATCH (p:Astronomer {name: r.pi}), (i:instrument {name: r.instrument}), (o:celestial_object {name: r.target})
     CREATE (x:ObservingRun {name: r.name, night: date(r.night), archive_id: r.archiveId, hours: r.hours,
       log: toString(r.hours) + ' hours on ' + r.target + ' with ' + r.instrument}),
       (x)-[:hasPI]->(p), (x)-[:onInstrument]->(i),
       (x)-[:TARGETED {observation_class: 'observed', confidence: 0.7, source: 'observing-log'}]->(o)`,
    w.runs.map((x) => ({ ...x, pi: w.astronomers[x.pi].name, instrument: w.instruments[x.instrument].name, target: w.objects[x.target].name })),
  );
  run(
    `UNWIND $rows AS r MATCH (x:ObservingRun {name: r.run}), (o:celestial_object {name: r.target})
     CREATE (x)-[:TARGETED {observation_class: 'predicted', confidence: 0.93, source: 'pointing-model-guess'}]->(o)`,
    w.runs.filter((x) => x.predicted >= 0).map((x) => ({ run: x.name, target: w.objects[x.predicted].name })),
  );
  run(
    `UNWIND $rows AS r MATCH (j:Journal {name: r.journal})
     CREATE (p:Paper {name: r.name, doi: r.doi, bibcode: r.bibcode, published: date(r.published),
       abstract: 'We present ' + toLower(r.name) + '.'})-[:appearedIn]->(j)
     WITH p, r UNWIND r.authors AS a MATCH (x:Astronomer {name: a}) CREATE (p)-[:written_by]->(x)`,
    w.papers.map((p) => ({ ...p, journal: w.journals[p.journal].name, authors: p.authors.map((a) => w.astronomers[a].name) })),
  );
  run(
    `UNWIND $rows AS r MATCH (p:Paper {name: r.paper}), (x:ObservingRun {name: r.run}) CREATE (p)-[:USES_DATA_FROM]->(x)`,
    w.papers.flatMap((p) => p.runs.map((x) => ({ paper: p.name, run: w.runs[x].name }))),
  );
  if (options.vectors !== false) {
    for (const [label, prose] of OBSERVATORY_LABELS) {
      const index = `${label.toLowerCase()}_vec`;
      db.executeSync(`CALL graphdb.embed.nodes({label: '${label}', textProperty: '${prose}', vectorProperty: 'embedding', batchSize: 256}) YIELD nodes RETURN nodes`);
      db.executeSync(`CREATE VECTOR INDEX ${index} FOR (n:${label}) ON (n.embedding) OPTIONS {indexConfig: {\`vector.dimensions\`: 384}}`);
      db.executeSync(`CALL db.awaitIndex('${index}')`);
    }
  }
  const labels = OBSERVATORY_LABELS.map(([l]) => l).join('|');
  const prose = [...new Set(OBSERVATORY_LABELS.map(([, p]) => p))].map((p) => `n.${p}`).join(', ');
  db.executeSync(`CREATE FULLTEXT INDEX observatory_text FOR (n:${labels}) ON EACH [n.name, ${prose}]`);
  // Populated in the background otherwise: questions asked at once would fall back to the text scan.
  db.executeSync("CALL db.awaitIndex('observatory_text')");
}
