// Intl formatters are made on first use, not when their module loads: making one initialises the
// locale data, which would otherwise be paid before the first screen is drawn.
let counts: Intl.NumberFormat | undefined;

/** A count as the browser's locale writes it ("12,345"). */
export function formatCount(value: number): string {
  counts ??= new Intl.NumberFormat();
  return counts.format(value);
}
