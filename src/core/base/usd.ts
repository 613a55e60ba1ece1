/**
 * Amounts of money, in USD, as the gateway reports them (`total_cost`, `usage`, key balances).
 *
 * @module
 */

/**
 * Rounds a USD amount to 12 decimal places, so sums and differences of per-character prices stay exact enough
 * to compare (`0.1 + 0.2` style drift never shows in a balance or a record).
 */
export function roundUsd(value: number): number {
  return Math.round(value * 1e12) / 1e12;
}
