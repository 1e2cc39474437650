import { z } from 'zod';
import { ContextAssemblyReportSchema } from '../context/index.ts';
import { EventEnvelopeSchema, type WorkbenchEvent } from '../events/index.ts';
import { RunSchema } from '../runs/index.ts';

/**
 * One model call of a replayed run: its assembly report and where the call sits among the run's
 * events — `before_seq` is the first event recorded after the request was assembled (what the call
 * produced starts there); null when the run recorded nothing after it (a call refused over budget,
 * or one cut short).
 */
export const ReplayModelCallSchema = z.object({
  call_index: z.number().int().min(0),
  before_seq: z.number().int().nullable(),
  report: ContextAssemblyReportSchema,
});
export type ReplayModelCall = z.infer<typeof ReplayModelCallSchema>;

/**
 * `GET /api/runs/:id/replay` (spec §4.17 事件重放): a run's recorded events, oldest first, with
 * the assembly report of each of its model calls placed among them — what a timeline needs to
 * play any answer back, a conversation's turn as well as a sub-agent.
 *
 * @example
 * const replay = RunReplaySchema.parse(await (await fetch(`/api/runs/${id}/replay`)).json());
 */
export const RunReplaySchema = z
  .object({
    run: RunSchema,
    events: z.array(EventEnvelopeSchema),
    calls: z.array(ReplayModelCallSchema),
  })
  .meta({ id: 'RunReplay' });
/** The events typed by their `type` (the schema checks the envelope only, as an event page does). */
export type RunReplay = Omit<z.infer<typeof RunReplaySchema>, 'events'> & { events: WorkbenchEvent[] };
