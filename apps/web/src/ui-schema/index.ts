// The UI-schema renderer (spec §4.6): extension panels, conversation cards, HITL form fields.
export { FormFields, initialValues } from './form-fields.tsx';
export { CouldNotRender, UiDocumentView } from './ui-document-view.tsx';
export type { UiSurfaceTarget } from './ui-document-view.tsx';
export { CardPart } from './card-part.tsx';
export { PANELS_KEY, PanelTab, usePanelTitle, usePanels } from './panels.tsx';
export type { UiWidgetProps, UiWidgets } from './ui-context.ts';
