import { OpenAPIHono } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import { ApiError } from '../errors/index.ts';
import { serveWeb } from '../web/index.ts';
import { errorHandler, validationHook } from './middleware/errors.ts';
import { refuseNulCharacters } from './middleware/nul-characters.ts';
import { requestLog } from './middleware/request-log.ts';
import { hostAndOriginChecks, loginFromUrl, requireToken, securityHeaders } from './middleware/security.ts';
import { archiveRoutes } from './routes/archives.ts';
import { agUiRoutes } from './routes/ag-ui.ts';
import { agentRoutes } from './routes/agents.ts';
import { artifactRoutes } from './routes/artifacts.ts';
import { componentRoutes } from './routes/components.ts';
import { conversationRoutes } from './routes/conversations.ts';
import { knowledgeRoutes } from './routes/knowledge.ts';
import { extensionRoutes } from './routes/extensions.ts';
import { documentRoutes } from './routes/documents.ts';
import { mcpRoutes } from './routes/mcp.ts';
import { openAiRoutes } from './routes/openai.ts';
import { messageRoutes } from './routes/messages.ts';
import { projectRoutes } from './routes/projects.ts';
import { providerRoutes } from './routes/providers.ts';
import { hitlRoutes } from './routes/hitl.ts';
import { planboardRoutes } from './routes/planboard.ts';
import { contextRoutes } from './routes/context.ts';
import { memoryRoutes } from './routes/memory.ts';
import { createRouter } from './routes/router.ts';
import { libraryRoutes } from './routes/library.ts';
import { profileRoutes } from './routes/profiles.ts';
import { settingsRoutes } from './routes/settings.ts';
import { setupBundleRoutes } from './routes/setup-bundle.ts';
import { systemRoutes } from './routes/system.ts';
import { toolRoutes } from './routes/tools.ts';
import { uploadRoutes } from './routes/uploads.ts';
import { uiSurfaceRoutes } from './routes/ui-surfaces.ts';
import type { HttpEnv, ServerServices } from '../services/index.ts';

/**
 * Every API route, relative to `/api`. The first route that matches answers: the UI-surface
 * routes (`/extensions/panels`, `/extensions/actions`) come before `/extensions/{id}`.
 */
export function createApiRoutes(services: ServerServices) {
  return createRouter()
    .route('/', projectRoutes(services))
    .route('/', conversationRoutes(services))
    .route('/', messageRoutes(services))
    .route('/', providerRoutes(services))
    .route('/', uploadRoutes(services))
    .route('/', documentRoutes(services))
    .route('/', artifactRoutes(services))
    .route('/', knowledgeRoutes(services))
    .route('/', agentRoutes(services))
    .route('/', componentRoutes(services))
    .route('/', settingsRoutes(services))
    .route('/', setupBundleRoutes(services))
    .route('/', profileRoutes(services))
    .route('/', libraryRoutes(services))
    .route('/', mcpRoutes(services))
    .route('/', uiSurfaceRoutes(services))
    .route('/', extensionRoutes(services))
    .route('/', agUiRoutes(services))
    .route('/', hitlRoutes(services))
    .route('/', toolRoutes(services))
    .route('/', planboardRoutes(services))
    .route('/', contextRoutes(services))
    .route('/', memoryRoutes(services))
    .route('/', systemRoutes(services))
    .route('/', archiveRoutes(services));
}

/**
 * The whole HTTP surface on one port: the API under `/api` (token required), its OpenAPI 3.1
 * document, and the web UI; security headers, Host/Origin checks and body limits on everything.
 *
 * @example
 * const app = createApp(services);
 * serve({ fetch: app.fetch, port: 4280, hostname: '127.0.0.1' });
 */
export function createApp(services: ServerServices) {
  const { config, logger } = services;
  const app = new OpenAPIHono<HttpEnv>({ defaultHook: validationHook });
  app.use('*', requestLog(logger));
  app.use('*', securityHeaders());
  app.use('*', hostAndOriginChecks(config));
  app.use('*', loginFromUrl(config));
  app.use('/api/*', requireToken(config));
  app.use('/v1/*', requireToken(config));
  const jsonLimit = bodyLimit({
    maxSize: config.maxJsonBytes,
    onError: () => {
      throw new ApiError('PAYLOAD_TOO_LARGE', `Request bodies are limited to ${config.maxJsonBytes} bytes.`, {
        details: { limit: config.maxJsonBytes },
      });
    },
  });
  // Uploads and archive imports have limits of their own.
  const ownLimit = new Set(['/api/uploads', '/api/archive/import']);
  app.use('/api/*', async (c, next) => (ownLimit.has(c.req.path) ? next() : jsonLimit(c, next)));
  app.use('/api/*', refuseNulCharacters());
  app.use('/v1/*', jsonLimit);
  app.route('/v1', openAiRoutes(services));
  const routed = app.route('/api', createApiRoutes(services));
  routed.doc31('/api/openapi.json', {
    openapi: '3.1.0',
    info: {
      title: 'YouYou Workbench API',
      version: services.version,
      description:
        'Projects, conversations, runs and events. Every request carries the access token (Authorization: Bearer, or the cookie set by the login URL). Errors are { error: { code, message, retryable, details?, request_id } }.',
    },
    security: [{ bearer: [] }],
  });
  routed.openAPIRegistry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer' });
  routed.notFound((c) => {
    if (c.req.path.startsWith('/api/') || c.req.path === '/api' || c.req.path.startsWith('/v1/')) {
      throw new ApiError('NOT_FOUND', `No API route ${c.req.method} ${c.req.path}.`, {
        details: { resource: 'route', method: c.req.method, path: c.req.path },
      });
    }
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      throw new ApiError('NOT_FOUND', `Nothing at ${c.req.method} ${c.req.path}.`);
    }
    return serveWeb(c, config.webRoot);
  });
  routed.onError(errorHandler(logger));
  return routed;
}
