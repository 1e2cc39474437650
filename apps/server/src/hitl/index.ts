export { askUserTool, resultText, WAIT_FOR_USER_TIMEOUT_MS } from './ask-user-tool.ts';
export { cardViewOfRow, HitlCardRepository } from './card-repository.ts';
export type { HitlCardRow } from './card-repository.ts';
export { lightweightClassifier } from './free-input-classifier.ts';
export type { ClassifyContext, FreeInputClassifier, LightweightModel } from './free-input-classifier.ts';
export { ordinalOf, routeByRules } from './free-input-rules.ts';
export type { RouteDecision } from './free-input-rules.ts';
export { HitlService } from './hitl-service.ts';
export type { AskOptions, CardSubjectHandler, HitlServiceOptions, StartNewRequest } from './hitl-service.ts';
