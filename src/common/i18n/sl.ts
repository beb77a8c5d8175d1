/**
 * Every user-facing Slovenian text of the product, client and server (login page) alike, so a
 * reviewer can read the whole UI in one file. Seed texts are quoted exactly.
 * Add new strings here under the screen or component that shows them.
 */
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
    /** Seed §2, exact. */
    confirm: 'Ali ste prepričani, da želite zapustiti to stran? Vnešeni podatki bodo izgubljeni',
  },
  location: {
    /** Seed §8, exact. */
    denied: 'Pozor! Za snemanje poti in lociranje indikatorjev aplikacija potrebuje dostop do vaše lokacije.',
  },
  update: {
    /** Seed §2: the notice dialog title. */
    title: 'Obvestilo',
    /** Seed §8: a new version was released, a refresh is needed, the app is briefly unresponsive. */
    message: 'Izšla je nova različica aplikacije. Potrebna je osvežitev strani, zato se aplikacija za trenutek ne bo odzivala.',
    accept: 'Osveži',
  },
  farmer: {
    /** Seed §6/§8: raised when no farmers record matches the user's e-mail. */
    missing: 'Za vaš e-poštni naslov ni zapisa kmeta. Obrnite se na svetovalca.',
  },
} as const;

export type Strings = typeof sl;
