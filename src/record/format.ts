/**
 * The recording format: JSON Lines. The first line says what the file is; every other line is
 * one poll result of one section at one time, in the snapshot contract. Replaying the lines
 * through the same store the live poller feeds gives back the same panes, events and verdict.
 */
import { z } from 'zod';
import { MAX_INTERVAL_S } from '../config.js';
import { alarmDataSchema, apiErrorSchema, gnssDataSchema, ntpDataSchema, ptpDataSchema } from '../model/snapshot.js';

export const RECORDING_SCHEMA = 'synctop.recording/1';

export const recordingHeaderSchema = z.object({
  schema: z.literal(RECORDING_SCHEMA),
  device: z.string(),
  /** A fleet recording (export --record) names its devices; each entry then names its own. */
  devices: z.array(z.string()).optional(),
  intervalMs: z.number().positive().max(MAX_INTERVAL_S * 1000),
  startedAt: z.string(),
  version: z.string(),
});
export type RecordingHeader = z.infer<typeof recordingHeaderSchema>;

const result = <T extends z.ZodType>(data: T) =>
  z.discriminatedUnion('ok', [z.object({ ok: z.literal(true), data }), z.object({ ok: z.literal(false), error: apiErrorSchema })]);

const unreachableSchema = z.object({ since: z.number(), retryAt: z.number(), reason: z.string() }).nullable();

export const recordingEntrySchema = z.discriminatedUnion('section', [
  z.object({ at: z.string(), device: z.string().optional(), section: z.literal('ntp'), result: result(ntpDataSchema), unreachable: unreachableSchema.optional() }),
  z.object({ at: z.string(), device: z.string().optional(), section: z.literal('gnss'), result: result(gnssDataSchema), unreachable: unreachableSchema.optional() }),
  z.object({ at: z.string(), device: z.string().optional(), section: z.literal('ptp'), result: result(ptpDataSchema), unreachable: unreachableSchema.optional() }),
  z.object({ at: z.string(), device: z.string().optional(), section: z.literal('alarm'), result: result(alarmDataSchema), unreachable: unreachableSchema.optional() }),
]);
export type RecordingEntry = z.infer<typeof recordingEntrySchema>;
