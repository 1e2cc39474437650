import type { ArchiveImportPreview } from '@youyou/contracts';
import type { Kysely } from 'kysely';
import type { Schema } from '../database/index.ts';

/** A project name's longest form (the projects API's limit). */
const NAME_LIMIT = 200;

/** `name` when free, else the first free "name (2)", "name (3)" …, within the length limit. */
function freeName(name: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name)) return name;
  for (let number = 2; ; number++) {
    const suffix = ` (${number})`;
    const candidate = `${name.slice(0, NAME_LIMIT - suffix.length)}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/**
 * The name each of an archive's projects gets here: its own when no project here has it, else a
 * copy's name. Names the archive's earlier projects got count as taken for the later ones, so an
 * import never makes two projects of one name.
 *
 * @example
 * await importNames(db, [{ source_id: 'p1', name: 'Launch' }]);
 * // [{ source_id: 'p1', name: 'Launch', import_name: 'Launch (2)', name_taken: true }]
 */
export async function importNames(
  db: Kysely<Schema>,
  projects: readonly { source_id: string; name: string }[],
): Promise<ArchiveImportPreview['projects']> {
  if (projects.length === 0) return [];
  const taken = new Set((await db.selectFrom('projects').select('name').execute()).map((row) => row.name));
  return projects.map((project) => {
    const importName = freeName(project.name, taken);
    const nameTaken = importName !== project.name;
    taken.add(importName);
    return { ...project, import_name: importName, name_taken: nameTaken };
  });
}
