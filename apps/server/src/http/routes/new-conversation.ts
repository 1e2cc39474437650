import { randomUUID } from 'node:crypto';
import type { ConversationCreate, SendMessage } from '@youyou/contracts';
import type { SendRequest } from '../../runs/index.ts';
import type { ConversationRow } from '../../storage/index.ts';
import type { ServerServices } from '../../services/index.ts';

/** Creates a conversation row: its project checked, its profile the one named or the default. */
export async function createConversationRow(
  services: ServerServices,
  body: ConversationCreate,
): Promise<ConversationRow> {
  const projectId = body.project_id ?? null;
  if (projectId !== null) await services.projects.get(projectId);
  const profileId =
    body.profile_id === undefined
      ? await services.settingsService.value<string>('profiles.default', { projectId })
      : body.profile_id;
  if (body.profile_id !== undefined && body.profile_id !== null) await services.profiles.get(body.profile_id);
  const known = profileId === null ? undefined : await services.profiles.find(profileId);
  return services.conversations.create({
    id: randomUUID(),
    projectId,
    title: body.title?.trim() ?? '',
    modelId: body.model_id ?? null,
    // A default that names a deleted profile falls back to the built-in one.
    profileId: known === undefined || known.builtin ? null : known.id,
    now: Date.now(),
  });
}

/** A send request from the message body the API validated (absent fields stay absent). */
export function sendRequestOf(body: SendMessage): SendRequest {
  return {
    ...(body.text === undefined ? {} : { text: body.text }),
    ...(body.attachments === undefined ? {} : { attachments: body.attachments }),
    ...(body.skills === undefined
      ? {}
      : {
          skills: body.skills.map((skill) => ({
            name: skill.name,
            ...(skill.arguments === undefined ? {} : { arguments: skill.arguments }),
          })),
        }),
    ...(body.references === undefined ? {} : { references: body.references }),
    ...(body.model_id === undefined ? {} : { model_id: body.model_id }),
    ...(body.edit_of === undefined ? {} : { edit_of: body.edit_of }),
    ...(body.parent_message_id === undefined ? {} : { parent_message_id: body.parent_message_id }),
    ...(body.previous_run_id === undefined ? {} : { previous_run_id: body.previous_run_id }),
  };
}
