import type { ToolHandler } from '@youyou/agent';
import { errorOutput } from './tool-errors.ts';

function offsetOf(date: Date, timeZone: string): string {
  const part = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
    .formatToParts(date)
    .find((item) => item.type === 'timeZoneName');
  const value = part?.value ?? 'GMT';
  return value === 'GMT' ? '+00:00' : value.replace('GMT', '');
}

/**
 * The current time in a time zone, as the model needs it: local date and time with the weekday and
 * UTC offset, and the instant in ISO 8601.
 *
 * @example
 * describeTime(new Date('2026-01-01T00:00:00Z'), 'Asia/Shanghai');
 * // 'Thursday, 2026-01-01 08:00:00 in Asia/Shanghai (UTC+08:00); ISO 8601: 2026-01-01T00:00:00.000Z'
 */
export function describeTime(date: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      weekday: 'long',
      hourCycle: 'h23',
    })
      .formatToParts(date)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.weekday}, ${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second} in ${timeZone} (UTC${offsetOf(date, timeZone)}); ISO 8601: ${date.toISOString()}`;
}

/** True when the runtime knows the IANA zone. */
export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/**
 * `current_time`: now, in the user's time zone (the `time_zone` setting, which the web UI fills in
 * from the browser) unless the model asks for another.
 *
 * @example
 * builder.addTool(currentTimeTool(async () => 'Europe/Berlin'));
 */
export function currentTimeTool(userTimeZone: () => Promise<string | undefined>): ToolHandler {
  return {
    name: 'current_time',
    description:
      "Returns the current date and time in the user's time zone (or the IANA time zone given), with weekday and UTC offset.",
    parameters: {
      type: 'object',
      properties: {
        time_zone: { type: 'string', description: 'An IANA time zone such as "Asia/Shanghai".' },
      },
      additionalProperties: false,
    },
    mutating: false,
    async execute({ arguments: input }) {
      try {
        const asked =
          typeof input.time_zone === 'string' && input.time_zone !== '' ? input.time_zone : undefined;
        if (asked !== undefined && !isTimeZone(asked)) {
          return {
            content: `Error [INVALID_INPUT]: '${asked}' is not an IANA time zone (for example "Europe/Paris").`,
            isError: true,
          };
        }
        const stored = await userTimeZone();
        const zone =
          asked ??
          (stored !== undefined && isTimeZone(stored)
            ? stored
            : Intl.DateTimeFormat().resolvedOptions().timeZone);
        return { content: describeTime(new Date(), zone), metadata: { time_zone: zone } };
      } catch (error) {
        return errorOutput(error);
      }
    },
  };
}
