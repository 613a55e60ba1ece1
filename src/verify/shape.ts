/**
 * The JSON shape of answers, and how two shapes differ: what `mockrouter verify` compares between the upstream's
 * answers and the simulator's. Shapes, not values: field names, JSON types, nullability, which fields
 * every object carries, and the values of a few fields known to be enums ({@link ENUM_PATHS}).
 *
 * Paths read as a client's code does: `data.endpoints[].pricing.prompt` is `prompt` of `pricing` of any element of
 * `endpoints` of `data`; a key that is no identifier is quoted (`data["a.b"]`). An array's elements are one path
 * (`[]`): every element adds to the same shape, so a list compares by the union of its elements' shapes.
 *
 * A shape is bounded, whatever the answers: at most {@link MAX_SHAPE_ENTRIES} paths and enum values together, of at
 * most {@link MAX_SHAPE_CHARS} characters together ({@link addToShape} says when a value would pass either).
 *
 * @module
 */

/**
 * Most paths and enum values one shape holds together: 10,000. A model record has about a hundred paths, and a
 * list's elements share theirs, so only an answer made to be wide comes near it.
 */
export const MAX_SHAPE_ENTRIES = 10_000;

/** Most characters of the paths and enum values of one shape together: 1,000,000 (a model record's: a few thousand). */
export const MAX_SHAPE_CHARS = 1_000_000;

/** The JSON types a value is told apart by; `integer` is a number without a fractional part. */
export type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'null' | 'object' | 'array';

/** What was seen at one path over every value added to a {@link Shape}. */
export interface PathShape {
  /** The path's parent (`data.endpoints[]` for `data.endpoints[].name`); `undefined` for the root (`''`). */
  readonly parent: string | undefined;
  /** Whether the path is an object's field (its presence is compared); else an array's elements or the root. */
  readonly field: boolean;
  /** The types seen. */
  readonly types: Set<JsonType>;
  /** How many values were seen here (for a field: how many objects at the parent carried it). */
  present: number;
  /** How many of them were objects (the parent count of this path's fields). */
  objects: number;
  /** How many of them were arrays. */
  arrays: number;
  /** For an enum path ({@link isEnumPath}): every string or number value seen, as JSON text (`"fp8"`, `0`). */
  readonly values: Set<string>;
}

/** The shape of one or several JSON values: every path seen, in the order first seen. */
export type Shape = Map<string, PathShape>;

/**
 * Fields whose values come from a fixed list, by their last segments (a path matches when it ends with one at a
 * segment boundary): the model's modalities (`getModel`, `getModels`, `listEndpoints`), an endpoint's
 * quantization (enum `Quantization`) and status, a generation's `data_region` and `api_type` (`getGeneration`),
 * the key's `limit_reset` and `allowed_data_regions` (`getCurrentKey`), the error envelope's `error_type`, and a
 * speech model's input and output modality types, the kind (`type`) of each speech parameter and the formats it
 * lists (`listSpeechModels`, `getSpeechModel`). Sources: docs/behaviour.md, "Model lookup", "Discovery reads",
 * "Generation lookup", "Keys and credits", "Error envelope" and "Speech model discovery".
 */
export const ENUM_PATHS: readonly string[] = [
  'architecture.modality',
  'architecture.input_modalities[]',
  'architecture.output_modalities[]',
  'endpoints[].quantization',
  'endpoints[].status',
  'data_region',
  'api_type',
  'limit_reset',
  'allowed_data_regions[]',
  'metadata.error_type',
  'input_modalities[].type',
  'output_modalities[].type',
  'supported_parameters.voice.type',
  'supported_parameters.response_format.type',
  'supported_parameters.response_format.values[]',
  'supported_parameters.speed.type',
  'supported_parameters.instructions.type',
];

/** Whether `path` ends with one of {@link ENUM_PATHS} at a segment boundary. */
export function isEnumPath(path: string): boolean {
  return ENUM_PATHS.some((suffix) => path === suffix || path.endsWith(`.${suffix}`));
}

/** A new, empty shape. */
export function emptyShape(): Shape {
  return new Map();
}

function typeOf(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'string' || typeof value === 'boolean') return typeof value as 'string' | 'boolean';
  return 'object';
}

function childPath(parent: string, key: string): string {
  const name = /^[A-Za-z_$][\w$-]*$/.test(key) ? key : `[${JSON.stringify(key)}]`;
  if (parent === '') return name;
  return name.startsWith('[') ? `${parent}${name}` : `${parent}.${name}`;
}

/** Thrown out of {@link visit} when the shape would pass {@link MAX_SHAPE_ENTRIES} or {@link MAX_SHAPE_CHARS}. */
class ShapeFull extends Error {}

/** What a shape may still take: paths and enum values, and their characters. */
class Room {
  constructor(
    private entries: number,
    private chars: number,
  ) {}

  /** Takes one entry of `text`, or throws {@link ShapeFull}. */
  take(text: string): void {
    this.entries -= 1;
    this.chars -= text.length;
    if (this.entries < 0 || this.chars < 0) throw new ShapeFull();
  }
}

function visit(shape: Shape, room: Room, value: unknown, path: string, parent: string | undefined, field: boolean): void {
  let entry = shape.get(path);
  if (!entry) {
    room.take(path);
    entry = { parent, field, types: new Set(), present: 0, objects: 0, arrays: 0, values: new Set() };
    shape.set(path, entry);
  }
  const type = typeOf(value);
  entry.types.add(type);
  entry.present += 1;
  if ((type === 'string' || type === 'integer' || type === 'number') && isEnumPath(path)) {
    const text = JSON.stringify(value);
    if (!entry.values.has(text)) {
      room.take(text);
      entry.values.add(text);
    }
  }
  if (type === 'array') {
    entry.arrays += 1;
    for (const element of value as unknown[]) visit(shape, room, element, `${path}[]`, path, false);
  } else if (type === 'object') {
    entry.objects += 1;
    for (const [key, child] of Object.entries(value as Record<string, unknown>)) visit(shape, room, child, childPath(path, key), path, true);
  }
}

/**
 * Adds one JSON value (as `JSON.parse` gives it, nested no deeper than the stack allows: `MAX_ANSWER_DEPTH`) to
 * `shape`, at the root path `''`.
 *
 * @returns `false` when the shape would pass {@link MAX_SHAPE_ENTRIES} paths and enum values or
 *   {@link MAX_SHAPE_CHARS} characters of them (then it holds part of the value, and is not to be compared); else
 *   `true`.
 * @example const shape = emptyShape(); addToShape(shape, { data: { id: 'a', created: 1 } }); shape.get('data.created')!.types // Set { 'integer' }
 */
export function addToShape(shape: Shape, value: unknown): boolean {
  let entries = 0;
  let chars = 0;
  for (const [path, entry] of shape) {
    entries += 1 + entry.values.size;
    chars += path.length;
    for (const text of entry.values) chars += text.length;
  }
  try {
    visit(shape, new Room(MAX_SHAPE_ENTRIES - entries, MAX_SHAPE_CHARS - chars), value, '', undefined, false);
    return true;
  } catch (error) {
    if (error instanceof ShapeFull) return false;
    throw error;
  }
}

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
   * - `enum`: one side uses a value of an enum field ({@link ENUM_PATHS}) the other side never does.
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

/** Non-null types, `integer` counted as `number`: what {@link compareShapes} compares. */
function kindsOf(types: ReadonlySet<JsonType>): string {
  const names = new Set<string>();
  for (const type of types) if (type !== 'null') names.add(type === 'integer' ? 'number' : type);
  return [...names].sort().join('|');
}

/** Whether values at `path` were containers on both sides, so what is under it can be compared. */
function comparableUnder(upstream: PathShape | undefined, mockrouter: PathShape | undefined, elements: boolean): boolean {
  if (!upstream || !mockrouter) return false;
  return elements ? upstream.arrays > 0 && mockrouter.arrays > 0 : upstream.objects > 0 && mockrouter.objects > 0;
}

/**
 * How `mockrouter`'s shape differs from `upstream`'s, path by path (sorted, so a field's differences come together and
 * before those under it). The rules:
 *
 * - A path is compared only when its parent was an object (for a field) or an array (for elements) on both sides at
 *   least once, so a difference is named once, at the highest path, and not again for everything under it.
 * - A field one side has and the other never has is `field`. Array elements seen on one side only (the other's
 *   arrays were all empty) are not compared.
 * - Types: `integer` and `number` are one type (a price of 0 or a percentage of 100 is whole by chance). The
 *   non-null types are compared when both sides have one (`type`). Null counts only when one side has null there
 *   and the other never does (`null`): a field that is sometimes null on both sides, or only null on one side and
 *   sometimes null on the other, agrees.
 * - A field carried by every object at its parent on one side and missing from some on the other is `required`.
 * - For enum paths ({@link ENUM_PATHS}), each value one side uses that the other side never does is `enum`.
 */
export function compareShapes(upstream: Shape, mockrouter: Shape): ShapeDifference[] {
  const differences: ShapeDifference[] = [];
  /** The `field` differences, with their parent paths. */
  const fields = new Map<ShapeDifference, string>();
  const paths = [...new Set([...upstream.keys(), ...mockrouter.keys()])].sort();
  for (const path of paths) {
    const u = upstream.get(path);
    const m = mockrouter.get(path);
    const info = (u ?? m)!;
    if (info.parent !== undefined && !comparableUnder(upstream.get(info.parent), mockrouter.get(info.parent), !info.field)) continue;
    if (!u || !m) {
      if (info.field) {
        const difference: ShapeDifference = { path, kind: 'field', upstream: u ? typesText(u.types) : 'absent', mockrouter: m ? typesText(m.types) : 'absent' };
        differences.push(difference);
        fields.set(difference, info.parent!);
      }
      continue;
    }
    const uKinds = kindsOf(u.types);
    const mKinds = kindsOf(m.types);
    if (uKinds !== '' && mKinds !== '' && uKinds !== mKinds) differences.push({ path, kind: 'type', upstream: typesText(u.types), mockrouter: typesText(m.types) });
    else if (u.types.has('null') !== m.types.has('null')) differences.push({ path, kind: 'null', upstream: typesText(u.types), mockrouter: typesText(m.types) });
    if (info.field && info.parent !== undefined) {
      const uParents = upstream.get(info.parent)!.objects;
      const mParents = mockrouter.get(info.parent)!.objects;
      const uEvery = u.present === uParents;
      const mEvery = m.present === mParents;
      if (uEvery !== mEvery) differences.push({ path, kind: 'required', upstream: presenceText(u.present, uParents), mockrouter: presenceText(m.present, mParents) });
    }
    if (isEnumPath(path)) {
      const onlyUpstream = [...u.values].filter((value) => !m.values.has(value));
      const onlyMockrouter = [...m.values].filter((value) => !u.values.has(value));
      if (onlyUpstream.length > 0) differences.push({ path, kind: 'enum', upstream: `uses ${onlyUpstream.join(', ')}`, mockrouter: `never (uses ${[...m.values].join(', ') || 'nothing'})` });
      if (onlyMockrouter.length > 0) differences.push({ path, kind: 'enum', upstream: `never (uses ${[...u.values].join(', ') || 'nothing'})`, mockrouter: `uses ${onlyMockrouter.join(', ')}` });
    }
  }
  return pairRenames(differences, fields);
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
function pairRenames(differences: readonly ShapeDifference[], fields: ReadonlyMap<ShapeDifference, string>): ShapeDifference[] {
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

function presenceText(present: number, parents: number): string {
  return present === parents ? `on every object (${parents})` : `on ${present} of ${parents} objects`;
}
