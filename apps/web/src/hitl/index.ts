export { FormFields, initialValues } from './form-fields.tsx';
export { HitlCardPart, resolutionText, waitingCard } from './hitl-card.tsx';
