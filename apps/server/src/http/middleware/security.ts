import type { MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { ApiError } from '../../errors/index.ts';
import { isAllowedHost, isSameOrigin, tokensMatch } from '../../security/index.ts';
import type { HttpConfig, HttpEnv } from '../../services/index.ts';

export const TOKEN_COOKIE = 'youyou_token';

/** The Content-Security-Policy of pages: our own scripts only, no framing, no plugins. */
export const PAGE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
  "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** API responses are data: nothing in them may run or load. */
const API_CSP = "default-src 'none'; frame-ancestors 'none'; sandbox";

/** The JSON API and the OpenAI-compatible endpoint: data, never pages. */
function isApiPath(path: string): boolean {
  return path.startsWith('/api/') || path.startsWith('/v1/');
}

/** Security headers on every response. */
export function securityHeaders(): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    await next();
    const headers = c.res.headers;
    if (!headers.has('content-security-policy')) {
      headers.set('content-security-policy', isApiPath(c.req.path) ? API_CSP : PAGE_CSP);
    }
    headers.set('x-content-type-options', 'nosniff');
    // The artifact sandbox is framed by our own pages; it sets SAMEORIGIN itself.
    if (!headers.has('x-frame-options')) headers.set('x-frame-options', 'DENY');
    headers.set('referrer-policy', 'no-referrer');
    headers.set('cross-origin-opener-policy', 'same-origin');
    headers.set('cross-origin-resource-policy', 'same-origin');
    headers.set('permissions-policy', 'camera=(), microphone=(), geolocation=()');
    if (isApiPath(c.req.path)) headers.set('cache-control', 'no-store');
  };
}

/**
 * Refuses a Host this server does not answer to (DNS rebinding) and a cross-site Origin (a page
 * elsewhere driving the API with the user's cookie).
 */
export function hostAndOriginChecks(config: HttpConfig): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    const host = c.req.header('host');
    if (!isAllowedHost(host, config.allowedHosts)) {
      throw new ApiError(
        'HOST_NOT_ALLOWED',
        `This server does not answer to the host ${JSON.stringify(host ?? '')}.`,
        {
          details: { host: host ?? null },
        },
      );
    }
    const origin = c.req.header('origin');
    const site = c.req.header('sec-fetch-site');
    if (!isSameOrigin(origin, host) || site === 'cross-site') {
      throw new ApiError('ORIGIN_NOT_ALLOWED', 'Requests from other sites are refused.', {
        details: { origin: origin ?? null },
      });
    }
    await next();
  };
}

/** The token from `Authorization: Bearer …` or the login cookie. */
function presentedToken(authorization: string | undefined, cookie: string | undefined): string | undefined {
  if (authorization !== undefined) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    return match?.[1];
  }
  return cookie;
}

/** Every API and SSE request carries the token. */
export function requireToken(config: HttpConfig): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    const token = presentedToken(c.req.header('authorization'), getCookie(c, TOKEN_COOKIE));
    if (!tokensMatch(config.token, token)) {
      throw new ApiError(
        'UNAUTHORIZED',
        token === undefined
          ? 'Sign in with the login URL the server printed, or send Authorization: Bearer <token>.'
          : 'The token is not this server’s token.',
      );
    }
    await next();
  };
}

/**
 * `/?token=…` (the printed login URL): sets the token cookie and redirects to the same path
 * without the token, so it does not stay in the address bar or the history.
 */
export function loginFromUrl(config: HttpConfig): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    const token = c.req.query('token');
    if (token === undefined || c.req.method !== 'GET' || isApiPath(c.req.path)) return next();
    if (!tokensMatch(config.token, token)) {
      throw new ApiError('UNAUTHORIZED', 'The token in this link is not this server’s token.');
    }
    setCookie(c, TOKEN_COOKIE, config.token, {
      httpOnly: true,
      sameSite: 'Strict',
      path: '/',
      secure: config.secure,
      maxAge: 60 * 60 * 24 * 30,
    });
    const url = new URL(c.req.url);
    url.searchParams.delete('token');
    return c.redirect(`${url.pathname}${url.search}`, 302);
  };
}
