export {
  FORM_FIELD_ID_PATTERN,
  FORM_FIELD_TYPES,
  fieldPattern,
  formFieldSchema,
  formFieldsProblems,
  formValueProblems,
  FormValuesSchema,
} from './form-fields.ts';
export type { CardProblem, FormField, FormFieldType, FormValue, FormValues } from './form-fields.ts';
export {
  UI_FORMAT_FUNCTIONS,
  absolutePointer,
  DataBindingSchema,
  DynamicBooleanSchema,
  DynamicNumberSchema,
  DynamicStringSchema,
  DynamicValueSchema,
  FormatCallSchema,
  readPointer,
  resolveArguments,
  resolveText,
  resolveValue,
  writePointer,
} from './dynamic.ts';
export type {
  DataBinding,
  DynamicBoolean,
  DynamicNumber,
  DynamicString,
  DynamicValue,
  FormatCall,
  UiFormatFunction,
  UiScope,
} from './dynamic.ts';
export {
  BUTTON_VARIANTS,
  TEXT_VARIANTS,
  UI_ALIGN,
  UI_COMPONENTS,
  UI_JUSTIFY,
  UI_SCHEMA_VERSION,
  childNodes,
  UiActionSchema,
  UiDocumentSchema,
  UiNodeSchema,
} from './nodes.ts';
export type {
  ActionsNode,
  ButtonNode,
  CardNode,
  ChartLiteNode,
  CheckBoxNode,
  ChoicePickerNode,
  DateTimeInputNode,
  DividerNode,
  DocRefNode,
  DocRefTarget,
  FormNode,
  KeyValueNode,
  LayoutNode,
  ListNode,
  MarkdownNode,
  SectionNode,
  SliderNode,
  TextFieldNode,
  TextNode,
  UiAction,
  UiChildren,
  UiComponentName,
  UiDocument,
  UiNode,
  UnsupportedNode,
} from './nodes.ts';
export { UI_DOCUMENT_LIMITS, readUiDocument, uiDocumentProblems } from './read.ts';
export type { UiDocumentReading, UnsupportedReport } from './read.ts';
export { adaptA2uiSurface } from './a2ui.ts';
export type { A2uiAdaptation } from './a2ui.ts';
export {
  UI_ACTION_ERROR_CODES,
  UI_CARD_EVENT_PAYLOAD_SCHEMAS,
  CardPostedPayloadSchema,
  UiActionRequestSchema,
  UiActionResultSchema,
  UiDeclaredArgumentsSchema,
  UiPanelListSchema,
  UiPanelSchema,
  UiSourceSchema,
  UiSurfaceReferenceSchema,
} from './surfaces.ts';
export type {
  CardPostedPayload,
  UiActionErrorCode,
  UiActionRequest,
  UiActionResult,
  UiPanel,
  UiPanelList,
  UiSurfaceReference,
} from './surfaces.ts';
