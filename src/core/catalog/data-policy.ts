/**
 * Routing by data policy: which endpoint of a model a request's `provider.zdr` and `provider.data_collection` leave
 * (the gateway's `SpeechRequestProvider` and `STTRequestProvider`: "If no available model provider meets the
 * requirement, your request will return an error"; `docs/behaviour.md`, "Data policy").
 *
 * @module
 */
import { GatewayError } from '../base/error-envelope.js';
import type { ProviderEntry } from '../formats/fixture-schema.js';
import type { ProviderPreferences } from '../http/provider-preferences.js';

/** Where the gateway's data policy error sends the caller (its chat completions' wording). */
export const PRIVACY_SETTINGS_URL = 'https://openrouter.ai/settings/privacy';

/** An endpoint's data policy; absent in the catalog means the gateway's conservative stance (retains and trains). */
function policyOf(provider: ProviderEntry): { readonly zdr: boolean; readonly training: boolean } {
  return provider.data_policy ?? { zdr: false, training: true };
}

/**
 * The first of `providers` (in routing order) whose data policy meets `preferences`: with `zdr: true` only an endpoint
 * with a Zero Data Retention policy; with `data_collection: "deny"` only one that does not train. `null` and absent
 * members ask for nothing.
 *
 * @param providers the model's providers, first the one requests are routed to (`Catalog.providers`).
 * @param preferences the request's `provider`, if any.
 * @param free whether the model is a `:free` variant (only the error's wording changes).
 * @returns the endpoint routed to, or `undefined` when nothing is asked (the request goes to the model's first
 *   provider, as without a policy).
 * @throws {GatewayError} 404 `No endpoints found matching your data policy (<requirements>). Configure:
 *   https://openrouter.ai/settings/privacy`, the gateway's answer on its other operations when no endpoint meets the
 *   account's or request's policy; `<requirements>` names what was asked: `Zero data retention`, `Paid model
 *   training` (or `Free model training` for a `:free` variant).
 */
export function endpointForPolicy(providers: readonly ProviderEntry[], preferences: ProviderPreferences | undefined, free: boolean): ProviderEntry | undefined {
  const zdr = preferences?.zdr === true;
  const deny = preferences?.data_collection === 'deny';
  if (!zdr && !deny) return undefined;
  const met = providers.find((provider) => {
    const policy = policyOf(provider);
    return (!zdr || policy.zdr) && (!deny || !policy.training);
  });
  if (met) return met;
  const asked = [...(zdr ? ['Zero data retention'] : []), ...(deny ? [free ? 'Free model training' : 'Paid model training'] : [])];
  throw new GatewayError(404, { message: `No endpoints found matching your data policy (${asked.join(', ')}). Configure: ${PRIVACY_SETTINGS_URL}` });
}
