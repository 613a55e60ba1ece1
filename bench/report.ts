/**
 * Plain-text tables and number formatting for the bench's output.
 *
 * @module
 */

export type Align = 'left' | 'right';

/** A column: its title and alignment (numbers right). */
export interface Column {
  title: string;
  align?: Align;
}

/** Renders rows under a header line and a rule, columns padded to their widest cell, two spaces apart. */
export function table(columns: Column[], rows: string[][]): string {
  const widths = columns.map((column, i) => Math.max(column.title.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (columns[i]?.align === 'right' ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(columns.map((c) => c.title)), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** A section title with an underline. */
export function heading(title: string): string {
  return `${title}\n${'='.repeat(title.length)}`;
}

/** `12,345` */
export function int(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** Milliseconds, with decimals only where they mean something. */
export function ms(n: number): string {
  if (n >= 100) return n.toFixed(0);
  if (n >= 10) return n.toFixed(1);
  return n.toFixed(2);
}

/** A ratio as a percentage, `48%`. */
export function percent(ratio: number): string {
  if (!Number.isFinite(ratio)) return 'n/a';
  return `${(ratio * 100).toFixed(0)}%`;
}

/** `×` figures: `123×`, `4.5×`. */
export function times(n: number): string {
  return `${n >= 10 ? n.toFixed(0) : n.toFixed(1)}×`;
}

/** Bytes with a binary unit: `1.1 KiB`, `141 KiB`. */
export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const kib = n / 1024;
  if (kib < 1024) return `${kib < 10 ? kib.toFixed(1) : kib.toFixed(0)} KiB`;
  return `${(kib / 1024).toFixed(1)} MiB`;
}

/** MiB per second from bytes per second. */
export function mibPerSec(n: number): string {
  return (n / 1024 / 1024).toFixed(0);
}

export function median(values: number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** `PASS` or `MISS`. */
export function verdict(pass: boolean): string {
  return pass ? 'PASS' : 'MISS';
}

/** A ratio as `1.83×` (two decimals below 10). */
export function ratio(n: number): string {
  if (!Number.isFinite(n)) return 'n/a';
  return `${n >= 10 ? n.toFixed(1) : n.toFixed(2)}×`;
}

/** Bytes in MiB with one decimal and in MB (10⁶ bytes): `142.3 MiB (149.2 MB)`. */
export function mem(n: number): string {
  return `${(n / 1024 / 1024).toFixed(1)} MiB (${(n / 1e6).toFixed(1)} MB)`;
}
