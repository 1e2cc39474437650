export { HitlCardPart, resolutionText, waitingCard } from './hitl-card.tsx';
export { watchQuestions } from './question-watch.ts';
export { useQuestionTitle } from './use-question-title.ts';
