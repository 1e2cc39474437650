/**
 * What the composer accepts before asking the server (which checks again): one limit for every
 * file, the server's (`server.max_upload_mb`, read from /api/health); these are the defaults
 * until the server has said.
 */
export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;

const ACCEPTED_TYPES = [
  /^image\/(png|jpeg|gif|webp)$/,
  /^text\//,
  /^application\/(pdf|json|xml|x-yaml|yaml|toml)$/,
  /^application\/vnd\.openxmlformats-officedocument\./,
];
const ACCEPTED_EXTENSIONS =
  /\.(md|markdown|txt|csv|tsv|json|ya?ml|toml|xml|html?|css|js|jsx|ts|tsx|py|rb|go|rs|java|kt|c|h|cpp|hpp|cs|sh|sql|log|pdf|docx|pptx|xlsx|png|jpe?g|gif|webp)$/i;

/** The `accept` attribute of the file picker. */
export const ACCEPT_ATTRIBUTE =
  'image/png,image/jpeg,image/gif,image/webp,text/*,application/pdf,application/json,.md,.csv,.yaml,.yml,.toml,.docx,.pptx,.xlsx,.py,.ts,.js,.go,.rs,.java,.c,.cpp,.sh,.sql,.log';

export type AttachmentProblem = { kind: 'too-large'; limit: string } | { kind: 'bad-type' };

function formatLimit(bytes: number): string {
  return `${String(Math.round(bytes / 1024 / 1024))} MB`;
}

/**
 * Why a file cannot be attached, or undefined when it can.
 *
 * @example
 * checkAttachment({ name: 'a.exe', type: 'application/x-msdownload', size: 10 }); // { kind: 'bad-type' }
 */
export function checkAttachment(
  file: {
    name: string;
    type: string;
    size: number;
  },
  limit: number = MAX_UPLOAD_BYTES,
): AttachmentProblem | undefined {
  const typeOk =
    ACCEPTED_TYPES.some((pattern) => pattern.test(file.type)) || ACCEPTED_EXTENSIONS.test(file.name);
  if (!typeOk) return { kind: 'bad-type' };
  if (file.size > limit) return { kind: 'too-large', limit: formatLimit(limit) };
  return undefined;
}
