/**
 * zod schemas of what the device sends: the envelope and the four resources.
 *
 * They are deliberately tolerant: enumerated strings accept any text (a firmware that adds a
 * state must not blank a pane; the model decodes the known values), optional fields may be
 * missing or null, and unknown extra fields are ignored. They stay strict on types, so a
 * number sent as an object is a protocol error that names the field.
 */
import { z } from 'zod';

const optString = z.string().nullish();
const optNumber = z.number().nullish();
const optBoolean = z.boolean().nullish();

export const envelopeSchema = z.object({
  success: z.boolean(),
  data: z.unknown().optional(),
  errorCode: z.union([z.string(), z.number()]).nullish(),
  errorMessage: z.string().nullish(),
  showType: z.number().nullish(),
  traceId: z.string().nullish(),
});
export type Envelope = z.infer<typeof envelopeSchema>;

export const ntpSourceSchema = z.object({
  nameIp: optString,
  mode: optString,
  state: optString,
  isSyncSource: optBoolean,
  stratum: optNumber,
  poll: optNumber,
  reach: z.union([z.string(), z.number()]).nullish(),
  lastRx: optString,
  // Irregularity named by the spec: one sample source lacks lastSample and carries it in lastRx.
  lastSample: optString,
});
export type RawNtpSource = z.infer<typeof ntpSourceSchema>;

export const ntpStatusSchema = z.object({
  overallStatus: optString,
  syncSourceName: optString,
  sourceCount: optNumber,
  sources: z.array(ntpSourceSchema).nullish(),
});
export type RawNtpStatus = z.infer<typeof ntpStatusSchema>;

export const gnssPositionSchema = z.object({
  // The sample writes "22.5'N"; a device may also send a plain signed number.
  latitude: z.union([z.string(), z.number()]).nullish(),
  longitude: z.union([z.string(), z.number()]).nullish(),
  altitude: optNumber,
  hdop: optNumber,
  vdop: optNumber,
  pdop: optNumber,
});

export const gnssSignalSchema = z.object({
  type: optString,
  active: z.union([z.number(), z.boolean()]).nullish(),
  count: optNumber,
});

/** A standby receiver omits most fields: everything but the id is optional. */
export const gnssReceiverSchema = z.object({
  id: optNumber,
  status: optString,
  position: gnssPositionSchema.nullish(),
  utcDate: optString,
  utcTime: optString,
  gpsLeapSecond: optNumber,
  bdsLeapSecond: optNumber,
  antStatus: optString,
  ppsValid: optString,
  indicatorValid: optString,
  signal: z.array(gnssSignalSchema).nullish(),
});
export type RawGnssReceiver = z.infer<typeof gnssReceiverSchema>;

/** Whether an id-filtered request returns an array of one or the bare object is not shown: accept both. */
export const gnssListSchema = z.union([z.array(gnssReceiverSchema), gnssReceiverSchema.transform((r) => [r])]);
export type RawGnssList = z.infer<typeof gnssListSchema>;

export const alarmEmailSchema = z.object({
  emailAlertEnabled: optBoolean,
  senderEmail: optString,
  senderName: optString,
  recipientEmails: z.array(z.string()).nullish(),
  alertLevel: optString,
  includeDeviceId: optBoolean,
  smtpServer: optString,
  smtpPort: optNumber,
  smtpTimeout: optNumber,
  smtpUseTLS: optBoolean,
  smtpUseAuth: optBoolean,
  smtpUsername: optString,
  smtpPassword: optString,
  emailSubjectPrefix: optString,
  checkInterval: optNumber,
  maxEmailsPerHour: optNumber,
  retryCount: optNumber,
  retryDelay: optNumber,
});
export type RawAlarmEmail = z.infer<typeof alarmEmailSchema>;

export const ptpSlaveSchema = z.object({
  portId: optNumber,
  portNumber: optNumber,
  syncState: optString,
  offsetFromMaster: optNumber,
  meanPathDelay: optNumber,
  masterOffset: optNumber,
  stepsRemoved: optNumber,
  cumulativeRateOffset: optNumber,
  gmPresent: optBoolean,
  gmIdentity: optString,
  parentPortIdentity: optString,
  gmClockClass: optNumber,
  gmClockAccuracy: optNumber,
  gmOffsetScaledLogVariance: optNumber,
  gmPriority1: optNumber,
  gmPriority2: optNumber,
  lastUpdate: optNumber,
});
export type RawPtpSlave = z.infer<typeof ptpSlaveSchema>;
