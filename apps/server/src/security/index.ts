export { loadAccessToken, TOKEN_FILE, tokensMatch } from './access-token.ts';
export { checkUploadName, resolveProjectDirectory } from './path-checks.ts';
export { hostNameOf, isAllowedHost, isLoopbackAddress, isSameOrigin } from './request-origin.ts';
export { checkUploadType } from './upload-types.ts';
export { REDACTED, redactDeep, redactKeyShaped } from './secret-redaction.ts';
