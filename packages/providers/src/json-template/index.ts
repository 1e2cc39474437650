export { StringSlotTemplate, findStringSlot } from './string-slot-template.ts';
