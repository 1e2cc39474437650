// Reading fields of the JSON documents servers answer with, where nothing about their shape is
// promised: a missing or mistyped field reads as absent.

/** An object's fields, or none when the value is not an object. */
export function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

/** A finite number above zero, else undefined. */
export function positiveNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : undefined;
}

/** An integer above zero, else undefined. */
export function positiveInteger(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}
