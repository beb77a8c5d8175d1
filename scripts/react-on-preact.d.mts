/** Module name → its Preact stand-in (react-on-preact.mjs). */
export declare const REACT_ON_PREACT: Readonly<Record<string, string>>;
