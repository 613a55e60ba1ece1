/**
 * The `provider` object of a speech or transcription request (the gateway's `SpeechRequestProvider` and
 * `STTRequestProvider`, Python SDK v1.3.6 and later; `docs/behaviour.md`, "Data policy"): options passed through to a
 * provider, and the data policy an endpoint must meet.
 *
 * @module
 */
import * as z from 'zod';

/**
 * `provider`: `options` (keyed by provider slug, passed through), `zdr` (`true`: only endpoints with a Zero Data
 * Retention policy), `data_collection` (`"deny"`: only endpoints that do not collect data for training; `"allow"`, the
 * default, any). `null` is taken for both, as the SDKs' `OptionalNullable` sends it, and means the default. Unknown
 * members are accepted and ignored.
 */
export const ProviderPreferencesSchema = z.lazy(() =>
  z.looseObject(
    {
      options: z.record(z.string(), z.unknown(), { error: 'must be an object keyed by provider slug' }).optional(),
      zdr: z.boolean({ error: 'must be a boolean or null' }).nullable().optional(),
      data_collection: z.enum(['allow', 'deny'], { error: 'must be "allow", "deny" or null' }).nullable().optional(),
    },
    { error: 'must be an object' },
  ),
);

/** A request's `provider`, validated (see {@link ProviderPreferencesSchema}). */
export type ProviderPreferences = z.output<typeof ProviderPreferencesSchema>;
