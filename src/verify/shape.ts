/**
 * The JSON shape of answers: what `mockrouter verify` builds of the upstream's answers and the simulator's, to
 * compare them (`compare-shapes.ts`). Shapes, not values: field names, JSON types, nullability, which fields
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
