/**
 * The code explains itself: comments, test titles and docs say the reason, or point at a file in
 * this repository (docs/architecture.md by section name), never at documents that live elsewhere
 * (the specification, design and conventions notes the project started from), at the codes of
 * the work packages it was built in, or at tracker issue numbers — a newcomer has none of those.
 * Demo seed data, seeded random numbers and "seed" as a verb are fine.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const THIS_FILE = path.relative(ROOT, fileURLToPath(import.meta.url));

/** Folders scanned whole, and single files at the top level. */
const FOLDERS = ['src', 'test', 'bench', 'scripts', 'docs', '.ci'];
const FILES = ['README.md', 'package.json', 'eslint.config.js', 'jest.config.js', 'webpack.config.ts', 'knip.jsonc', 'tsconfig.json', '.babelrc'];
const TEXT = /\.(ts|tsx|js|mjs|cjs|json|jsonc|md|css|html|ya?ml|sh)$/;
/** Large data files (fixtures, logs) hold no prose. */
const MAX_BYTES = 512 * 1024;

const RULES: Array<{ what: string; pattern: RegExp }> = [
  { what: 'a section of the specification ("seed §")', pattern: /\bseed\s*§/i },
  { what: 'the specification ("the seed\'s")', pattern: /\bthe seed['’]s\b/i },
  {
    what: 'the specification ("seed text", "seed catalogue", …)',
    pattern: /\bseed (text|texts|catalogue|message|messages|warning|call|calls|route|routes|geometry|name|names|order|rule|rules)\b/i,
  },
  { what: 'the specification ("the seed says", …)', pattern: /\bthe seed (says|names|leaves|lists|asks|specifies|requires)\b/i },
  { what: 'the design notes (DESIGN)', pattern: /\bDESIGN\b/ },
  { what: 'the conventions notes (CONVENTIONS)', pattern: /\bCONVENTIONS\b/ },
  { what: 'the team notes (TEAM.md)', pattern: /\bTEAM\.md\b/ },
  { what: 'a shared folder outside the repository', pattern: /\/work\/shared\b/ },
  { what: 'a work-package code (H1, H1b, …)', pattern: /\bH[0-9][a-z]?\b/ },
  { what: 'an issue number', pattern: /\bissue\s*#?\d+/i },
  { what: 'a work package', pattern: /\bwork[- ]packages?\b/i },
];

function filesUnder(relative: string): string[] {
  const full = path.join(ROOT, relative);
  let entries: string[];
  try {
    entries = readdirSync(full);
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    if (name === 'node_modules') return [];
    const child = path.join(relative, name);
    const stat = statSync(path.join(ROOT, child));
    if (stat.isDirectory()) return filesUnder(child);
    const extensionless = relative.startsWith('.ci') || !name.includes('.');
    return (TEXT.test(name) || extensionless) && stat.size <= MAX_BYTES ? [child] : [];
  });
}

/** Every offending line as `file:line: what — text`. */
function outsideReferences(): string[] {
  const files = [...FOLDERS.flatMap(filesUnder), ...FILES].filter((file) => file !== THIS_FILE);
  const found: string[] = [];
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(path.join(ROOT, file), 'utf8');
    } catch {
      continue;
    }
    text.split('\n').forEach((line, index) => {
      for (const rule of RULES) {
        if (rule.pattern.test(line)) found.push(`${file}:${index + 1}: ${rule.what} — ${line.trim().slice(0, 120)}`);
      }
    });
  }
  return found;
}

describe('comments, test titles and docs', () => {
  it('point at nothing outside the repository: no specification sections, design or conventions notes, work-package codes or issue numbers', () => {
    expect(outsideReferences()).toEqual([]);
  });
});
