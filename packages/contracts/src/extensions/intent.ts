import { z } from 'zod';
import { LocalizedTextSchema } from '../settings/index.ts';

/** One slot of an intent: a value the request must carry; a missing one becomes a HITL question. */
export const IntentSlotSchema = z
  .object({
    name: z.string().regex(/^[A-Za-z_][\w]{0,63}$/),
    /** Asked when the slot is missing. */
    question: LocalizedTextSchema,
    type: z.enum(['string', 'number', 'enum']).default('string'),
    enum: z.array(z.string().min(1)).min(1).optional(),
    required: z.boolean().default(true),
    /**
     * Where the value is in the user's words: the text after one of these (`in`, `for`, `城市`),
     * up to the end of the sentence. Enum slots also match their values anywhere.
     */
    after: z.array(z.string().min(1).max(40)).max(20).default([]),
  })
  .strict();
export type IntentSlot = z.infer<typeof IntentSlotSchema>;

/**
 * An intent (spec §4.6 intentgate), `intents/*.json` of an extension: when free input (a HITL
 * card's "something else", or a plain message starting with `/`) matches its keywords or examples,
 * it starts its workflow (or runs its command) with the slots it found; missing slots are asked.
 * With no intent installed, routing is the built-in one (T0).
 *
 * @example
 * const weather: Intent = { id: 'weather', title: 'Ask for the weather', keywords: ['weather', '天气'],
 *   examples: ['what is the weather in Paris'], workflow: 'city-report',
 *   slots: [{ name: 'city', question: { en: 'Which city?', 'zh-CN': '哪个城市？' }, type: 'string', required: true, after: ['in'] }] };
 */
export const IntentSchema = z
  .object({
    $schema: z.string().optional(),
    id: z.string().regex(/^[a-z][a-z0-9_-]{0,63}$/),
    title: z.string().min(1).max(200),
    keywords: z.array(z.string().min(1).max(80)).max(50).default([]),
    examples: z.array(z.string().min(1).max(500)).max(50).default([]),
    slots: z.array(IntentSlotSchema).max(10).default([]),
    /** What a match starts: one of the extension's workflows, or one of its commands. */
    workflow: z.string().max(64).optional(),
    command: z.string().max(64).optional(),
  })
  .strict()
  .refine((intent) => intent.keywords.length + intent.examples.length > 0, {
    message: 'an intent needs keywords or examples',
    path: ['keywords'],
  })
  .refine((intent) => (intent.workflow === undefined) !== (intent.command === undefined), {
    message: 'an intent starts exactly one of a workflow or a command',
    path: ['workflow'],
  });
export type Intent = z.infer<typeof IntentSchema>;

/** What the intent router found for a piece of free input. */
export const IntentMatchSchema = z.object({
  intent_id: z.string(),
  source: z.string(),
  score: z.number(),
  slots: z.record(z.string(), z.string()),
  missing: z.array(z.string()),
});
export type IntentMatch = z.infer<typeof IntentMatchSchema>;
