import { z } from 'zod';

/**
 * The extension API this host speaks (spec §4.6 `apiVersion`, §5): semver. A minor release only
 * adds (new optional fields, new asset kinds); a major one may re-mean.
 *
 * @example
 * EXTENSION_API_VERSION; // '1.0.0'
 */
export const EXTENSION_API_VERSION = '1.0.0';

/** `major.minor.patch` with an optional pre-release and build tag. */
export const SEMVER_PATTERN =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

export const SemverSchema = z.string().regex(SEMVER_PATTERN, 'a semantic version such as 1.2.0');

/** The numeric parts of a semantic version, or undefined when it is not one. */
export function parseSemver(version: string): { major: number; minor: number; patch: number } | undefined {
  const match = SEMVER_PATTERN.exec(version);
  if (match === null) return undefined;
  return { major: Number(match[1]), minor: Number(match[2]), patch: Number(match[3]) };
}

/**
 * Whether this host can load an extension written for `apiVersion` (the compatibility window):
 * the same major version, and a minor version no newer than the host's — an extension written
 * against 1.0 loads on a 1.3 host; one that needs 1.4 (fields the host would ignore) does not, nor
 * does 2.x. Pre-1.0 there is no window: the minor must match.
 *
 * @example
 * apiVersionSupported('1.0.0'); // true
 * apiVersionSupported('2.0.0'); // false
 */
export function apiVersionSupported(apiVersion: string, host: string = EXTENSION_API_VERSION): boolean {
  const wanted = parseSemver(apiVersion);
  const have = parseSemver(host);
  if (wanted === undefined || have === undefined) return false;
  if (wanted.major !== have.major) return false;
  if (have.major === 0) return wanted.minor === have.minor;
  return wanted.minor <= have.minor;
}
