/**
 * The form kinds of the result-based scheme for species-rich grasslands ("vrstno bogati travniki",
 * extensive meadows), served in config.json → forms and scored by scoring.ts.
 *
 * The content follows how result-based grassland schemes work in practice: the farmer walks the
 * transect (path) in the flowering season and ticks the indicator plants seen along it; positive
 * indicators are plants of unfertilised, late-mown meadows, negative ones are invasive alien plants,
 * plants of over-fertilised grassland and shrubs taking over. A separate form records management,
 * because the result (plants) and its cause (mowing, fertilising) are judged together by advisers.
 *
 * Names follow Mala flora Slovenije. Keys are stable identifiers stored in the indicators table
 * (`key` column): never rename a key, add a new one and bump the rule version instead.
 */
import { SCORE_GOOD_ABOVE, SCORE_MEDIUM_ABOVE } from '../constants';
import { sl } from '../i18n/sl';
import type { FormKind, IndicatorDefinition, IndicatorGroup } from '../schemas/config';

/** Where an indicator's illustration is served from (public/indicators/, precached). */
function indicatorImage(key: string): string {
  return `/indicators/${key}.svg`;
}

/** Abundance scale of the nutrient indicators (how much of the transect they cover). */
const ABUNDANCE_CHOICES = [
  { value: 'ni', label: 'Ni na poti' },
  { value: 'posamicno', label: 'Posamično (nekaj rastlin)' },
  { value: 'pogosto', label: 'Pogosto (v skupinah ob vsej poti)' },
  { value: 'prevladuje', label: 'Prevladuje (več kot četrtina površine)' },
];

function plant(key: string, name: string, latin: string, colour: IndicatorDefinition['colour'], description: string): IndicatorDefinition {
  return { key, name, latin, description, image: indicatorImage(key), valueKind: 'presence', group: 'kazalne', colour };
}

const meadowGroups: IndicatorGroup[] = [
  {
    key: 'kazalne',
    title: 'Kazalne rastline vrstno bogatih travnikov',
    description: 'Počasi prehodite pot in označite vsako vrsto, ki jo vidite do dveh metrov levo ali desno od poti.',
  },
  {
    key: 'barve',
    title: 'Barvne skupine cvetov',
    description: 'Označite barve, v katerih na poti cveti vsaj ena zelnata rastlina (štejejo vse vrste, ne le kazalne).',
  },
  {
    key: 'invazivne',
    title: 'Invazivne tujerodne rastline',
    description: 'Tujerodne vrste, ki se hitro širijo in izpodrivajo travniške rastline.',
  },
  {
    key: 'hranila',
    title: 'Kazalke gnojenja',
    description: 'Rastline, ki se razrastejo na preveč gnojenih travnikih. Ocenite, kako pogoste so.',
  },
  {
    key: 'zarascanje',
    title: 'Zaraščanje',
    description: 'Grmovje in drevesa, ki se širijo v travnik, če ga ne kosimo redno.',
  },
];

const meadowIndicators: IndicatorDefinition[] = [
  plant(
    'salvia-pratensis',
    'travniška kadulja',
    'Salvia pratensis',
    'modro-vijolicna',
    'Modro-vijolični, izrazito ustnati cvetovi v vretencih na pokončnem steblu, visokem do 60 cm. Listi so v pritlični rozeti, nagubani in dišeči. Cveti od maja do julija na suhih, sončnih travnikih.',
  ),
  plant(
    'lotus-corniculatus',
    'navadna nokota',
    'Lotus corniculatus',
    'rumeno-oranzna',
    'Rumeni metuljasti cvetovi po 3 do 6 v kobulu, popki so pogosto rdečkasti. Listi iz petih lističev, stroki so razprti kot ptičja noga. Nizka, pogosto polegla rastlina.',
  ),
  plant(
    'leucanthemum-vulgare',
    'navadna ivanjščica',
    'Leucanthemum vulgare agg.',
    'bela',
    'Velik cvetni koš z belimi jezičastimi cvetovi in rumenim središčem, kot velika marjetica, po eden na steblu, visokem 30 do 70 cm. Cveti maja in junija.',
  ),
  {
    key: 'orchidaceae',
    name: 'kukavičevke',
    latin: 'Orchidaceae',
    description:
      'Vse vrste kukavic, prstastih kukavic in kukavičnikov. Cvetovi so v klasu, rožnati, škrlatni ali beli, z izrazito spodnjo ustno; listi so celorobi, pri nekaterih lisasti. Preštejte cvetoče rastline in jih ne trgajte: vse so zavarovane.',
    image: indicatorImage('orchidaceae'),
    valueKind: 'count',
    unit: 'rastlin',
    max: 10000,
    group: 'kazalne',
    colour: 'rdece-rozna',
  },
  plant(
    'centaurea-jacea',
    'navadni glavinec',
    'Centaurea jacea',
    'rdece-rozna',
    'Rožnato-vijolični cvetni koši s povečanimi, razprtimi robnimi cvetovi. Ovojni listi imajo rjave, suhokožnate priveske. Cveti od junija do jeseni.',
  ),
  plant(
    'campanula-patula',
    'razkrečena zvončica',
    'Campanula patula',
    'modro-vijolicna',
    'Svetlo vijolični, široko odprti zvonasti cvetovi z globoko razcepljenim, razprtim vencem, v redkem socvetju na tankih pecljih. Steblo je tanko in razraslo.',
  ),
  plant(
    'rhinanthus',
    'škrobotci',
    'Rhinanthus spp.',
    'rumeno-oranzna',
    'Rumeni čeladasti cvetovi v klasu in napihnjena zelena čaša, v kateri zrela semena ropotajo. Polzajedavec na travah: zavira njihovo rast in tako pusti prostor drugim cvetlicam.',
  ),
  plant(
    'sanguisorba-officinalis',
    'zdravilna strašnica',
    'Sanguisorba officinalis',
    'rdece-rozna',
    'Temno rdeče, jajčaste cvetne glavice na dolgih, razraslih steblih, visokih do 1 m. Listi so pernati, z nazobčanimi lističi. Vlažni travniki, cveti od julija do septembra.',
  ),
  plant(
    'silene-vulgaris',
    'navadna pokalica',
    'Silene vulgaris',
    'bela',
    'Beli cvetovi z globoko dvodelnimi venčnimi listi in napihnjeno, mrežasto žilnato čašo, ki je videti kot mehurček. Listi so sivozeleni in goli.',
  ),
  plant(
    'knautia-arvensis',
    'njivsko grabljišče',
    'Knautia arvensis',
    'modro-vijolicna',
    'Svetlo lila, ploščati cvetni koši s povečanimi robnimi cvetovi na dolgih, dlakavih steblih. Spodnji listi so pernato deljeni. Cveti od junija do avgusta.',
  ),
  plant(
    'dianthus-carthusianorum',
    'kartuzijanski klinček',
    'Dianthus carthusianorum',
    'rdece-rozna',
    'Škrlatno rožnati cvetovi z nazobčanimi venčnimi listi, zbrani v glavici na vrhu tankega, togega stebla z ozkimi, travnatimi listi. Suhi, sončni travniki.',
  ),
  plant(
    'galium-verum',
    'prava lakota',
    'Galium verum',
    'rumeno-oranzna',
    'Drobni, zlato rumeni, medeno dišeči cvetovi v gostem latastem socvetju. Ozki, igličasti listi so v vretencih po 8 do 12. Cveti junija in julija.',
  ),
  plant(
    'trifolium-montanum',
    'gorska detelja',
    'Trifolium montanum',
    'bela',
    'Bele, okrogle cvetne glavice, pogosto po dve na vrhu stebla. Lističi so podolgovati, ostro nazobčani in na spodnji strani dlakavi. Suhi, negnojeni travniki.',
  ),
  plant(
    'briza-media',
    'navadna migalica',
    'Briza media',
    undefined,
    'Trava s srčastimi, povešenimi klaski na lasasto tankih vejicah, ki v vetru trepetajo. Klaski so zeleni do vijoličasto rjavi. Kaže na pust, negnojen travnik.',
  ),
  plant(
    'lychnis-flos-cuculi',
    'kukavičja lučca',
    'Lychnis flos-cuculi',
    'rdece-rozna',
    'Rožnati cvetovi z globoko razcefranimi, štiridelnimi venčnimi listi, ki so videti raztrgani. Vlažni travniki, cveti maja in junija.',
  ),
  {
    key: 'barva-bela',
    name: 'bela',
    description: 'Na poti cveti vsaj ena rastlina z belimi cvetovi, na primer ivanjščica, gorska detelja, navadna pokalica ali rman.',
    image: indicatorImage('barva-bela'),
    valueKind: 'presence',
    group: 'barve',
    colour: 'bela',
  },
  {
    key: 'barva-modro-vijolicna',
    name: 'modro-vijolična',
    description: 'Na poti cveti vsaj ena rastlina z modrimi ali vijoličnimi cvetovi, na primer travniška kadulja, zvončice ali grabljišče.',
    image: indicatorImage('barva-modro-vijolicna'),
    valueKind: 'presence',
    group: 'barve',
    colour: 'modro-vijolicna',
  },
  {
    key: 'barva-rdece-rozna',
    name: 'rdeče-rožnata',
    description: 'Na poti cveti vsaj ena rastlina z rdečimi ali rožnatimi cvetovi, na primer glavinec, klinček, kukavičja lučca ali črna detelja.',
    image: indicatorImage('barva-rdece-rozna'),
    valueKind: 'presence',
    group: 'barve',
    colour: 'rdece-rozna',
  },
  {
    key: 'barva-rumeno-oranzna',
    name: 'rumeno-oranžna',
    description: 'Na poti cveti vsaj ena rastlina z rumenimi ali oranžnimi cvetovi, na primer nokota, škrobotec, prava lakota ali zlatica.',
    image: indicatorImage('barva-rumeno-oranzna'),
    valueKind: 'presence',
    group: 'barve',
    colour: 'rumeno-oranzna',
  },
  {
    key: 'solidago',
    name: 'zlata rozga',
    latin: 'Solidago canadensis, S. gigantea',
    description:
      'Invazivna tujerodna vrsta: gosti sestoji do 2 m visokih stebel z ozkimi, suličastimi listi in rumenimi, na eno stran nagnjenimi latami drobnih koškov (od avgusta). Izpodrine travniške rastline; pokosite jo pred cvetenjem.',
    image: indicatorImage('solidago'),
    valueKind: 'presence',
    group: 'invazivne',
    colour: 'rumeno-oranzna',
  },
  {
    key: 'erigeron-annuus',
    name: 'enoletna suholetnica',
    latin: 'Erigeron annuus',
    description:
      'Invazivna tujerodna vrsta: razrasla rastlina, visoka do 1 m, z mnogimi drobnimi koški z belimi, zelo ozkimi jezičastimi cvetovi in rumenim središčem, kot drobne marjetice. Širi se na slabo košenih in zapuščenih površinah.',
    image: indicatorImage('erigeron-annuus'),
    valueKind: 'presence',
    group: 'invazivne',
    colour: 'bela',
  },
  {
    key: 'rumex-obtusifolius',
    name: 'topolistna kislica',
    latin: 'Rumex obtusifolius',
    description:
      'Kazalka prevelikega gnojenja: velika rastlina s širokimi, jajčastimi, ob dnu srčastimi listi, dolgimi do 30 cm, in rdečkasto rjavimi latami plodov. Semena ostanejo v tleh kaljiva več desetletij.',
    image: indicatorImage('rumex-obtusifolius'),
    valueKind: 'choice',
    choices: ABUNDANCE_CHOICES,
    required: true,
    group: 'hranila',
  },
  {
    key: 'taraxacum',
    name: 'navadni regrat',
    latin: 'Taraxacum sect. Ruderalia',
    description:
      'Kazalka gnojenja, kadar ga je veliko: rumeni cvetni koši na votlih steblih z belim mlečkom, globoko nazobčani listi v pritlični rozeti, plodovi v puhasti lučki. Posamezne rastline so običajne; ocenite, kako pogost je.',
    image: indicatorImage('taraxacum'),
    valueKind: 'choice',
    choices: ABUNDANCE_CHOICES,
    required: true,
    group: 'hranila',
    colour: 'rumeno-oranzna',
  },
  {
    key: 'zarascanje',
    name: 'zaraščanje z grmovjem',
    description:
      'Ocenite delež travnika ob poti, ki ga prerašča grmovje ali mladje dreves (robida, glog, leska, trnulja, mladi jeseni). Vpišite 0, če zaraščanja ni.',
    image: indicatorImage('zarascanje'),
    valueKind: 'percent',
    unit: '%',
    required: true,
    group: 'zarascanje',
  },
];

const PLANT_POINTS = 7;

const managementIndicators: IndicatorDefinition[] = [
  {
    key: 'datum-prve-kosnje',
    name: 'datum prve košnje',
    description: 'Dan, ko je bil travnik letos prvič pokošen. Pozna košnja, po 15. juniju, pusti kazalnim rastlinam čas, da odcvetijo in semenijo.',
    image: indicatorImage('datum-prve-kosnje'),
    valueKind: 'date',
    required: true,
    group: 'kosnja',
  },
  {
    key: 'odvoz-pokosene-mase',
    name: 'odstranjevanje pokošene mase',
    description:
      'Ali je bila pokošena trava posušena in odpeljana kot seno ali otava? Pokošena masa, ki ostane na travniku (mulčenje), gnoji tla in duši nizke rastline.',
    image: indicatorImage('odvoz-pokosene-mase'),
    valueKind: 'choice',
    choices: [
      { value: 'da', label: 'Da, seno ali otava je odpeljano' },
      { value: 'ne', label: 'Ne, pokošena masa ostane na travniku (mulčenje)' },
    ],
    required: true,
    group: 'kosnja',
  },
  {
    key: 'gnojenje',
    name: 'gnojenje',
    description: 'Kako je bil travnik gnojen v zadnjem letu. Vrstno bogat travnik ostane bogat le brez gnojenja ali z malo uležanega hlevskega gnoja.',
    image: indicatorImage('gnojenje'),
    valueKind: 'choice',
    choices: [
      { value: 'brez', label: 'Brez gnojenja' },
      { value: 'hlevski-gnoj', label: 'Uležan hlevski gnoj' },
      { value: 'gnojevka', label: 'Gnojevka ali gnojnica' },
      { value: 'mineralna', label: 'Mineralna gnojila' },
    ],
    required: true,
    group: 'gnojenje-pasa',
  },
  {
    key: 'pasa',
    name: 'paša',
    description: 'Ali se je na travniku paslo? Kratka jesenska popaša po košnji ne škodi, stalna paša pa spremeni sestavo rastlin in poškoduje rušo.',
    image: indicatorImage('pasa'),
    valueKind: 'choice',
    choices: [
      { value: 'brez', label: 'Brez paše' },
      { value: 'jesenska', label: 'Jesenska popaša po košnji' },
      { value: 'stalna', label: 'Paša čez vso sezono' },
    ],
    required: true,
    group: 'gnojenje-pasa',
  },
  {
    key: 'opombe-upravljanje',
    name: 'posebnosti',
    description: 'Kar bi moral vedeti svetovalec: vremenska škoda, ritje divjadi, obnova ruše, dosejevanje, sprememba lastnika.',
    valueKind: 'text',
    group: 'opombe',
  },
];

const travnik: FormKind = {
  id: 1,
  title: 'Popis kazalnih rastlin na poti',
  description:
    'Enkrat v sezoni, ko travnik cveti (od sredine maja do prve košnje), počasi prehodite pot in označite kazalne rastline, barve cvetov, invazivne rastline, kazalke gnojenja in zaraščanje.',
  groups: meadowGroups,
  indicators: meadowIndicators,
  scoring: {
    version: 'travnik-2025.1',
    base: 0,
    description:
      'Vsaka najdena kazalna rastlina prinese 7 točk, vsaka cvetoča kukavičevka 5 točk (največ 15), vsaka barvna skupina 4 točke. Zlata rozga odšteje 20 točk, enoletna suholetnica 15, kazalke gnojenja do 20 glede na pogostost, zaraščanje 1 točko za vsak odstotek (največ 40). Rezultat je omejen na 0 do 100.',
    contributions: [
      ...meadowIndicators.filter((d) => d.group === 'kazalne' && d.valueKind === 'presence').map((d) => ({ key: d.key, points: PLANT_POINTS })),
      { key: 'orchidaceae', points: 5, max: 15 },
      ...meadowIndicators.filter((d) => d.group === 'barve').map((d) => ({ key: d.key, points: 4 })),
      { key: 'solidago', points: -20 },
      { key: 'erigeron-annuus', points: -15 },
      { key: 'rumex-obtusifolius', perChoice: { ni: 0, posamicno: -5, pogosto: -10, prevladuje: -20 } },
      // Single dandelions belong to every meadow; only a dandelion-dominated sward shows manure.
      { key: 'taraxacum', perChoice: { ni: 0, posamicno: 0, pogosto: -5, prevladuje: -15 } },
      { key: 'zarascanje', points: -1, min: -40 },
    ],
  },
  // The demo scheme's rates by the score classes (sl.scheme.scoreClass); a real scheme sets its own.
  payment: {
    bands: [
      { name: sl.scheme.scoreClass.bad, eurPerHa: 0 },
      { above: SCORE_MEDIUM_ABOVE, name: sl.scheme.scoreClass.medium, eurPerHa: 150 },
      { above: SCORE_GOOD_ABOVE, name: sl.scheme.scoreClass.good, eurPerHa: 300 },
    ],
  },
};

const upravljanje: FormKind = {
  id: 2,
  title: 'Upravljanje travnika',
  description: 'Po prvi košnji odgovorite na vprašanja o košnji, gnojenju in paši v tej sezoni. Odgovori pojasnijo rezultat popisa rastlin.',
  groups: [
    { key: 'kosnja', title: 'Košnja' },
    { key: 'gnojenje-pasa', title: 'Gnojenje in paša' },
    { key: 'opombe', title: 'Opombe' },
  ],
  indicators: managementIndicators,
  scoring: {
    version: 'upravljanje-2025.1',
    base: 55,
    description:
      'Izhodišče je 55 točk. Košnja od 15. junija dalje prinese 15 točk, zgodnejša odšteje 15. Brez gnojenja 15 točk, hlevski gnoj 5, gnojevka odšteje 20, mineralna gnojila 25. Jesenska popaša prinese 5 točk, stalna paša odšteje 15. Odvoz pokošene mase prinese 10 točk, mulčenje odšteje 20. Rezultat je omejen na 0 do 100.',
    contributions: [
      { key: 'datum-prve-kosnje', dateFrom: '06-15', points: 15, pointsBefore: -15 },
      { key: 'odvoz-pokosene-mase', perChoice: { da: 10, ne: -20 } },
      { key: 'gnojenje', perChoice: { brez: 15, 'hlevski-gnoj': 5, gnojevka: -20, mineralna: -25 } },
      { key: 'pasa', perChoice: { brez: 0, jesenska: 5, stalna: -15 } },
    ],
  },
};

/**
 * Form kinds keyed by name (config.json → forms). Ids are stored in forms.form_id and must never
 * change; rule versions are stored in forms.rule_version with each score.
 */
export const FORM_KINDS = { travnik, upravljanje } as const;

/** The form kinds as config.json serves them. */
export const formKinds: Record<string, FormKind> = FORM_KINDS;

/** The name (config key) of the form kind with this id, if any. */
export function formKindNameById(id: number): string | undefined {
  return Object.entries(formKinds).find(([, kind]) => kind.id === id)?.[0];
}
