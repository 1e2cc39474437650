export {
  COMPONENTS_KEY,
  MODELS_KEY,
  PROJECTS_KEY,
  PROVIDERS_KEY,
  useComponents,
  useConversationList,
  useConversationQuery,
  useCreateConversation,
  useMessageSearch,
  useModels,
  useProjects,
  useProviders,
} from './server-queries.ts';
