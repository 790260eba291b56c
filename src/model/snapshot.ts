/**
 * The Snapshot: the normalized model every output reads (TUI, --once, --json, check, /metrics,
 * record files). Declared once in zod so the TypeScript types and the published JSON Schema
 * come from the same source. Times in nanoseconds, durations in seconds; a value the device did
 * not send, or that cannot be parsed, is null.
 */
import { z } from 'zod';

export const SNAPSHOT_SCHEMA_ID = 'synctop.snapshot/1';

const num = z.number().nullable();
const str = z.string().nullable();

export const apiErrorSchema = z.object({
  kind: z.enum(['network', 'http', 'protocol', 'device', 'auth']),
  code: z.string().optional(),
  message: z.string(),
});

/**
 * A list the device sent longer than synctop keeps (api/list-caps.ts): the first `kept` items
 * are used, and every output says so ("device sent 100,000 NTP sources; showing the first 256").
 */
export const cappedListSchema = z.object({
  list: z.string().describe('what the list holds, e.g. "NTP sources"'),
  sent: z.number().describe('items the device sent'),
  kept: z.number().describe('items kept: the first ones'),
});
const capped = z.array(cappedListSchema).optional().describe('lists the device sent longer than synctop keeps; absent when none');

export const ntpSourceSchema = z.object({
  name: z.string(),
  mode: str,
  state: str.describe('Best source, Combined with best, Selectable, False ticker, Too variable, Not selectable, or what the device sent'),
  isSyncSource: z.boolean(),
  stratum: num,
  pollSeconds: num,
  reach: str.describe('octal reachability register as sent, e.g. "377"'),
  reachCount: num.describe('successful polls among the last 8'),
  lastRxSeconds: num,
  offsetNs: num,
  measuredOffsetNs: num,
  errorNs: num,
});

export const ntpDataSchema = z.object({
  overallStatus: str,
  syncSource: str.describe('null when the device says None'),
  sourceCount: num,
  sources: z.array(ntpSourceSchema),
  capped,
});

export const satellitesSchema = z.object({ gps: num, glonass: num, bds: num, galileo: num });

export const gnssReceiverSchema = z.object({
  id: num,
  status: str,
  antenna: str,
  ppsValid: z.boolean().nullable().describe('from ppsValid or indicatorValid'),
  latitudeDeg: num,
  longitudeDeg: num,
  altitudeM: num,
  hdop: num,
  vdop: num,
  pdop: num,
  utc: str.describe('ISO-8601'),
  gpsLeapSeconds: num,
  bdsLeapSeconds: num,
  satellites: satellitesSchema,
  satellitesTotal: num,
});

export const gnssDataSchema = z.object({ receivers: z.array(gnssReceiverSchema), capped });

export const ptpPortSchema = z.object({
  id: z.number(),
  ok: z.boolean(),
  error: apiErrorSchema.optional(),
  portNumber: num.describe('PTP port number as the device reports it (starts at 1)'),
  syncState: str,
  offsetFromMasterNs: num,
  meanPathDelayNs: num,
  masterOffsetNs: num,
  stepsRemoved: num,
  cumulativeRateOffsetPpm: num,
  gmPresent: z.boolean().nullable(),
  gmIdentity: str,
  parentPortIdentity: str,
  gmClockClass: num,
  gmClockAccuracy: num,
  gmOffsetScaledLogVariance: num,
  gmPriority1: num,
  gmPriority2: num,
  lastUpdate: num.describe('device timestamp, seconds'),
});

export const ptpDataSchema = z.object({ ports: z.array(ptpPortSchema), capped });

export const alarmDataSchema = z.object({
  emailAlertEnabled: z.boolean().nullable(),
  senderEmail: str,
  senderName: str,
  recipientEmails: z.array(z.string()),
  alertLevel: str,
  includeDeviceId: z.boolean().nullable(),
  smtpServer: str,
  smtpPort: num,
  smtpTimeout: num,
  smtpUseTLS: z.boolean().nullable(),
  smtpUseAuth: z.boolean().nullable(),
  smtpUsername: str,
  smtpPassword: str.describe('"***" unless --show-secrets; null when the device sent none'),
  emailSubjectPrefix: str,
  checkInterval: num,
  maxEmailsPerHour: num,
  retryCount: num,
  retryDelay: num,
  capped,
});

function section<T extends z.ZodType>(data: T) {
  return z.discriminatedUnion('ok', [
    z.object({ ok: z.literal(true), data }),
    z.object({ ok: z.literal(false), error: apiErrorSchema }),
  ]);
}

export const findingSchema = z.object({
  rule: z.string().describe('the rule of the health rule table (README: the health verdict)'),
  severity: z.enum(['warning', 'critical']),
  section: z.enum(['ntp', 'gnss', 'ptp', 'alarm', 'device']),
  message: z.string(),
  since: z.string().optional().describe('ISO-8601: first seen (live monitor and screendumps only)'),
  sinceAtLeast: z.boolean().optional().describe('already there when first seen (at start, or after a gap): since is a lower bound'),
  staleDataAt: z.string().optional().describe('ISO-8601: the finding rests on data from then, which cannot be read now'),
});

export const healthSchema = z.object({
  severity: z.enum(['ok', 'warning', 'critical']),
  findings: z.array(findingSchema).describe('worst first'),
});

export const snapshotSchema = z.object({
  schema: z.literal(SNAPSHOT_SCHEMA_ID),
  device: z.string(),
  takenAt: z.string().describe('ISO-8601'),
  ntp: section(ntpDataSchema),
  gnss: section(gnssDataSchema),
  ptp: section(ptpDataSchema),
  alarm: section(alarmDataSchema),
  health: healthSchema.optional().describe('the health verdict of the rule table (the same as check and the live header)'),
});

export type Snapshot = z.infer<typeof snapshotSchema>;
export type SnapshotError = z.infer<typeof apiErrorSchema>;
export type HealthJson = z.infer<typeof healthSchema>;
export type CappedList = z.infer<typeof cappedListSchema>;
export type NtpData = z.infer<typeof ntpDataSchema>;
export type NtpSource = z.infer<typeof ntpSourceSchema>;
export type GnssData = z.infer<typeof gnssDataSchema>;
export type GnssReceiver = z.infer<typeof gnssReceiverSchema>;
export type PtpData = z.infer<typeof ptpDataSchema>;
export type PtpPort = z.infer<typeof ptpPortSchema>;
export type AlarmData = z.infer<typeof alarmDataSchema>;
export type Section<T> = { ok: true; data: T } | { ok: false; error: SnapshotError };
export type SectionName = 'ntp' | 'gnss' | 'ptp' | 'alarm';
/** The device's four operations, in the order they are shown and polled. */
export const sectionNames: readonly SectionName[] = ['ntp', 'gnss', 'ptp', 'alarm'];

/** The published JSON Schema of the snapshot contract. */
export function snapshotJsonSchema(): Record<string, unknown> {
  return {
    $id: 'https://synctop.invalid/schema/snapshot-1.json',
    title: 'synctop snapshot',
    ...z.toJSONSchema(snapshotSchema, { target: 'draft-2020-12' }),
  };
}
