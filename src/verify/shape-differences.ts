/**
 * What the comparison of two shapes (`compare-shapes.ts`) reports: each difference at a path
 * ({@link ShapeDifference}), the texts its sides give ({@link typesText}, {@link presenceText}), and two field
 * differences told as one rename when nothing else can explain them ({@link pairRenames}).
 *
 * @module
 */

import type { JsonType } from './shape.js';

/** One way two shapes differ at a path; the sides' texts say what each has (`string`, `integer|null`, ...). */
export interface ShapeDifference {
  /** The JSON path, `''` for the whole body; for `renamed`, the upstream's (the field's new name). */
  readonly path: string;
  /**
   * - `field`: one side has the field, the other never does (the other side's text is `absent`);
   * - `renamed`: a field only mockrouter has (at {@link from}) and one only the upstream has (at `path`), of the
   *   same types under the same parent: the upstream renamed it ({@link pairRenames} says when two are paired);
   * - `type`: the non-null types differ;
   * - `null`: one side has null there, the other never does;
   * - `required`: one side carries the field on every object at its parent, the other only on some;
   * - `enum`: one side uses a value of an enum field (`ENUM_PATHS` of `shape.ts`) the other side never does.
   */
  readonly kind: 'field' | 'renamed' | 'type' | 'null' | 'required' | 'enum';
  readonly upstream: string;
  readonly mockrouter: string;
  /** For `renamed`: the path mockrouter has the field at (its old name). */
  readonly from?: string;
}

/** The types of a path as text, `integer` and `number` as one (`number` once any value had a fraction), sorted. */
export function typesText(types: ReadonlySet<JsonType>): string {
  const names = new Set<string>();
  for (const type of types) names.add(type === 'integer' && types.has('number') ? 'number' : type);
  return [...names].sort().join('|');
}

/**
 * The words of a field's name, lower case: `context_length`, `contextLength` and `context-length` are `context`
 * and `length`. The name is the path's last segment (`["a.b"]` for a key that is no identifier).
 */
function nameWords(path: string, parent: string): Set<string> {
  const name = path.slice(parent.length).replace(/^\./, '');
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
  return new Set(words);
}

/** `differences` by each word of their names (`words`). */
function byWord(differences: readonly ShapeDifference[], words: ReadonlyMap<ShapeDifference, Set<string>>): Map<string, ShapeDifference[]> {
  const index = new Map<string, ShapeDifference[]>();
  for (const difference of differences) {
    for (const word of words.get(difference)!) {
      const list = index.get(word);
      if (list) list.push(difference);
      else index.set(word, [difference]);
    }
  }
  return index;
}

/** The differences of `index` whose names share a word with `difference`'s: none, one, or two (when there are more). */
function sharingAWord(difference: ShapeDifference, words: ReadonlyMap<ShapeDifference, Set<string>>, index: ReadonlyMap<string, ShapeDifference[]>): ShapeDifference[] {
  const found = new Set<ShapeDifference>();
  for (const word of words.get(difference)!) {
    for (const other of index.get(word) ?? []) {
      found.add(other);
      if (found.size > 1) return [...found];
    }
  }
  return [...found];
}

/**
 * `differences` with each renamed field as one `renamed` difference instead of two `field` ones, at the place of
 * the first of the two. A field only mockrouter has (gone upstream) and a field only the upstream has (new there) are
 * paired when they have the same parent and the same types (`typesText`), and either they are the only gone and the
 * only new field of those types there, or each is the other's only candidate among them sharing a word of its name
 * (`context_length` and `context_window` share `context`; `new_field` shares nothing with either). Fields that pair
 * with none stay `field` differences: a rename is named only when it cannot be something else.
 *
 * @param fields the `field` differences of `differences`, with their parent paths.
 */
export function pairRenames(differences: readonly ShapeDifference[], fields: ReadonlyMap<ShapeDifference, string>): ShapeDifference[] {
  const groups = new Map<string, { gone: ShapeDifference[]; added: ShapeDifference[] }>();
  for (const [difference, parent] of fields) {
    const onUpstream = difference.mockrouter === 'absent';
    const key = JSON.stringify([parent, onUpstream ? difference.upstream : difference.mockrouter]);
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { gone: [], added: [] }));
    (onUpstream ? group.added : group.gone).push(difference);
  }
  const position = new Map(differences.map((difference, i) => [difference, i]));
  const renamed = new Map<ShapeDifference, ShapeDifference>();
  const paired = new Set<ShapeDifference>();
  const pair = (gone: ShapeDifference, added: ShapeDifference) => {
    const rename: ShapeDifference = { path: added.path, kind: 'renamed', upstream: added.upstream, mockrouter: gone.mockrouter, from: gone.path };
    const first = position.get(gone)! < position.get(added)! ? gone : added;
    renamed.set(first, rename);
    paired.add(gone).add(added);
  };
  for (const { gone, added } of groups.values()) {
    if (gone.length === 1 && added.length === 1) {
      pair(gone[0]!, added[0]!);
      continue;
    }
    const words = new Map([...gone, ...added].map((difference) => [difference, nameWords(difference.path, fields.get(difference)!)]));
    const goneByWord = byWord(gone, words);
    const addedByWord = byWord(added, words);
    for (const g of gone) {
      const candidates = sharingAWord(g, words, addedByWord);
      if (candidates.length !== 1) continue;
      const a = candidates[0]!;
      if (sharingAWord(a, words, goneByWord).length === 1) pair(g, a);
    }
  }
  if (paired.size === 0) return [...differences];
  return differences.flatMap((difference) => (renamed.has(difference) ? [renamed.get(difference)!] : paired.has(difference) ? [] : [difference]));
}

/** How many objects at a parent carry a field, as text: `on every object (3)`, `on 1 of 3 objects`. */
export function presenceText(present: number, parents: number): string {
  return present === parents ? `on every object (${parents})` : `on ${present} of ${parents} objects`;
}
