/**
 * How two JSON shapes (`shape.ts`) differ: the comparison `mockrouter verify` makes between the upstream's answers
 * and the simulator's, path by path, by the rules of {@link compareShapes}; what it reports is
 * `shape-differences.ts`.
 *
 * @module
 */

import { isEnumPath, type JsonType, type PathShape, type Shape } from './shape.js';
import { pairRenames, presenceText, typesText, type ShapeDifference } from './shape-differences.js';

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
