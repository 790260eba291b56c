/** The alarm e-mail configuration -> labelled fields. Pure. */
import type { AlarmData } from '../model/snapshot.js';
import { formatDuration, formatNumber } from '../model/units.js';
import { flagStyle } from './theme.js';
import type { Line } from './cell.js';
import { cell } from './cell.js';
import type { Field } from './field.js';

const dash = (text: string | null): Line => [cell(text ?? '-', text === null ? 'muted' : undefined)];

export function senderText(data: AlarmData): string | null {
  if (data.senderName && data.senderEmail) return `${data.senderName} <${data.senderEmail}>`;
  if (data.senderEmail) return `<${data.senderEmail}>`;
  return data.senderName;
}

export function alarmFields(data: AlarmData): Field[] {
  const enabled = flagStyle(data.emailAlertEnabled, ['on', 'off'], false);
  const onOff = (v: boolean | null) => (v === null ? '-' : v ? 'on' : 'off');
  const host = data.smtpServer === null && data.smtpPort === null ? '-' : `${data.smtpServer ?? '-'}:${formatNumber(data.smtpPort)}`;
  const secs = (n: number | null) => (n === null ? null : formatDuration(n));
  const auth = data.smtpUseAuth === true ? `on, user ${data.smtpUsername ?? '-'}` : `${onOff(data.smtpUseAuth)}${data.smtpUsername ? `, user ${data.smtpUsername}` : ''}`;
  return [
    {
      label: 'e-mail alerts',
      value: [cell(`${enabled.symbol} ${enabled.word}`, enabled.token, true), cell(data.alertLevel === null ? ', level -' : `, ${data.alertLevel} and above`)],
    },
    { label: 'recipients', value: dash(data.recipientEmails.length === 0 ? null : data.recipientEmails.join(', ')) },
    { label: 'sender', value: dash(senderText(data)) },
    { label: 'subject prefix', value: dash(data.emailSubjectPrefix) },
    { label: 'device id', value: [cell(data.includeDeviceId === null ? '-' : data.includeDeviceId ? 'in mails' : 'not in mails')] },
    { label: 'SMTP', value: [cell(`${host}, TLS ${onOff(data.smtpUseTLS)}`)] },
    { label: 'auth', value: [cell(auth)] },
    // Shown exactly as the model holds it: masked as *** unless --show-secrets.
    { label: 'password', value: dash(data.smtpPassword) },
    { label: 'SMTP timeout', value: dash(secs(data.smtpTimeout)) },
    { label: 'check every', value: dash(secs(data.checkInterval)) },
    { label: 'rate limit', value: dash(data.maxEmailsPerHour === null ? null : `${formatNumber(data.maxEmailsPerHour)} mails/h`) },
    { label: 'retries', value: dash(data.retryCount === null ? null : `${formatNumber(data.retryCount)}, ${secs(data.retryDelay) ?? '-'} apart`) },
  ];
}
