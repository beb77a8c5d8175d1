/**
 * Every user-facing Slovenian text of the product, client and server (login page) alike, so a
 * reviewer can read the whole UI in one file. Texts the product fixes word for word are marked "exact".
 * Add new strings here under the screen or component that shows them. The few a first visit's
 * home is painted with are in sl-home.ts, from which this file takes them.
 */
import { formatNumber } from '../format';
import { slHome } from './sl-home';

/** A count the Slovenian way ('10.000'), as every number on screen is written. */
const num = (n: number): string => formatNumber(n, 0);

export const sl = {
  common: {
    loading: 'Nalagam...',
    appName: 'Moj travnik',
    save: 'Shrani',
    cancel: 'Prekliči',
    close: 'Zapri',
    back: 'Nazaj',
    delete: 'Izbriši',
    confirm: 'Potrdi',
    retry: 'Poskusi znova',
  },
  leavePage: {
    /** Leaving a page with unsaved data; exact. */
    confirm: 'Ali ste prepričani, da želite zapustiti to stran? Vnešeni podatki bodo izgubljeni',
  },
  location: {
    /** Location denied; exact. */
    denied: 'Pozor! Za snemanje poti in lociranje indikatorjev aplikacija potrebuje dostop do vaše lokacije.',
  },
  update: {
    /** The notice dialog title; exact. */
    title: 'Obvestilo',
    /** A new version was released, a refresh is needed, the app is briefly unresponsive. */
    message: 'Izšla je nova različica aplikacije. Potrebna je osvežitev strani, zato se aplikacija za trenutek ne bo odzivala.',
    accept: 'Osveži',
  },
  farmer: {
    /** Raised when no farmers record matches the user's e-mail. */
    missing: 'Za vaš e-poštni naslov ni zapisa kmeta. Obrnite se na svetovalca.',
  },
  // ── Client shell: app frame, header, navigation, router, dialogs, screens ──
  app: {
    description: 'Spremljanje vrstno bogatih travnikov: poti, obrazci in kazalniki, tudi brez povezave.',
    noscript: 'Za uporabo aplikacije Moj travnik v brskalniku omogočite JavaScript.',
    skipToContent: 'Skoči na vsebino',
    version: 'Različica',
  },
  /** The bar on every other screen while a walk is recorded (the walk goes on behind them). */
  walkBar: {
    label: 'Snemanje poti v teku',
    /** `distance` = walked so far ('120 m'). */
    recording: (distance: string) => `Snemam hojo · ${distance}`,
    paused: (distance: string) => `Hoja v premoru · ${distance}`,
    finished: (distance: string) => `Hoja končana, ni shranjena · ${distance}`,
    back: 'Nazaj na pot',
    /** The link's name for screen readers: the visible words and the path's name ('' when unknown). */
    backTo: (name: string) => (name ? `Nazaj na pot ${name}` : 'Nazaj na pot'),
  },
  header: {
    home: 'Moj travnik – na začetno stran',
    about: 'O aplikaciji',
    download: 'Prenos',
    downloadTooltip: 'Prenos podatkov za delo brez povezave',
    online: 'Povezano',
    offline: 'Brez povezave',
    syncTooltip: 'Stanje pošiljanja sprememb',
    /** "N sprememb čaka" with the Slovenian singular, dual, few and plural forms. */
    pendingEdits: (n: number): string => `${num(n)} ${slPlural(n, 'sprememba čaka', 'spremembi čakata', 'spremembe čakajo', 'sprememb čaka')} na pošiljanje`,
    /** Edits the server refused (failed or in conflict): they wait for the user, not for the network. */
    needsDecision: (n: number): string =>
      `${num(n)} ${slPlural(n, 'sprememba čaka', 'spremembi čakata', 'spremembe čakajo', 'sprememb čaka')} na vašo odločitev`,
  },
  nav: {
    label: 'Glavna navigacija',
    home: 'Domov',
    paths: 'Poti',
    forms: 'Obrazci',
    results: 'Rezultati',
  },
  router: {
    notFoundTitle: 'Strani ni mogoče najti',
    notFoundText: 'Stran, ki ste jo odprli, ne obstaja. Morda je povezava zastarela ali napačno vpisana.',
    backHome: 'Na začetno stran',
    blockedTitle: 'Te strani ne morete odpreti',
    blockedReader: 'Kot bralec lahko podatke pregledujete, urejati pa jih ne morete.',
    blockedNoFarmer: 'Za vaš e-poštni naslov ni zapisa kmeta, zato vaših travnikov ni mogoče prikazati. Obrnite se na svetovalca.',
    chunkFailed: 'Zaslona ni bilo mogoče naložiti. Preverite povezavo in poskusite znova.',
  },
  confirmLeave: {
    title: 'Neshranjeni podatki',
    stay: 'Ostani na strani',
    leave: 'Zapusti stran',
  },
  notifications: {
    region: 'Obvestila',
    close: 'Zapri obvestilo',
    info: 'Obvestilo',
    success: 'Uspešno',
    error: 'Napaka',
  },
  screens: {
    home: {
      title: slHome.title,
      empty: 'Podatki o vaših travnikih še niso naloženi. Ko bodo, jih boste videli tukaj.',
      quickLinks: 'Hitre povezave',
    },
    paths: {
      title: 'Poti',
      lead: 'Poti, ki jih prehodite na svojih travnikih, z zadnjo hojo in oceno.',
      empty: 'Ni poti za prikaz.',
    },
    path: {
      title: 'Pot',
      lead: 'Zemljevid poti, snemanje hoje in obrazci za to sezono.',
      empty: 'Podatki o tej poti še niso naloženi.',
      idLabel: 'Oznaka poti',
    },
    forms: {
      title: 'Obrazci',
      lead: 'Obrazci s kazalniki za vaše poti v tej sezoni.',
      empty: 'Ni obrazcev za prikaz.',
      /** Under the empty list: where a form is made. */
      emptyHint: 'Obrazec naredite na zaslonu poti: odprite pot in pod »Nov obrazec« izberite »Ustvari obrazec«.',
    },
    form: {
      title: 'Obrazec',
      lead: 'Kazalniki, opombe in fotografije za izbrano pot.',
      empty: 'Obrazec še ni naložen.',
      idLabel: 'Oznaka obrazca',
    },
    results: {
      title: 'Rezultati',
      lead: 'Ocene po poteh, travnikih in sezonah.',
      empty: 'Rezultatov še ni. Pokažejo se, ko izpolnite prvi obrazec.',
    },
    download: {
      title: 'Prenos za delo brez povezave',
      lead: 'Shranjena območja z zemljevidom in podatki, ki jih uporabljate na terenu brez povezave.',
      empty: 'Ni shranjenih območij.',
      add: 'Novo območje',
    },
    downloadNew: {
      title: 'Novo območje za prenos',
      lead: 'Na zemljevidu izberite območje in razpon povečav. Pred prenosom vidite število ploščic in oceno velikosti.',
      empty: 'Izbira območja bo na voljo, ko se zemljevid naloži.',
    },
    about: {
      title: 'O aplikaciji',
      purposeTitle: 'Čemu je namenjena',
      purpose:
        'Moj travnik je aplikacija za kmete v shemi, ki plačuje rezultate na vrstno bogatih travnikih. Na svojih travnikih prehodite poti, zabeležite kazalnike (rastline, barve cvetov, invazivne vrste, zaraščanje) in dobite oceno travnika.',
      offlineTitle: 'Delo brez povezave',
      offline:
        'Aplikacija deluje tudi brez signala. Spremembe se shranijo v telefon in se pošljejo, ko je povezava spet na voljo. Stanje vidite v glavi aplikacije.',
      contactTitle: 'Kontakt',
      contact: 'Za pomoč se obrnite na svojega kmetijskega svetovalca ali pišite na',
      contactEmail: 'pomoc@example.si',
      signedInAs: 'Prijavljeni ste kot',
    },
  },
  /** Server-rendered texts: the page shown when the client was not built. */
  server: {
    buildMissing: {
      title: 'Aplikacija še ni zgrajena',
      body: 'Strežnik teče, vendar mapa dist/ nima zgrajene spletne aplikacije. V mapi projekta zaženite:',
      hint: 'Nato osvežite to stran. Ukaz npm start aplikacijo zgradi sam.',
    },
  },
  /** Scheme content: form validation messages and the score explanation of src/common/scheme. */
  scheme: {
    scoreClass: { good: 'dobro', medium: 'srednje', bad: 'slabo' },
    /** '1 točka', '2 točki', '3 točke', '5 točk'; decimals with a comma take 'točke' ('0,5 točke'). */
    points: (n: number): string => `${String(n).replace('.', ',')} ${Number.isInteger(n) ? slPlural(n, 'točka', 'točki', 'točke', 'točk') : 'točke'}`,
    validation: {
      required: (name: string): string => `Vnesite podatek: ${name}.`,
      unknownKey: (key: string): string => `Obrazec nima kazalnika »${key}«.`,
      presence: (name: string): string => `${name}: izberite da ali ne.`,
      count: (name: string, max: number): string => `${name}: vpišite celo število od 0 do ${max}.`,
      percent: (name: string): string => `${name}: vpišite delež od 0 do 100 %.`,
      choice: (name: string): string => `${name}: izberite eno od ponujenih možnosti.`,
      date: (name: string): string => `${name}: vpišite veljaven datum.`,
      text: (name: string, max: number): string => `${name}: besedilo je predolgo (največ ${max} znakov).`,
    },
    reason: {
      present: 'zabeleženo na poti',
      count: (count: number, each: string): string => `${num(count)} × ${each}`,
      percent: (value: number, each: string): string => `delež ${String(value).replace('.', ',')} % × ${each}`,
      choice: (label: string): string => `izbrano: ${label}`,
      dateFrom: (date: string, from: string): string => `${date} (od ${from} dalje)`,
      dateBefore: (date: string, from: string): string => `${date} (pred ${from})`,
      capped: (limit: string): string => `, omejeno na ${limit}`,
    },
  },
} as const;

/** Slovenian plural forms: 1 (and 101, …) singular, 2 dual, 3–4 few, else plural. */
function slPlural(n: number, one: string, two: string, few: string, other: string): string {
  const mod = Math.abs(n) % 100;
  if (mod === 1) return one;
  if (mod === 2) return two;
  if (mod === 3 || mod === 4) return few;
  return other;
}

/** How long to wait, after "čez": "30 sekund", "1 minuto", "2 minuti", "3 minute", "5 minut". */
function waitText(seconds: number): string {
  if (seconds < 60) {
    const n = Math.max(1, Math.ceil(seconds));
    return `${n} ${slPlural(n, 'sekundo', 'sekundi', 'sekunde', 'sekund')}`;
  }
  const n = Math.ceil(seconds / 60);
  return `${n} ${slPlural(n, 'minuto', 'minuti', 'minute', 'minut')}`;
}

/** Sign-in: the login page of the embedded identity provider and the client's session texts. */
export const slAuth = {
  login: {
    title: 'Prijava — Moj travnik',
    heading: 'Prijava',
    intro: 'Prijavite se s svojim e-poštnim naslovom ali uporabniškim imenom.',
    loginLabel: 'E-pošta ali uporabniško ime',
    passwordLabel: 'Geslo',
    submit: 'Prijava',
    invalidCredentials: 'Napačen e-poštni naslov, uporabniško ime ali geslo.',
    missingFields: 'Vpišite e-poštni naslov ali uporabniško ime in geslo.',
    /** The login or the address is throttled for `seconds` more (the page answers 429). */
    tooManyAttempts: (seconds: number): string => `Preveč neuspešnih poskusov. Poskusite znova čez ${waitText(seconds)}.`,
    expired: 'Prijavna seja je potekla. Vrnite se v aplikacijo in začnite znova.',
    backToApp: 'Nazaj v aplikacijo',
    demoHeading: 'Predstavitveni računi (geslo: demo)',
    demoRoles: { farmer: 'kmet', editor: 'urednik', reader: 'bralec' },
  },
  logout: {
    title: 'Odjava — Moj travnik',
    question: 'Ali se želite odjaviti?',
    confirm: 'Odjava',
    cancel: 'Ostani prijavljen',
    done: 'Odjavljeni ste.',
  },
  error: {
    title: 'Napaka pri prijavi — Moj travnik',
    heading: 'Prijava ni uspela',
    text: 'Pri prijavi je prišlo do napake. Vrnite se v aplikacijo in poskusite znova.',
  },
  session: {
    signIn: 'Prijava',
    signOut: 'Odjava',
    signInAgain: 'Vaša prijava je potekla. Prijavite se znova — neposlane spremembe ostanejo shranjene.',
    offline: 'Brez povezave: delate kot zadnji prijavljeni uporabnik. Spremembe se shranjujejo na napravi.',
    pendingTitle: 'Neposlane spremembe',
    /** `{count}` is replaced by the number of edits waiting in the outbox. */
    pendingMessage: 'Na napravi čaka {count} neposlanih sprememb. Ob odjavi bi jih izbrisali.',
    syncFirst: 'Najprej sinhroniziraj',
    signOutAnyway: 'Vseeno se odjavi in izbriši',
  },
} as const;

/**
 * A season without a developer, server side: the refusals of record writes (seasons, farmers,
 * meadows), farmers' sign-in accounts and activation links, and bulk import. `{name}` marks are
 * replaced with `fillText`.
 */
export const slSeasonServer = {
  rules: {
    seasonDatesOrder: 'Začetek sezone ({start}) je po njenem koncu ({end}).',
    seasonReviewBeforeSubmit: 'Rok za pregled ({review}) je pred rokom za oddajo ({submit}).',
    seasonAppealDays: 'Dni za pritožbo mora biti celo število od 0 do {max}, ne »{value}«.',
    seasonOverlap: 'Sezona se prekriva s sezono »{name}« ({start} – {end}). Sezone se ne smejo prekrivati.',
    farmerEmailTaken: 'Kmet z e-poštnim naslovom {email} že obstaja (»{name}«).',
    farmerKmgMidTaken: 'Kmet s KMG-MID {kmgMid} že obstaja (»{name}«).',
    farmerEmailInvalid: 'E-poštni naslov »{email}« ni veljaven.',
    meadowNotPolygon: 'Meja travnika mora biti mnogokotnik (Polygon ali MultiPolygon), ne {type}.',
    meadowSelfIntersects: 'Meja travnika seka samo sebe (pri {lon}, {lat}). Popravite oglišča.',
    meadowNoArea: 'Meja travnika nima površine.',
  },
  accounts: {
    keycloak: 'Računi za prijavo so v Keycloaku: tam jih ustvarite in aktivirate. Aplikacija zapiše le podatke kmeta.',
    notEmbedded: 'Ta način prijave ({mode}) ne podpira aktivacijskih povezav.',
    noEmail: 'Kmet nima e-poštnega naslova, zato zanj ni mogoče ustvariti računa.',
    notAFarmer: 'Zapis {id} ni kmet tega projekta.',
    alreadyActive: 'Račun {email} je že aktiviran.',
  },
  activation: {
    title: 'Nastavitev gesla — Moj travnik',
    heading: 'Nastavite geslo',
    intro: 'Račun: {email}. Izberite geslo z vsaj {min} znaki in ga vpišite dvakrat.',
    passwordLabel: 'Novo geslo',
    repeatLabel: 'Ponovite geslo',
    submit: 'Shrani geslo',
    missing: 'Vpišite geslo v obe polji.',
    tooShort: 'Geslo mora imeti vsaj {min} znakov.',
    tooLong: 'Geslo je predolgo (največ {max} znakov).',
    mismatch: 'Gesli se ne ujemata.',
    tooManyAttempts: 'Preveč poskusov. Počakajte minuto in poskusite znova.',
    doneHeading: 'Geslo je nastavljeno',
    done: 'Zdaj se lahko prijavite s svojim e-poštnim naslovom in novim geslom.',
    toApp: 'Odpri aplikacijo',
    invalidHeading: 'Povezava ni veljavna',
    invalid: 'Ta aktivacijska povezava ne obstaja, je bila že uporabljena ali nadomeščena z novo. Za novo povezavo prosite svojega svetovalca.',
    expiredHeading: 'Povezava je potekla',
    expired: 'Aktivacijska povezava je veljala 7 dni in je potekla. Za novo povezavo prosite svojega svetovalca.',
  },
  import: {
    fileMissing: 'Manjka datoteka (polje »file«).',
    kindInvalid: 'Vrsta uvoza mora biti »farmers« (kmetje) ali »areas« (travniki).',
    mappingInvalid: 'Preslikava stolpcev ni veljavna: {reason}',
    unknownFormat: 'Neznana oblika datoteke. Kmetje: CSV; travniki: GeoJSON, GeoPackage (.gpkg) ali stisnjen Shapefile (.zip).',
    unreadable: 'Datoteke ni mogoče prebrati: {reason}',
    emptyFile: 'Datoteka nima vrstic.',
    refusedRows: 'Uvoz ni izveden: {count} vrstic je zavrnjenih. Popravite jih in poskusite znova.',
    unknownCrs: 'Neznan koordinatni sistem {crs}. Podprta sta WGS84 (EPSG:4326) in D96/TM (EPSG:3794).',
    noGeometry: 'Vrstica nima geometrije.',
    badGeometry: 'Neveljavna geometrija: {reason}',
    missingKey: 'Manjka {column}.',
    missingFarmer: 'Kmet s KMG-MID {kmgMid} ne obstaja (ne v bazi ne v uvozu kmetov).',
    duplicateInFile: '{column} {value} se v datoteki ponovi (tudi v vrstici {first}).',
    wrongType: 'Stolpec {column}: vrednost »{value}« ni {type}.',
    rowRefused: '{reason}',
    progress: 'Uvoz',
  },
} as const;

/** Replaces each `{name}` in a Slovenian text with its value. */
export function fillText(text: string, values: Readonly<Record<string, string | number>>): string {
  return text.replace(/\{(\w+)\}/g, (mark, name: string) => (name in values ? String(values[name]) : mark));
}

/** Map, walk recording, drawing and offline downloads (features map, location, download). */
export const slMap = {
  map: {
    label: 'Karta',
    legend: 'Legenda',
    areas: 'Travniki',
    paths: 'Poti',
    indicators: 'Indikatorji',
    myLocation: 'Moja lokacija',
    farmerFilter: 'Kmet',
    allFarmers: 'Vsi kmetje',
    showAll: 'Prikaži vse',
    /** `{m}` is the accuracy radius in metres. */
    accuracy: 'natančnost ±{m} m',
    missingTiles: 'Ta del karte ni prenesen za uporabo brez povezave. Prikazani so le vaši podatki.',
    error: 'Karte ni bilo mogoče prikazati. Vaši podatki so varno shranjeni.',
    noWebgl: 'Vaš brskalnik ne more prikazati karte (WebGL ni na voljo).',
  },
  recording: {
    title: 'Snemanje poti',
    start: 'Začni snemanje',
    pause: 'Premor',
    resume: 'Nadaljuj',
    finish: 'Končaj',
    discard: 'Zavrzi',
    distance: 'Razdalja',
    duration: 'Trajanje',
    accuracy: 'Natančnost',
    statusRecording: 'Snemam',
    statusPaused: 'Premor',
    waitingForFix: 'Čakam na signal GPS ...',
    /** `{m}` = current accuracy, `{limit}` = the accepted limit, both in metres. */
    poorAccuracy: 'Slab signal GPS (±{m} m). Upoštevam le položaje, natančnejše od {limit} m.',
    unsupported: 'Ta naprava ne omogoča določanja lokacije.',
    wakeLockUnavailable: 'Zaslon se lahko med snemanjem ugasne. Pustite aplikacijo odprto.',
    /** Under a walk under way: leaving the path's screen does not stop it. */
    goesOn: 'Snemanje teče naprej, tudi ko odprete obrazec poti.',
    resumePrompt: 'Najdeno je prekinjeno snemanje poti. Ali ga želite nadaljevati?',
    resumeYes: 'Nadaljuj snemanje',
    resumeNo: 'Zavrzi posnetek',
    summaryTitle: 'Povzetek snemanja',
    goodShare: 'Dobri položaji',
    gaps: 'Vrzeli (brez signala ali skrita aplikacija)',
    rejectedJumps: 'Zavrnjeni skoki',
    rejectedAccuracy: 'Zavrnjeni zaradi slabe natančnosti',
    pauses: 'Premori',
    points: 'Točke (posnete / shranjene)',
    save: 'Shrani pot',
    saved: 'Pot je shranjena na napravi in bo poslana, ko bo povezava na voljo.',
    /** After saving with a connection: the walk is queued and sent at once. */
    savedOnline: 'Pot je shranjena in se pošilja.',
    noGeometry: 'Ni dovolj dobrih položajev za pot. Poskusite znova na odprtem.',
    saveFailed: 'Poti ni bilo mogoče shraniti na napravo.',
    /** On another path's screen while a walk is recorded (or finished and not saved): `name` = the walk's path. */
    otherPath: (name: string) => (name ? `Snemate hojo po poti ${name}. Naenkrat se snema ena pot.` : 'Snemate hojo po drugi poti. Naenkrat se snema ena pot.'),
    toOtherPath: 'Na pot, ki jo snemate',
  },
  draw: {
    drawPath: 'Nariši pot',
    editPath: 'Popravi pot',
    placeIndicator: 'Označi indikator',
    save: 'Shrani',
    cancel: 'Prekliči',
    hintLine: 'Tapnite točke poti na karti; zadnjo točko tapnite dvakrat.',
    hintEdit: 'Premaknite oglišča poti; tapnite vmesno točko, da dodate oglišče, ali oglišče, da ga lahko izbrišete.',
    hintPoint: 'Tapnite mesto indikatorja na karti.',
    saved: 'Sprememba je shranjena na napravi.',
  },
  download: {
    listTitle: 'Prenesena območja',
    empty: 'Ni še prenesenih območij. Prenesite svoje travnike, da bo karta delovala brez signala.',
    newDownload: 'Novo območje',
    name: 'Ime',
    area: 'Površina',
    zoom: 'Povečave',
    tiles: 'Ploščice',
    size: 'Velikost',
    date: 'Datum',
    features: 'Objekti',
    refresh: 'Osveži',
    delete: 'Izbriši',
    /** `{name}` is the extent's name. */
    confirmDelete: 'Ali želite izbrisati preneseno območje »{name}«?',
    incomplete: 'Prenos ni končan',
    newTitle: 'Novo območje za delo brez povezave',
    chooseExtent: 'Premaknite karto tako, da okvir zajame območje, ki ga želite prenesti.',
    useView: 'Okvir karte',
    /** `{m}` is the buffer in metres. */
    useMyAreas: 'Moji travniki (+ {m} m)',
    namePlaceholder: 'npr. Travniki pri domu',
    minZoom: 'Najmanjša povečava',
    maxZoom: 'Največja povečava',
    tileCount: 'Število ploščic',
    estimatedSize: 'Ocenjena velikost',
    freeSpace: 'Prosti prostor na napravi',
    unknown: 'ni znano',
    start: 'Prenesi',
    cancel: 'Prekliči prenos',
    resume: 'Nadaljuj prenos',
    /** `{done}` and `{total}` are tile counts. */
    progress: 'Preneseno {done} od {total}',
    offlinePaused: 'Ni povezave: prenos bo mogoče nadaljevati, ko bo povezava spet na voljo.',
    done: 'Prenos je končan. Območje je na voljo brez povezave.',
    cancelled: 'Prenos je prekinjen. Nadaljujete ga lahko s seznama območij.',
    /** `{max}` is the tile limit. */
    tooMany: 'Območje je preveliko ({count} ploščic, največ {max}). Zmanjšajte območje ali največjo povečavo.',
    notEnoughSpace: 'Na napravi ni dovolj prostora za ta prenos.',
    nameRequired: 'Vpišite ime območja.',
    invalidExtent: 'Izberite veljavno območje na karti.',
    failed: 'Prenos ni uspel: {message}',
  },
} as const;

/** Sync, offline data and the season loading chain. */
export const slSync = {
  sync: {
    panelTitle: 'Pošiljanje sprememb',
    pending: 'Čaka na pošiljanje',
    failed: 'Ni uspelo',
    conflict: 'Spor pri urejanju',
    conflictExplain: 'Zapis je medtem na strežniku spremenil nekdo drug.',
    /** A farmer's edit of a form the adviser meanwhile took into review or decided on. */
    lockedExplain: 'Obrazec je medtem v stanju »{state}«, zato sprememba ni shranjena. Nič ni izgubljeno: pošljite jo svetovalcu kot komentar ali jo zavrzite.',
    lockedValues: 'Vaša sprememba',
    sendAsComment: 'Pošlji svetovalcu kot komentar',
    discardMine: 'Zavrzi mojo spremembo',
    lockedComment: 'Sprememba, ki je aplikacija ni mogla shraniti, ker je bil obrazec že v pregledu ({record}): {changes}',
    lockedNoValues: 'fotografija ali izbris',
    lockedNoForm: 'Obrazca te spremembe ni mogoče najti, zato je ni mogoče poslati kot komentar.',
    /** The table of a conflict's differing values: column, the user's value, the server's. */
    field: 'Podatek',
    yours: 'Vaša različica',
    theirs: 'Na strežniku',
    sameValues: 'Vrednosti, ki ste jih spremenili, so enake kot na strežniku.',
    /** A record with nothing better to name it by. */
    recordId: (id: number): string => `zapis ${id}`,
    /** Why the server refused an edit, by its answer's status (the server's own detail follows). */
    refusedBecause: {
      400: 'Strežnik je spremembo zavrnil, ker podatki niso veljavni.',
      403: 'Te spremembe nimate dovoljenja narediti.',
      404: 'Zapisa na strežniku ni več: morda ga je medtem kdo izbrisal.',
      413: 'Sprememba je prevelika, da bi jo strežnik sprejel.',
      other: 'Strežnik spremembe ni sprejel.',
    } as Readonly<Record<number | 'other', string>>,
    /** An attachment whose file is no longer on the device (nothing to send). */
    fileMissing: 'Datoteke te priloge na napravi ni več.',
    details: 'Podrobnosti',
    keepMine: 'Obdrži mojo različico',
    takeTheirs: 'Prevzemi različico s strežnika',
    retry: 'Poskusi znova',
    discard: 'Zavrzi spremembo',
    lastSync: 'Zadnja uspešna sinhronizacija',
    neverSynced: 'še ni bilo',
    allSent: 'Vse spremembe so poslane.',
    backingOff: 'Strežnik trenutno ni dosegljiv. Spremembe so shranjene na napravi in bodo poslane samodejno.',
    signInRequired: 'Za pošiljanje sprememb se znova prijavite. Spremembe so varno shranjene na napravi.',
    quotaExceeded: 'Na napravi ni več prostora, zato sprememba ni shranjena. Sprostite prostor (npr. izbrišite prenesena območja) in poskusite znova.',
    storageFailed: 'Podatkov ni bilo mogoče shraniti na napravo. Poskusite znova.',
    reloadRequired: 'V drugem zavihku se je posodobila zbirka podatkov. Osvežite to stran.',
    kinds: {
      insert: 'Nov zapis',
      update: 'Sprememba zapisa',
      delete: 'Brisanje zapisa',
      archive: 'Arhiviranje zapisa',
      attachment: 'Nova priloga',
      attachmentDelete: 'Brisanje priloge',
    },
  },
  season: {
    noCurrentDuration: 'Za današnji dan ni odprtega obdobja spremljanja.',
    loadFailed: 'Podatkov ni bilo mogoče naložiti.',
    offlineData: 'Brez povezave: prikazani so podatki, shranjeni na napravi.',
  },
} as const;

// ── QA action log: export on /about ──
export const slQa = {
  qa: {
    title: 'Dnevnik dejanj za preverjanje',
    explain:
      'Aplikacija si na napravi zapisuje zadnja dejanja (brez gesel, žetonov in fotografij). Če pride do napake, dnevnik izvozite in ga pošljite podpori.',
    export: 'Izvozi dnevnik',
    exporting: 'Izvažam...',
    exported: 'Dnevnik je izvožen.',
    empty: 'Dnevnik je prazen.',
    failed: 'Dnevnika ni bilo mogoče izvoziti.',
    entries: 'Število zapisov',
  },
} as const;

/** Local layers: GeoJSON/GPX/KML files kept on the device and shown on the map. */
export const slLocalLayers = {
  localLayers: {
    title: 'Lastni sloji',
    add: 'Dodaj sloj iz datoteke',
    fileLabel: 'Datoteka (GeoJSON, GPX ali KML)',
    name: 'Ime sloja',
    color: 'Barva',
    show: 'Prikaži',
    delete: 'Izbriši sloj',
    empty: 'Ni lastnih slojev. Dodate lahko npr. lansko pot iz druge aplikacije ali meje parcel.',
    /** `{count}` is the number of features. */
    added: 'Sloj je dodan ({count} objektov). Ostane na tej napravi in deluje brez povezave.',
    errorUnreadable: 'Datoteke ni bilo mogoče prebrati: ni veljaven GeoJSON, GPX ali KML.',
    errorEmpty: 'Datoteka ne vsebuje nobenega objekta z lego.',
    errorTooLarge: 'Datoteka je prevelika (največ {max}).',
    errorCoordinates: 'Datoteka vsebuje neveljavne koordinate (pričakovane so geografske dolžine in širine WGS84).',
    errorStorage: 'Sloja ni bilo mogoče shraniti na napravo.',
    colors: { red: 'rdeča', blue: 'modra', orange: 'oranžna', black: 'črna' },
  },
} as const;

// ── The field on a phone: the form's states and help, editors' home, offline history ──
export const slPhone = {
  form: {
    /** A form with nothing answered yet has no score (not a bad 0). */
    noScoreYet: 'Še ni ocene',
    /** Read by screen readers after a required indicator's name. */
    required: '(obvezno)',
    /** Saved although required answers are missing (the form is not marked completed). */
    missingTitle: 'Shranjeno, a manjkajo obvezni odgovori:',
    /** The error summary's heading when a completed form cannot be saved. */
    summaryHint: 'Izberite napako, da skočite na polje.',
  },
  staff: {
    /** Home of editors and readers: what they see there. */
    homeLead: 'Travniki, poti in obrazci kmetov v trenutni sezoni. Izberite kmeta, da vidite njegove travnike.',
    areasOf: (name: string): string => `Travniki: ${name}`,
    /** Hidden after "Odpri" / "Izbran" on a farmer's button, so screen readers hear whose it is. */
    openFarmer: (name: string): string => `travnike: ${name}`,
    chosenFarmer: (name: string): string => `: ${name}`,
    /** Paths, forms and results of editors and readers before a farmer is chosen. */
    chooseFarmerFirst: 'Najprej na domači strani izberite kmeta; tu bodo nato njegove poti in obrazci.',
  },
  /** MapLibre's own control labels (its `locale` option), in Slovenian. */
  mapLocale: {
    'AttributionControl.ToggleAttribution': 'Pokaži ali skrij avtorstvo zemljevida',
    'AttributionControl.MapFeedback': 'Povratne informacije o zemljevidu',
    'FullscreenControl.Enter': 'Celozaslonski prikaz',
    'FullscreenControl.Exit': 'Izhod iz celozaslonskega prikaza',
    'GeolocateControl.FindMyLocation': 'Poišči mojo lokacijo',
    'GeolocateControl.LocationNotAvailable': 'Lokacija ni na voljo',
    'LogoControl.Title': 'Logotip MapLibre',
    'Map.Title': 'Zemljevid',
    'Marker.Title': 'Oznaka na zemljevidu',
    'NavigationControl.ResetBearing': 'Obrni zemljevid proti severu',
    'NavigationControl.ZoomIn': 'Povečaj',
    'NavigationControl.ZoomOut': 'Pomanjšaj',
    'Popup.Close': 'Zapri',
    'ScaleControl.Feet': 'ft',
    'ScaleControl.Meters': 'm',
    'ScaleControl.Kilometers': 'km',
    'ScaleControl.Miles': 'mi',
    'ScaleControl.NauticalMiles': 'nmi',
    'GlobeControl.Enable': 'Prikaz globusa',
    'GlobeControl.Disable': 'Izklopi prikaz globusa',
    'TerrainControl.Enable': 'Vklopi teren',
    'TerrainControl.Disable': 'Izklopi teren',
    'CooperativeGesturesHandler.WindowsHelpText': 'Za povečavo zemljevida uporabite Ctrl in kolešček miške',
    'CooperativeGesturesHandler.MacHelpText': 'Za povečavo zemljevida uporabite ⌘ in kolešček miške',
    'CooperativeGesturesHandler.MobileHelpText': 'Zemljevid premikate z dvema prstoma',
  },
  secondForm: {
    /** Creating a form of a kind the path already has this season asks first. */
    question: (title: string): string => `Ta pot ima v tej sezoni že obrazec »${title}«. Želite ustvariti še enega?`,
    confirm: 'Ustvari še enega',
  },
  history: {
    /** A path's earlier seasons offline, when the device holds none of them. */
    onlineOnly: 'Na napravi ni rezultatov preteklih sezon za to pot. Morebitni starejši rezultati so na voljo s povezavo.',
  },
} as const;

// ── Field screens: home, paths, forms, results, farmers ──
export const slScreens = {
  score: {
    label: 'Ocena',
    none: slHome.noScore,
    /** Accessible text of a badge: 'Ocena 72 – dobro'. */
    aria: (score: number, word: string): string => `Ocena ${score} – ${word}`,
  },
  states: {
    offline: 'Brez povezave: prikazani so podatki, shranjeni na napravi.',
    error: 'Podatkov ni bilo mogoče naložiti.',
    notLoaded: 'Podatki še niso naloženi.',
    needsOnline: 'Ta podatek je na voljo le s povezavo.',
    readOnly: 'Kot bralec podatke le pregledujete.',
    readOnlyPastSeason: 'Obrazec pretekle sezone je le za ogled.',
    saved: 'Shranjeno. Spremembe bodo poslane, ko bo povezava na voljo.',
    savedOnline: 'Shranjeno.',
    saveFailed: 'Shranjevanje ni uspelo.',
  },
  status: {
    'not-walked': slHome.notWalked,
    walked: 'Prehojena',
    'form-done': 'Obrazec izpolnjen',
  },
  home: {
    season: slHome.season,
    seasonTitle: slHome.seasonTitle,
    window: slHome.window,
    noSeason: slHome.noSeason,
    areas: slHome.areas,
    noAreas: 'Nimate še nobenega travnika. Travnike vpiše svetovalec.',
    noPaths: slHome.noPaths,
    sync: 'Pošiljanje',
    pending: (n: number): string => (n === 0 ? 'Vse spremembe so poslane.' : `Na pošiljanje čaka sprememb: ${num(n)}.`),
    lastSync: 'Zadnja sinhronizacija',
    never: 'še ni bilo',
    online: 'Povezano s strežnikom',
    offline: 'Brez povezave – delo se shranjuje na napravo',
    progress: slHome.progress,
    chooseFarmer: 'Izberite kmeta, da vidite njegove travnike.',
    viewingFarmer: 'Prikazan je kmet',
  },
  farmers: {
    title: 'Kmetje',
    search: 'Iskanje kmeta',
    searchPlaceholder: 'Ime, e-pošta ali KMG-MID',
    none: 'Ni kmetov, ki ustrezajo iskanju.',
    choose: 'Odpri',
    chosen: 'Izbran',
    progress: 'Napredek v sezoni',
    progressValue: (done: number, total: number): string => `${num(done)}/${num(total)} poti`,
    searchOffline: 'Brez povezave iščem med kmeti, shranjenimi na napravi.',
  },
  paths: {
    area: 'Travnik',
    length: 'Dolžina',
    lastWalk: 'Zadnja hoja',
    notWalked: 'še ni bila prehojena',
    status: 'Stanje v sezoni',
    open: 'Odpri pot',
    notFound: 'Te poti ni med vašimi potmi.',
    map: 'Zemljevid poti',
    record: 'Snemanje hoje',
    seasonForms: 'Obrazci v tej sezoni',
    noForms: 'Za to pot v tej sezoni še ni obrazca.',
    addForm: 'Nov obrazec',
    formKind: 'Vrsta obrazca',
    create: 'Ustvari obrazec',
    noSeason: 'Obrazca ni mogoče dodati: ni odprte sezone.',
    previous: 'Pretekle sezone',
    noPrevious: 'Za to pot ni rezultatov iz preteklih sezon.',
    durationPath: 'Pot v sezoni',
  },
  forms: {
    kind: 'Vrsta',
    path: 'Pot',
    completed: 'Izpolnjen',
    draft: 'V delu',
    open: 'Odpri obrazec',
    notFound: 'Tega obrazca ni med vašimi obrazci.',
    unknownKind: 'Vrsta tega obrazca ni opisana v nastavitvah aplikacije.',
    liveScore: 'Ocena travnika',
    explain: 'Kaj je vplivalo na oceno',
    base: (points: string): string => `Izhodišče: ${points}`,
    noEffects: 'Noben kazalnik še ni vplival na oceno.',
    rule: 'Pravilo',
    yes: 'Da',
    no: 'Ne',
    notSet: 'Ni podatka',
    more: 'Opis',
    note: 'Opomba',
    formNote: 'Opomba k obrazcu',
    location: 'Lokacija',
    useMyLocation: 'Moja lokacija',
    pickOnMap: 'Izberi na zemljevidu',
    removeLocation: 'Odstrani lokacijo',
    locationSet: (lat: string, lon: string): string => `${lat} N, ${lon} E`,
    locationFailed: 'Lokacije ni bilo mogoče določiti.',
    tapMap: 'Tapnite na zemljevid, kjer ste kazalnik opazili.',
    photos: 'Fotografije',
    addPhoto: 'Fotografiraj',
    photoAlt: (name: string): string => `Fotografija: ${name}`,
    photoFailed: 'Fotografije ni bilo mogoče obdelati.',
    photoPending: 'čaka na pošiljanje',
    removePhoto: 'Odstrani fotografijo',
    markCompleted: 'Obrazec je izpolnjen',
    save: 'Shrani obrazec',
    saving: 'Shranjujem...',
    restoredTitle: 'Obnovljeni so odgovori, ki jih na tem obrazcu še niste shranili.',
    restoredHint: 'Shranite obrazec, da jih obdržite.',
    discardRestored: 'Zavrzi neshranjene odgovore',
    errorsTitle: 'Obrazca ni mogoče shraniti kot izpolnjenega:',
    archive: 'Arhiviraj obrazec',
    archiveTitle: 'Arhiviranje obrazca',
    archiveConfirm: 'Arhiviran obrazec izgine iz pogleda kmeta in se ne šteje v rezultate. Ali ga res želite arhivirati?',
    archived: 'Obrazec je arhiviran.',
    history: 'Zgodovina sprememb',
    previousSeason: 'Pretekla sezona',
  },
  about: {
    storageTitle: 'Shramba in pošiljanje',
    storageMeasuring: 'Merim porabo prostora...',
    storageUnknown: 'Brskalnik ne pove, koliko prostora aplikacija porabi.',
    storageUsed: (used: string, quota: string | null): string =>
      quota ? `Aplikacija na napravi porabi ${used} od razpoložljivih ${quota}.` : `Aplikacija na napravi porabi ${used}.`,
  },
  archive: {
    path: 'Arhiviraj pot',
    pathTitle: 'Arhiviranje poti',
    pathConfirm: 'Arhivirana pot izgine iz pogleda kmeta, njeni pretekli rezultati ostanejo shranjeni. Ali jo res želite arhivirati?',
    area: 'Arhiviraj travnik',
    areaTitle: 'Arhiviranje travnika',
    areaConfirm: 'Arhiviran travnik in njegove poti izginejo iz pogleda kmeta. Ali ga res želite arhivirati?',
    indicator: 'Arhiviraj kazalnik',
    indicatorTitle: 'Arhiviranje kazalnika',
    indicatorConfirm: (name: string): string => `Arhiviran kazalnik »${name}« izgine iz obrazca in se ne šteje več v oceno. Ali ga res želite arhivirati?`,
  },
  results: {
    filters: 'Filtri',
    season: 'Sezona',
    allSeasons: 'Vse sezone',
    area: 'Travnik',
    allAreas: 'Vsi travniki',
    kind: 'Vrsta obrazca',
    allKinds: 'Vse vrste',
    chart: 'Ocene po sezonah',
    table: 'Preglednica ocen',
    path: 'Pot',
    score: 'Ocena',
    lastSeason: 'Prejšnja sezona',
    change: 'Sprememba',
    explanation: 'Razlaga',
    export: 'Izvozi CSV',
    exportGeoJson: 'Izvozi GeoJSON',
    exporting: 'Pripravljam izvoz...',
    exportFailed: 'Izvoz ni uspel.',
    exportNeedsOnline: 'Zgodovina sprememb za izvoz je na voljo le s povezavo; izvoz brez nje je brez zgodovine.',
    none: 'Ni rezultatov za izbrane filtre.',
    farmer: 'Kmet',
    csv: {
      farmer: 'kmet',
      area: 'travnik',
      path: 'pot',
      season: 'sezona',
      form: 'obrazec',
      kind: 'vrsta',
      score: 'ocena',
      class: 'razred',
      rule: 'pravilo',
      completed: 'izpolnjen',
      updated: 'spremenjeno',
      history: 'zgodovina sprememb',
    },
    // Editors and readers: all farmers at once.
    allFarmers: 'Vsi kmetje',
    allFarmersLead: 'Ocene vseh kmetov po poteh, travnikih in sezonah.',
    exportProgress: (done: number, total: number): string => `Pripravljam izvoz... ${num(done)}/${num(total)}`,
    summaryFarmers: 'Povzetek po kmetih',
    summaryAreas: 'Povzetek po travnikih',
    average: 'Povprečna ocena',
    count: 'Obrazcev z oceno',
  },
} as const;

// ── Season set-up by editors (seasons, farmers, accounts, meadows, transects, import) and farmers' own transects ──
export const slSetup = {
  nav: 'Urejanje',
  blockedFarmer: 'Ta stran je namenjena svetovalcem. Svoje travnike in poti najdete na začetni strani.',
  blockedEditorsOnly: 'To stran lahko odpre le urednik.',
  hub: {
    title: 'Urejanje sezone',
    lead: 'Sezone, kmetje, travniki, poti in uvoz iz datotek.',
    readOnly: 'Kot bralec nastavitve le pregledujete.',
  },
  common: {
    archive: 'Arhiviraj',
    archived: 'arhivirano',
    edit: 'Uredi',
    add: 'Dodaj',
    required: (label: string): string => `Vpišite polje »${label}«.`,
    onlineOnly: 'To je na voljo le s povezavo s strežnikom.',
    refused: 'Strežnik je zavrnil spremembo',
    savedOffline: 'Shranjeno na napravo. Poslano bo, ko bo povezava na voljo.',
    saved: 'Shranjeno.',
    none: 'Ni vnosov.',
    back: 'Nazaj na urejanje',
    finishDrawing: 'Končaj risanje',
  },
  seasons: {
    title: 'Sezone',
    lead: 'Obdobja spremljanja. Trenutna je sezona, ki vsebuje današnji dan.',
    add: 'Nova sezona',
    name: 'Ime sezone',
    start: 'Začetek',
    end: 'Konec',
    current: 'trenutna',
    currentRule: 'Trenutna sezona je tista, katere obdobje (od začetka do konca) vsebuje današnji dan.',
    noCurrent: 'Danes ni odprte sezone.',
    badOrder: 'Konec sezone ne sme biti pred začetkom.',
    submitUntil: 'Rok za oddajo obrazcev',
    reviewUntil: 'Rok za pregled',
    appealDays: 'Dni za pritožbo',
    appealDaysHint: 'Koliko dni po odločitvi svetovalca lahko kmet vloži pritožbo. Prazno: brez omejitve.',
    deadlines: 'Roki',
    noDeadline: 'brez roka',
    appealDaysInvalid: 'Dni za pritožbo mora biti celo število od 0 do 365.',
    reviewBeforeSubmit: 'Rok za pregled ne sme biti pred rokom za oddajo.',
    overlap: (name: string): string => `Sezona se prekriva s sezono »${name}«. Obdobja sezon se ne smejo prekrivati.`,
    archiveConfirm: (name: string): string => `Arhiviram sezono »${name}«? Kmetje je ne bodo več videli.`,
  },
  farmers: {
    title: 'Kmetje',
    lead: 'Kmetje v shemi in njihov dostop do aplikacije.',
    add: 'Nov kmet',
    name: 'Ime in priimek',
    email: 'E-pošta',
    phone: 'Telefon',
    kmgMid: 'KMG-MID',
    badEmail: 'E-poštni naslov ni veljaven.',
    duplicateEmail: 'Kmet s tem e-poštnim naslovom že obstaja.',
    duplicateKmg: 'Kmet s to številko KMG-MID že obstaja.',
    archiveConfirm: (name: string): string => `Arhiviram kmeta »${name}«?`,
    account: 'Dostop do aplikacije',
    accountButton: 'Račun',
    accountUnavailable: 'Stanja računa ni bilo mogoče prebrati s strežnika.',
    accountOffline: 'Stanje računa in povezave za aktivacijo so na voljo le s povezavo s strežnikom.',
    accountNotYet: 'Kmet še ni na strežniku. Ko bo sprememba poslana, boste tukaj ustvarili povezavo za aktivacijo.',
    accountActive: 'Račun je aktiviran. Kmet se prijavi s svojim geslom.',
    accountPending: (until: string): string => `Povezava za aktivacijo čaka na uporabo (velja do ${until}).`,
    accountNone: 'Račun še ni aktiviran.',
    accountKeycloak: 'Račun kmeta se upravlja v sistemu Keycloak, ne v tej aplikaciji.',
    newLink: 'Nova povezava',
    createLink: 'Ustvari povezavo za aktivacijo',
    linkLead: 'Povezavo predajte kmetu (sporočilo, e-pošta). Velja enkrat, do',
    linkReplaces: 'Nova povezava nadomesti neuporabljeno prejšnjo.',
    copy: 'Kopiraj',
    copied: 'Kopirano.',
  },
  areas: {
    title: 'Travniki',
    lead: 'Travniki kmetov: obris na zemljevidu, GERK-PID in lastnik.',
    add: 'Nov travnik',
    name: 'Ime travnika',
    gerkPid: 'GERK-PID',
    owner: 'Kmet (lastnik)',
    chooseOwner: 'Izberite kmeta',
    allOwners: 'Vsi kmetje',
    areaHa: 'Površina',
    ha: (value: string): string => `${value} ha`,
    draw: 'Obris travnika',
    drawHint: 'Tapnite oglišča travnika na zemljevidu; zadnje tapnite dvakrat. Oglišča lahko nato premikate.',
    noPolygon: 'Na zemljevidu narišite obris travnika.',
    tooFew: 'Obris travnika potrebuje vsaj tri oglišča.',
    selfIntersecting: 'Obris travnika seka samega sebe. Popravite oglišča, da se robovi ne križajo.',
    /** An outline far outside the scheme's meadows: asked before it is saved. */
    tooLarge: (ha: string, max: string): string =>
      `Travnik meri ${ha} ha, travniki v shemi pa največ okoli ${max} ha. Ste obris morda narisali pri premajhni povečavi? Preverite ga na zemljevidu.`,
    tooSmall: (ha: string, min: string): string =>
      `Travnik meri le ${ha} ha (manj kot ${min} ha). Ste obris morda narisali pri preveliki povečavi? Preverite ga na zemljevidu.`,
    saveAnyway: 'Obris je pravilen, shrani',
    /** Shown while the only base map is the built-in one: it has no field-scale detail to follow. */
    basemapNote:
      'Vgrajena osnovna karta kaže le državne meje in mrežo, ne parcel in travnikov: obris po njej je le približen. Za risanje po parcelah naj skrbnik strežnika doda ortofoto (nastavitev basemaps, opisana v docs/maps.md).',
    archiveConfirm: (name: string): string => `Arhiviram travnik »${name}« z vsemi potmi?`,
  },
  paths: {
    title: 'Poti',
    lead: 'Poti (transekti) na travnikih. Pot lahko narišete ali jo pustite kmetu, da jo prehodi.',
    add: slHome.newPath,
    name: 'Ime poti',
    area: 'Travnik',
    chooseArea: 'Izberite travnik',
    allAreas: 'Vsi travniki',
    how: 'Kako nastane pot',
    howDraw: 'Narišem jo na zemljevidu',
    howWalk: 'Kmet jo bo prehodil',
    howWalkSelf: 'Prehodim jo',
    drawHint: 'Tapnite točke poti na zemljevidu; zadnjo tapnite dvakrat.',
    noLine: 'Na zemljevidu narišite pot.',
    notDrawn: 'še ni narisana',
    outside: (meters: number, margin: number): string => `Pot sega ${meters} m zunaj travnika (dovoljeno je ${margin} m). Jo vseeno shranim?`,
    tooLong: (length: string, perimeter: string): string =>
      `Pot je dolga ${length} m, obod travnika pa meri le ${perimeter} m. Pot, ki prečka travnik, je krajša od njegovega oboda. Jo vseeno shranim?`,
    saveAnyway: 'Vseeno shrani',
    archiveConfirm: (name: string): string => `Arhiviram pot »${name}«?`,
    newForFarmer: 'Nova pot na mojem travniku',
    newForFarmerLead: 'Pot narišite na zemljevidu ali jo prehodite. Shrani se na napravo in pošlje, ko je povezava na voljo.',
    walkNext: 'Začnite hojo. Pot se shrani, ko shranite hojo.',
    correct: 'Popravi pot',
    correctHint: 'Premaknite oglišča; tapnite oglišče in ga izbrišite, tudi na koncih poti. Surove točke GPS ostanejo shranjene.',
    deleteVertex: 'Izbriši izbrano oglišče',
    corrected: 'Popravljena pot je shranjena.',
    noAreas: 'Nimate travnika, na katerem bi lahko dodali pot.',
  },
  import: {
    title: 'Uvoz',
    lead: 'Uvoz kmetov iz CSV in travnikov iz GeoJSON, GeoPackage ali stisnjene datoteke Shapefile.',
    kind: 'Kaj uvažam',
    kindFarmers: 'Kmetje (CSV)',
    kindAreas: 'Travniki (GeoJSON, GeoPackage, Shapefile v ZIP)',
    file: 'Datoteka',
    preview: 'Preberi datoteko',
    mapping: 'Povezava stolpcev',
    mappingLead: 'Za vsak stolpec datoteke izberite stolpec tabele ali »ne uvozi«.',
    source: 'Stolpec v datoteki',
    target: 'Stolpec v tabeli',
    skip: '— ne uvozi —',
    sample: 'Primer',
    crs: 'Koordinatni sistem',
    dryRun: 'Preveri uvoz',
    report: 'Kaj se bo zgodilo',
    counts: (created: number, updated: number, refused: number): string => `Novih: ${created}, posodobljenih: ${updated}, zavrnjenih: ${refused}`,
    row: 'Vrstica',
    action: 'Dejanje',
    key: 'Ključ',
    reason: 'Razlog',
    actions: { create: 'nov', update: 'posodobitev', refuse: 'zavrnjeno' },
    commit: 'Uvozi',
    committed: (created: number, updated: number): string => `Uvoženo. Novih: ${created}, posodobljenih: ${updated}.`,
    refusedRows: 'Uvoz ni bil izveden, ker so nekatere vrstice zavrnjene. Popravite datoteko ali povezavo stolpcev.',
    failed: 'Uvoz ni uspel.',
    chooseFile: 'Izberite datoteko.',
  },
} as const;

// ── QA action log in test builds: importing a log and replaying it on /about ──
export const slQaReplay = {
  replay: {
    title: 'Ponovitev dnevnika (preverjanje)',
    explain: 'Izberite izvoženi dnevnik. Dejanja se ponovijo v ločeni, začasni shrambi; podatki na tej napravi ostanejo nespremenjeni.',
    choose: 'Izberi dnevnik',
    running: 'Ponavljam dejanja...',
    actions: 'Ponovljena dejanja',
    finalHash: 'Končni odtis stanja',
    loggedHash: 'zapisani',
    match: 'Vsa stanja se ujemajo z dnevnikom.',
    diverged: 'Razhajanje pri zapisu',
    action: 'dejanje',
    expected: 'pričakovano',
    actual: 'dobljeno',
    invalid: 'Datoteka ni veljaven dnevnik dejanj.',
    downloadState: 'Prenesi končno stanje',
  },
} as const;

/** Request limits: the detail of the API's 429 answer (its message is the catalogue's). */
export const slSecurity = {
  rateLimited: (seconds: number): string => `Preveč zahtev v kratkem času. Poskusite znova čez ${waitText(seconds)}.`,
} as const;

// ── The editors' audit trail "Zgodovina sprememb": every change in the project, screen and CSV ──
export const slAudit = {
  title: 'Zgodovina sprememb',
  lead: 'Vse spremembe v projektu: kdo, kdaj, v kateri tabeli in zapisu, prej → potem.',
  tables: {
    farmers: 'Kmetje',
    areas: 'Travniki',
    paths: 'Poti',
    durations: 'Sezone',
    durationPaths: 'Poti v sezoni',
    forms: 'Obrazci',
    indicators: 'Kazalniki',
    comments: 'Komentarji',
  },
  actions: { insert: 'ustvarjeno', update: 'spremenjeno', delete: 'izbrisano', archive: 'arhivirano', unarchive: 'obnovljeno' },
  /** Column names of the seven tables as the trail shows them (an unknown column by its own name). */
  columns: {
    name: 'ime',
    email: 'e-pošta',
    phone: 'telefon',
    kmg_mid: 'KMG-MID',
    user: 'kmet',
    gerk_pid: 'GERK-PID',
    area_ha: 'površina (ha)',
    parent: 'nadrejeni zapis',
    length_m: 'dolžina (m)',
    walk: 'zapis hoje',
    filter_start: 'začetek',
    filter_end: 'konec',
    duration_id: 'sezona',
    path_id: 'pot',
    form_id: 'vrsta obrazca',
    score: 'ocena',
    rule_version: 'različica pravila',
    note: 'opomba',
    completed: 'izpolnjen',
    review_state: 'stanje pregleda',
    review_reason: 'razlog odločitve',
    review_indicator: 'kazalnik odločitve',
    reviewed_by: 'odločil',
    reviewed_at: 'čas odločitve',
    return_until: 'rok za popravek',
    submit_until: 'rok za oddajo',
    review_until: 'rok za pregled',
    appeal_days: 'dni za pritožbo',
    text: 'besedilo',
    indicator: 'kazalnik',
    state: 'stanje',
    author: 'avtor',
    key: 'kazalnik',
    value: 'vrednost',
    geometry: 'geometrija',
  },
  geometryChanged: 'geometrija spremenjena',
  empty: '—',
  yes: 'Da',
  no: 'Ne',
  unknownUser: 'neznan uporabnik',
  filters: 'Izbor sprememb',
  farmer: 'Kmet',
  allFarmers: 'Vsi kmetje',
  table: 'Tabela',
  allTables: 'Vse tabele',
  from: 'Od dne',
  to: 'Do dne',
  when: 'Čas',
  who: 'Uporabnik',
  action: 'Dejanje',
  record: 'Zapis',
  changes: 'Spremembe',
  column: 'Stolpec',
  before: 'Prej',
  after: 'Potem',
  noChanges: 'Ni sprememb za ta izbor.',
  total: (n: number): string => `Najdenih sprememb: ${num(n)}`,
  pageOf: (page: number, pages: number): string => `Stran ${page} od ${pages}`,
  paging: 'Strani',
  previous: 'Prejšnja stran',
  next: 'Naslednja stran',
  downloadCsv: 'Prenesi CSV',
  downloading: 'Pripravljam CSV...',
  downloadFailed: 'CSV ni bilo mogoče prenesti.',
  onlineOnly: 'Zgodovina sprememb je na voljo le s povezavo s strežnikom.',
  failed: 'Zgodovine sprememb ni bilo mogoče naložiti.',
  /** A record's own history (the form screen): its changes and those of the rows under it. */
  recordHistory: {
    loading: 'Nalagam zgodovino sprememb...',
    empty: 'Ni zabeleženih sprememb.',
    entry: (when: string, who: string, action: string): string => `${when}, ${who}: ${action}`,
    more: (shown: number, total: number): string => `Prikazanih je zadnjih ${num(shown)} od ${num(total)} sprememb; vse so v zgodovini sprememb projekta.`,
    notYetSent: 'Obrazec še ni poslan na strežnik, zato še nima zgodovine sprememb.',
  },
  fileName: 'zgodovina-sprememb',
  /** 400 answers of GET /api/Audit: what is wrong with the query. */
  invalid: {
    parameter: (name: string): string => `Neveljaven parameter »${name}«.`,
    unknownParameter: (name: string): string => `Neznan parameter »${name}«.`,
    farmer: (id: number): string => `Kmet ${id} v tem projektu ne obstaja.`,
    table: (id: number): string => `Tabela ${id} v tem projektu ne obstaja.`,
    record: (id: number): string => `Zapis ${id} v tem projektu ne obstaja.`,
    range: 'Začetek obdobja je za njegovim koncem.',
  },
  editorsOnly: 'Zgodovino sprememb vidijo le uredniki.',
} as const;

/**
 * The review loop (src/common/review.ts): the states of a form, the moves, why a move or an edit is
 * refused (the server's 4xx detail, shown as it is), the payment preview. Shared by the server,
 * the farmers' and the advisers' screens.
 */
export const slReview = {
  state: {
    draft: 'Osnutek',
    submitted: 'Oddano v pregled',
    returned: 'Vrnjeno v popravek',
    approved: 'Potrjeno',
    rejected: 'Zavrnjeno',
    appealed: 'Pritožba v obravnavi',
  },
  /** The button of each move, by the state it leads to (a reopen is a move to submitted by an editor). */
  move: {
    submitted: 'Oddaj v pregled',
    approved: 'Potrdi',
    returned: 'Vrni v popravek',
    rejected: 'Zavrni',
    appealed: 'Vloži pritožbo',
    reopen: 'Ponovno odpri',
  },
  refused: {
    transition: 'Obrazca v stanju »{from}« ni mogoče prestaviti v stanje »{to}«.',
    editorsOnly: 'Obrazec v stanje »{to}« prestavi le svetovalec.',
    farmersOnly: 'Pritožbo vloži kmet.',
    reasonMissing: 'Za prehod v stanje »{to}« napišite razlog.',
    submitDeadline: 'Rok za oddajo je potekel {date}.',
    appealDeadline: 'Rok za pritožbo je potekel {date}.',
    unknownState: 'Neznano stanje pregleda »{state}«. Dovoljena so: {states}.',
    /** A farmer's edit of a form (or its indicators, photos) that is not theirs to change now. */
    locked: 'Obrazec je v stanju »{state}«, zato ga ni mogoče spreminjati.',
    incomplete: 'Obrazca ni mogoče oddati, dokler ni izpolnjen: {errors}',
    notCompleted: 'Obrazca ni mogoče oddati, dokler ni označen kot izpolnjen.',
    /** reviewed_by and reviewed_at are the server's. */
    serverColumn: 'Stolpec »{column}« nastavi strežnik.',
    commentEmpty: 'Komentar je prazen.',
    commentNotYours: 'Spreminjate lahko le svoje komentarje.',
    /** review_reason, review_indicator and return_until belong to a move (the thread keeps earlier reasons). */
    withoutMove: 'Stolpec »{column}« se spremeni le ob prehodu obrazca v drugo stanje.',
    /** return_until: the adviser's own deadline for a returned form. */
    returnUntil: 'Rok za popravek določi svetovalec, ko obrazec vrne v popravek.',
    /** review_indicator of a form, indicator of a comment: a key of the form's kind. */
    unknownIndicator: 'Obrazec nima kazalnika »{key}«.',
    /** A form to submit whose kind (form_id) the scheme does not know. */
    unknownKind: 'Vrsta obrazca ni znana.',
  },
  payment: {
    title: 'Informativni izračun plačila',
    note: 'Ocena po trenutnem rezultatu, ne odločba. O plačilu odloči pristojni organ.',
    amount: (euros: string, hectares: string, rate: string): string => `${euros} € (${hectares} ha × ${rate} €/ha)`,
    band: (name: string): string => `Razred: ${name}`,
    top: 'Dosežen je najvišji razred.',
    plantsToNext: (n: number, band: string): string =>
      `še ${num(n)} ${slPlural(n, 'kazalna rastlina', 'kazalni rastlini', 'kazalne rastline', 'kazalnih rastlin')} do razreda ${band}`,
    pointsToNext: (n: number, band: string): string => `še ${sl.scheme.points(n)} do razreda ${band}`,
  },
} as const;

/** The advisers' review screen ("Pregled") and their actions on a form. */
export const slReviewQueue = {
  title: 'Pregled',
  lead: 'Obrazci, ki čakajo na svetovalca; najprej tisti, ki čakajo najdlje.',
  /** The main navigation's item and its count of waiting forms. */
  nav: 'Pregled',
  waiting: (n: number): string => `${num(n)} ${slPlural(n, 'obrazec čaka', 'obrazca čakata', 'obrazci čakajo', 'obrazcev čaka')} na pregled`,
  onlineOnly: 'Pregled je na voljo le s povezavo s strežnikom.',
  failed: 'Obrazcev za pregled ni bilo mogoče naložiti.',
  empty: 'Noben obrazec ne čaka na pregled.',
  emptyFiltered: 'Noben obrazec, ki čaka, ne ustreza izbranim filtrom.',
  total: (n: number): string => `${num(n)} ${slPlural(n, 'obrazec', 'obrazca', 'obrazci', 'obrazcev')}`,
  filters: 'Filtri',
  farmer: 'Kmet',
  allFarmers: 'Vsi kmetje',
  area: 'Travnik',
  allAreas: 'Vsi travniki',
  kind: 'Vrsta obrazca',
  allKinds: 'Vse vrste',
  state: 'Stanje',
  allWaiting: 'Vsi, ki čakajo',
  path: 'Pot',
  submittedAt: 'Oddano',
  score: 'Ocena',
  noScore: 'brez ocene',
  unknown: '—',
  open: 'Odpri obrazec',
  choose: 'Izbira',
  select: (what: string): string => `Izberi: ${what}`,
  selectAll: 'Izberi vse prikazane',
  readOnly: 'Odločitve sprejemajo svetovalci; bralec obrazce le pregleduje.',
  approveSelected: (n: number): string => `Potrdi izbrane (${num(n)})`,
  /** A row whose approval is saved on the device and not yet accepted by the server. */
  approvalWaiting: 'Potrditev čaka na pošiljanje',
  /** The bulk approval's report. */
  bulk: {
    saved: (n: number): string =>
      `${num(n)} ${slPlural(n, 'potrditev je shranjena', 'potrditvi sta shranjeni', 'potrditve so shranjene', 'potrditev je shranjenih')} za pošiljanje.`,
    sent: (n: number, of: number): string => `Strežnik je sprejel ${num(n)} od ${num(of)}.`,
    waiting: (n: number): string => `${num(n)} še ${slPlural(n, 'čaka', 'čakata', 'čakajo', 'čaka')} na pošiljanje.`,
    refused: (n: number): string => `${slPlural(n, 'Zavrnjena', 'Zavrnjeni', 'Zavrnjene', 'Zavrnjenih')}: ${num(n)}`,
    notSaved: (n: number): string => `${num(n)} ni bilo mogoče shraniti.`,
  },
  /** The adviser's decision panel on a form. */
  decision: {
    title: 'Odločitev svetovalca',
    state: 'Stanje pregleda',
    lastReason: 'Razlog zadnje odločitve',
    decidedBy: (who: string, when: string): string => `${who}, ${when}`,
    moves: 'Odločitev',
    none: 'V tem stanju obrazec ne čaka na odločitev svetovalca.',
    reason: 'Razlog',
    reasonOptional: 'Razlog (neobvezno)',
    reasonHint: 'Kmet razlog vidi v pogovoru ob obrazcu.',
    indicator: 'Kazalnik, ki ga je treba popraviti',
    noIndicator: 'Obrazec kot celota',
    returnUntil: 'Rok za ponovno oddajo (neobvezno)',
    returnUntilHint: 'Brez datuma velja rok za oddajo v sezoni.',
    returnUntilPast: 'Rok za ponovno oddajo ne sme biti pred današnjim dnem.',
    /** The server takes a reason equal to the stored one for the row sent back, not a new reason. */
    sameReason: 'Razlog je enak razlogu zadnje odločitve; napišite nov razlog.',
    save: 'Shrani odločitev',
    cancel: 'Prekliči',
    saving: 'Shranjujem...',
    saveFailed: 'Odločitve ni bilo mogoče shraniti na napravo.',
    offlineNote: 'Brez povezave: odločitev bo shranjena na napravi in poslana, ko bo strežnik dosegljiv.',
    /** The state of a saved move. */
    waiting: 'Odločitev je shranjena na napravi in čaka na pošiljanje.',
    sent: 'Strežnik je odločitev sprejel.',
    refused: (reason: string): string => `Strežnik je odločitev zavrnil: ${reason}`,
    conflict: 'Obrazec je medtem spremenil nekdo drug; odločitev čaka v seznamu sprememb (stanje povezave).',
  },
  /** The results export's review columns. */
  csv: {
    state: 'stanje pregleda',
    by: 'odločil',
    at: 'čas odločitve',
    reason: 'razlog odločitve',
  },
} as const;

/** What the farmer sees of the review: home's to-do, the state and thread on path and form screens. */
export const slReviewFarmer = {
  returned: (n: number): string => `${num(n)} ${slPlural(n, 'obrazec vrnjen', 'obrazca vrnjena', 'obrazci vrnjeni', 'obrazcev vrnjenih')} v popravek`,
  daysToSubmit: (n: number): string => `Do roka za oddajo še ${num(n)} ${slPlural(n, 'dan', 'dneva', 'dnevi', 'dni')}`,
  /** Forms still to submit (drafts): '1 obrazec še ni oddan', '2 obrazca še nista oddana' … */
  notSubmitted: (n: number): string =>
    `${num(n)} ${slPlural(n, 'obrazec še ni oddan', 'obrazca še nista oddana', 'obrazci še niso oddani', 'obrazcev še ni oddanih')}`,
  lastDayToSubmit: 'Danes je zadnji dan za oddajo.',
  submitDeadlinePassed: (date: string): string => `Rok za oddajo je potekel ${date}.`,
  /** Decisions the farmer may still appeal. */
  appealable: (n: number): string => `${num(n)} ${slPlural(n, 'odločitev', 'odločitvi', 'odločitve', 'odločitev')} lahko še izpodbijate s pritožbo`,
  todoTitle: 'Kaj vas čaka',
  todoNothing: 'Trenutno ni ničesar za urediti.',
  todoOpen: 'Odpri obrazec',
  /** The state badge's accessible prefix. */
  stateLabel: 'Stanje pregleda',
  review: {
    title: 'Pregled obrazca',
    lastReason: 'Razlog svetovalca',
    returnedAt: (name: string): string => `Popravite kazalnik: ${name}`,
    showIndicator: 'Pokaži kazalnik',
    /** The mark on the indicator a review is about. */
    flagged: 'Svetovalec opozarja na ta kazalnik',
    returnUntil: (date: string): string => `Popravljeni obrazec oddajte do ${date}.`,
    submitUntil: (date: string): string => `Rok za oddajo: ${date}`,
    submitHint: 'Po oddaji obrazca ne morete več spreminjati, dokler ga svetovalec ne pregleda ali vrne v popravek.',
    saveFirst: 'Pred oddajo shranite spremembe obrazca.',
    appealUntil: (date: string): string => `Pritožbo lahko vložite do ${date}.`,
    appealReason: 'Razlog pritožbe',
    appealSend: 'Pošlji pritožbo',
    cancel: 'Prekliči',
    submittedQueued: 'Oddaja je shranjena na napravi in bo poslana, ko bo povezava.',
    submitted: 'Obrazec je oddan v pregled.',
    appealedQueued: 'Pritožba je shranjena na napravi in bo poslana, ko bo povezava.',
    appealed: 'Pritožba je vložena.',
    failed: 'Spremembe ni bilo mogoče shraniti na napravo.',
    waiting: 'Čaka na svetovalca.',
    /** A farmer's form that is not theirs to change now (submitted, approved, rejected, appealed). */
    locked: (state: string): string => `Obrazec je v stanju »${state}«, zato ga ne morete spreminjati.`,
    lockedHint: 'Če svetovalec obrazec vrne v popravek, ga boste lahko znova urejali.',
    /** The place where the advisers' decision panel goes (editors). */
    decisionSlot: 'Odločitev svetovalca',
  },
  thread: {
    title: 'Pogovor s svetovalcem',
    empty: 'V pogovoru še ni sporočil.',
    you: 'Vi',
    adviser: 'Svetovalec',
    farmer: 'Kmet',
    waiting: 'Čaka na pošiljanje',
    about: 'Kazalnik',
    moved: (state: string): string => `Stanje: ${state}`,
    reply: 'Odgovori',
    replyLabel: 'Vaše sporočilo',
    replyIndicator: 'O kazalniku (neobvezno)',
    noIndicator: 'Brez kazalnika',
    replySaved: 'Sporočilo je shranjeno in bo poslano, ko bo povezava.',
    replySent: 'Sporočilo je shranjeno.',
    replyFailed: 'Sporočila ni bilo mogoče shraniti na napravo.',
    offline: 'Brez povezave: pogovor je prikazan z naprave, odgovor bo poslan pozneje.',
  },
  payment: {
    estimate: 'Informativni izračun – ni odločba.',
    noArea: 'Površina travnika še ni znana, zato zneska ni mogoče izračunati.',
    noScore: 'Izračun bo na voljo, ko boste označili prve kazalne rastline.',
  },
  results: {
    title: 'Stanje obrazcev in informativni izračun plačila',
    lead: 'Informativni izračun po travnikih in sezonah (vsota plačanih obrazcev travnika). Ni odločba.',
    meadow: 'Travnik',
    season: 'Sezona',
    forms: 'Obrazci',
    amount: 'Informativni znesek',
    empty: 'Ni obrazcev s plačilom po rezultatu.',
  },
} as const;
