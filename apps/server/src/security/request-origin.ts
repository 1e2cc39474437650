import { isIP } from 'node:net';

const LOOPBACK_NAMES: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '::1', '[::1]']);

/** The host name of a Host header (`name:port`, `[v6]:port`), lower-cased; undefined when malformed. */
export function hostNameOf(host: string | undefined): string | undefined {
  if (host === undefined || host === '') return undefined;
  try {
    return new URL(`http://${host}`).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

/**
 * Whether a Host header may reach the server. IP literals and localhost always may; a DNS name
 * only when it is listed, because a name an attacker controls can be re-pointed at 127.0.0.1
 * (DNS rebinding) while the browser still treats the page as the attacker's origin.
 *
 * @example
 * isAllowedHost('127.0.0.1:4280', []); // true
 * isAllowedHost('evil.example:4280', []); // false
 */
export function isAllowedHost(host: string | undefined, allowedNames: readonly string[]): boolean {
  const name = hostNameOf(host);
  if (name === undefined) return false;
  if (LOOPBACK_NAMES.has(name)) return true;
  const bare = name.startsWith('[') && name.endsWith(']') ? name.slice(1, -1) : name;
  if (isIP(bare) !== 0) return true;
  return allowedNames.some((allowed) => allowed.toLowerCase() === name);
}

/**
 * Whether a request's Origin is the server's own: same host and port as the request's Host
 * header. No Origin (curl, scripts, same-origin navigations) passes; the token still applies.
 *
 * @example
 * isSameOrigin('http://127.0.0.1:4280', '127.0.0.1:4280'); // true
 * isSameOrigin('https://evil.example', '127.0.0.1:4280'); // false
 */
export function isSameOrigin(origin: string | undefined, host: string | undefined): boolean {
  if (origin === undefined) return true;
  if (host === undefined) return false;
  try {
    return new URL(origin).host.toLowerCase() === host.toLowerCase();
  } catch {
    return false;
  }
}

/** True for a loopback bind address. */
export function isLoopbackAddress(address: string): boolean {
  return LOOPBACK_NAMES.has(address) || address.startsWith('127.');
}
