/**
 * Writes the extension author schemas (`schemas/*.schema.json`) from the zod contract. Run after
 * changing `src/extensions/`: `node --conditions=@youyou/source packages/contracts/scripts/write-extension-schemas.ts`
 * (the contracts test fails while the published files differ).
 */
import { writeFile } from 'node:fs/promises';
import { format } from 'prettier';
import { extensionAuthorSchemas } from '../src/extensions/index.ts';

const directory = new URL('../schemas/', import.meta.url);
for (const [file, schema] of Object.entries(extensionAuthorSchemas())) {
  // Formatted as the repository's prettier check wants it.
  await writeFile(new URL(file, directory), await format(JSON.stringify(schema), { parser: 'json' }));
}
