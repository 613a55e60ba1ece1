/**
 * What `mockrouter verify` makes of the answers of both sides (`probes.ts` sends the requests): each pair compared
 * by status, headers and, when the statuses agree, the shapes of their JSON bodies (`compare-shapes.ts`), each
 * probe's answers as one list; the requests not compared, with why; and the answer the check stopped at.
 *
 * @module
 */
import type * as z from 'zod';
import { formatPath } from '../core/base/zod-issues.js';
import { compareHeaders } from './headers.js';
import { compareShapes } from './compare-shapes.js';
import { MAX_SHAPE_CHARS, MAX_SHAPE_ENTRIES, addToShape, emptyShape, type Shape } from './shape.js';
import type { ShapeDifference } from './shape-differences.js';
import type { Answer } from './sides.js';
import type { Difference, ProbeError, ProbeName, ProbeResult } from './types.js';

/** What `runProbes` (`probes.ts`) found: every request sent, every difference, and the answer it stopped at, if any. */
export interface ProbeOutcome {
  readonly probes: ProbeResult[];
  readonly differences: Difference[];
  readonly error: ProbeError | null;
}

/** Thrown past every probe once one upstream answer could not be read: the check stops there. */
export class Stopped extends Error {}

/** The paths a shape difference names: its own, and for a rename the old name's too. */
function pathsOf(difference: ShapeDifference): string[] {
  return difference.from === undefined ? [difference.path] : [difference.path, difference.from];
}

/** Collects the answers of both sides: probe lines, status and header differences, and each probe's body shapes. */
export class Comparison {
  readonly probes: ProbeResult[] = [];
  readonly differences: Difference[] = [];
  private error: ProbeError | null = null;
  private readonly shapes = new Map<ProbeName, { upstream: Shape; mockrouter: Shape }>();
  /** Each request's own shapes, by probe: which of a probe's requests show a difference found in its whole. */
  private readonly eachShapes = new Map<ProbeName, { request: string; upstream: Shape; mockrouter: Shape }[]>();

  /**
   * Adds a pair of answers to one request: compares status and headers and, when the statuses agree, the JSON
   * bodies (a speech call's audio has none: `readsAsJson`).
   */
  add(probe: ProbeName, request: string, upstream: Answer, mockrouter: Answer, note?: string): void {
    this.probes.push({ probe, request, upstream: upstream.status, mockrouter: mockrouter.status, compared: true, ...(note ? { note } : {}) });
    if (upstream.status !== mockrouter.status) {
      this.differences.push({ probe, request, path: 'status', kind: 'status', upstream: String(upstream.status), mockrouter: String(mockrouter.status) });
      return;
    }
    for (const header of compareHeaders(upstream.headers, mockrouter.headers)) {
      this.differences.push({ probe, request, path: `header ${header.name}`, kind: 'header', upstream: header.upstream, mockrouter: header.mockrouter });
    }
    const u = upstream.json;
    const m = mockrouter.json;
    if (u === undefined || m === undefined) {
      if (u !== m) this.differences.push({ probe, request, path: '', kind: 'body', upstream: u === undefined ? 'no JSON' : 'JSON', mockrouter: m === undefined ? 'no JSON' : 'JSON' });
      return;
    }
    let shapes = this.shapes.get(probe);
    if (!shapes) this.shapes.set(probe, (shapes = { upstream: emptyShape(), mockrouter: emptyShape() }));
    for (const [side, shape, json] of [['the upstream\'s', shapes.upstream, u], ['mockrouter\'s', shapes.mockrouter, m]] as const) {
      if (addToShape(shape, json)) continue;
      // The probe's shapes hold part of this answer: none of the probe is compared.
      this.shapes.delete(probe);
      this.eachShapes.delete(probe);
      this.probes.pop();
      const message = `${side} answers to ${probe} have more than ${MAX_SHAPE_ENTRIES} JSON paths and enum values, or more than ${MAX_SHAPE_CHARS} characters of them, together: not compared`;
      this.stop({ probe, request, code: 'E_VERIFY_ANSWER_TOO_WIDE', message }, upstream.status, mockrouter.status);
      throw new Stopped();
    }
    // Within the bounds: each request's paths are some of its probe's, which passed them.
    const own = { request, upstream: emptyShape(), mockrouter: emptyShape() };
    addToShape(own.upstream, u);
    addToShape(own.mockrouter, m);
    this.eachShapes.set(probe, [...(this.eachShapes.get(probe) ?? []), own]);
  }

  /**
   * Checks a 200 answer of each side against `schema` (written from the gateway's docs pages): each side's first
   * issue is a `schema` difference at its JSON path, the other side's verdict beside it.
   */
  checkSchema(probe: ProbeName, request: string, schema: z.ZodType, upstream: Answer, mockrouter: Answer): void {
    const verdict = (answer: Answer) => {
      if (answer.status !== 200 || answer.json === undefined) return undefined;
      const result = schema.safeParse(answer.json);
      return result.success ? undefined : result.error.issues[0];
    };
    const u = verdict(upstream);
    const m = verdict(mockrouter);
    for (const issue of [u, m]) {
      if (!issue) continue;
      const says = (other: typeof u) => (other ? `refused: ${other.message}` : 'as documented');
      this.differences.push({ probe, request, path: formatPath(issue.path), kind: 'schema', upstream: says(u), mockrouter: says(m) });
    }
  }

  /** Adds a request that was not compared, with why. */
  skip(probe: ProbeName, request: string, upstream: number | null, mockrouter: number | null, note: string): void {
    this.probes.push({ probe, request, upstream, mockrouter, compared: false, note });
  }

  /** Adds the request the check stops at, with why it could not be compared (and the statuses, when there were answers). */
  stop(error: ProbeError, upstream: number | null = null, mockrouter: number | null = null): void {
    this.probes.push({ probe: error.probe, request: error.request, upstream, mockrouter, compared: false, note: error.message, error: error.code });
    this.error = error;
  }

  /**
   * The shape differences of each probe, over all of its answers (a probe's requests compare as one list). A probe
   * sent more than once names, on each difference, the requests that show it: those whose own answers differ at
   * its path (when that is some of them, not all; when none alone does, the difference is the list's: all).
   */
  finish(): ProbeOutcome {
    for (const [probe, { upstream, mockrouter }] of this.shapes) {
      const each = this.eachShapes.get(probe) ?? [];
      const paths = each.length > 1 ? each.map((own) => ({ request: own.request, paths: new Set(compareShapes(own.upstream, own.mockrouter).flatMap(pathsOf)) })) : [];
      for (const difference of compareShapes(upstream, mockrouter)) {
        const showing = paths.filter((own) => pathsOf(difference).some((path) => own.paths.has(path))).map((own) => own.request);
        this.differences.push({ probe, ...difference, ...(showing.length > 0 && showing.length < paths.length ? { requests: showing } : {}) });
      }
    }
    return { probes: this.probes, differences: this.differences, error: this.error };
  }
}
