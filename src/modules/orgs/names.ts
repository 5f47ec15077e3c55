import { badInput } from '../../core/errors';

const MAX_NAME = 200;

/**
 * Characters a name may not contain: controls (C0, C1, DEL), format characters (zero-width
 * spaces and joiners, the byte order mark, soft hyphens), bidirectional controls (embeddings,
 * overrides, isolates, marks), every other default-ignorable code point (variation selectors,
 * Hangul fillers, ...), line and paragraph separators, private-use, surrogate and unassigned code
 * points. Each makes a name show as something other than what it is.
 */
const REFUSED = /[\p{Cc}\p{Cf}\p{Co}\p{Cs}\p{Cn}\p{Zl}\p{Zp}\p{Bidi_Control}\p{Default_Ignorable_Code_Point}]/u;
const DEFAULT_IGNORABLE = /[\p{Default_Ignorable_Code_Point}\p{Cf}]/gu;

/**
 * Letters of other scripts that look like Latin letters in common fonts, mapped to the Latin
 * letter they pass for: Cyrillic and Greek capitals first (before case folding, as their small
 * letters look different: Cyrillic "в" is no "b"), then small letters. A deliberately small
 * subset of Unicode's confusables (UTS #39), covering the letters used to imitate Latin names.
 */
const CAPITALS: Record<string, string> = {
  // Cyrillic
  А: 'A',
  В: 'B',
  Е: 'E',
  Ё: 'Ë',
  К: 'K',
  М: 'M',
  Н: 'H',
  О: 'O',
  Р: 'P',
  С: 'C',
  Т: 'T',
  У: 'Y',
  Х: 'X',
  Ѕ: 'S',
  І: 'I',
  Ї: 'Ï',
  Ј: 'J',
  Ԛ: 'Q',
  Ԝ: 'W',
  Ү: 'Y',
  Һ: 'H',
  Ӏ: 'I',
  // Greek
  Α: 'A',
  Β: 'B',
  Ε: 'E',
  Ζ: 'Z',
  Η: 'H',
  Ι: 'I',
  Κ: 'K',
  Μ: 'M',
  Ν: 'N',
  Ο: 'O',
  Ρ: 'P',
  Τ: 'T',
  Υ: 'Y',
  Χ: 'X',
};
const SMALL: Record<string, string> = {
  // Cyrillic
  а: 'a',
  е: 'e',
  ё: 'ë',
  о: 'o',
  р: 'p',
  с: 'c',
  у: 'y',
  х: 'x',
  ѕ: 's',
  і: 'i',
  ї: 'ï',
  ј: 'j',
  ԁ: 'd',
  һ: 'h',
  ԛ: 'q',
  ԝ: 'w',
  ӏ: 'l',
  ү: 'y',
  // Greek
  α: 'a',
  ο: 'o',
  ρ: 'p',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  υ: 'u',
  χ: 'x',
  ϲ: 'c',
  ϳ: 'j',
  // Latin letters that pass for others
  ı: 'i',
  ȷ: 'j',
  ɡ: 'g',
};
const CAPITAL = new RegExp(`[${Object.keys(CAPITALS).join('')}]`, 'gu');
const SMALL_ONE = new RegExp(`[${Object.keys(SMALL).join('')}]`, 'gu');

/**
 * A name as it is stored: NFKC-normalised (fullwidth and other compatibility forms become their
 * plain letters), runs of white space made one space, trimmed. Refused with BAD_USER_INPUT on
 * `field` when empty, too long, or holding an invisible, control or bidirectional character.
 */
export function normaliseName(field: string, name: string): string {
  // checked before spaces are made one: JavaScript's \s and trim() also take a byte order mark and line separators
  const normal = name.normalize('NFKC').replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '');
  const bad = REFUSED.exec(normal);
  if (bad) {
    const code = `U+${bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
    throw badInput(field, `${field} must not contain control, invisible or bidirectional characters (${code} at ${bad.index})`);
  }
  const spaced = normal.replace(/\p{Zs}+/gu, ' ').trim();
  if (spaced === '') throw badInput(field, `${field} must not be empty`);
  if (spaced.length > MAX_NAME) throw badInput(field, `${field} must be at most ${MAX_NAME} characters`);
  return spaced;
}

/**
 * What a name looks like, for telling look-alike names apart: NFKC, default-ignorable
 * characters removed, Cyrillic and Greek look-alikes mapped to Latin, case folded, white space
 * made single spaces. Two names with one skeleton display alike; the second is refused.
 */
export function nameSkeleton(name: string): string {
  return name
    .normalize('NFKC')
    .replace(DEFAULT_IGNORABLE, '')
    .replace(CAPITAL, (c) => CAPITALS[c])
    .toLowerCase()
    .replace(SMALL_ONE, (c) => SMALL[c])
    .normalize('NFKC')
    .replace(/[\s\p{Zs}]+/gu, ' ')
    .trim();
}
