/**
 * Alarm e-mail configuration: raw device data -> AlarmData. The SMTP password is masked unless
 * the technician asked for secrets: the device returns a real one, and screens get shared.
 */
import type { RawAlarmEmail } from '../api/schemas.js';
import { sanitizeLabel, sanitizeOptional, sanitizeText } from './sanitize.js';
import type { AlarmData } from './snapshot.js';
import { finiteOrNull } from './units.js';

export const MASKED_SECRET = '***';

export function normalizeAlarm(raw: RawAlarmEmail, opts: { showSecrets: boolean }): AlarmData {
  return {
    emailAlertEnabled: raw.emailAlertEnabled ?? null,
    senderEmail: sanitizeOptional(raw.senderEmail),
    senderName: sanitizeOptional(raw.senderName),
    recipientEmails: (raw.recipientEmails ?? []).map((r) => sanitizeText(r)),
    alertLevel: sanitizeLabel(raw.alertLevel),
    includeDeviceId: raw.includeDeviceId ?? null,
    smtpServer: sanitizeOptional(raw.smtpServer),
    smtpPort: finiteOrNull(raw.smtpPort),
    smtpTimeout: finiteOrNull(raw.smtpTimeout),
    smtpUseTLS: raw.smtpUseTLS ?? null,
    smtpUseAuth: raw.smtpUseAuth ?? null,
    smtpUsername: sanitizeOptional(raw.smtpUsername),
    smtpPassword: maskSecret(raw.smtpPassword, opts.showSecrets),
    emailSubjectPrefix: sanitizeOptional(raw.emailSubjectPrefix),
    checkInterval: finiteOrNull(raw.checkInterval),
    maxEmailsPerHour: finiteOrNull(raw.maxEmailsPerHour),
    retryCount: finiteOrNull(raw.retryCount),
    retryDelay: finiteOrNull(raw.retryDelay),
  };
}

/** null when none was sent; '' stays '' (it reveals nothing, and tells "no password set"). */
export function maskSecret(secret: string | null | undefined, show: boolean): string | null {
  if (typeof secret !== 'string') return null;
  if (secret === '' || show) return sanitizeText(secret);
  return MASKED_SECRET;
}
