/**
 * The value shapes the fixture records share (`fixture-schema.ts`, `generation-schema.ts`): prices as decimal
 * strings, date-times with an explicit offset, non-empty strings.
 *
 * @module
 */
import * as z from 'zod';

/** A decimal number carried as a string, as the gateway writes prices: `"0"`, `"0.00000015"`, `"-1"`. */
export const DecimalString = z.lazy(() =>
  z
    .string()
    .regex(/^-?\d+(\.\d+)?$/, 'expected a decimal string such as "0.0000025" (no exponent, no unit)'),
);

/** ISO 8601 date-time with an explicit offset, e.g. `2026-03-14T09:26:53.589+00:00` (`Z` is accepted too). */
export const IsoDateTimeWithOffset = z.lazy(() =>
  z
    .string()
    .regex(
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/,
      'expected an ISO 8601 date-time with an explicit offset, such as "2026-03-14T09:26:53.589+00:00"',
    ),
);

export const NonEmptyString = z.lazy(() => z.string().min(1, 'expected a non-empty string'));
