/**
 * Lint of the alarm e-mail configuration: settings that look valid to the device but will not
 * deliver mail, or deliver it insecurely. Each finding is a sentence saying what to change.
 */
import type { AlarmData } from './snapshot.js';

export interface LintFinding {
  field: keyof AlarmData;
  message: string;
}

/**
 * Deliberately simple: one @, no spaces, a dot inside the domain. Enough to catch typos. Checked
 * by position rather than by a pattern such as /^[^\s@]+@[^\s@]+\.[^\s@]+$/, which tries every
 * dot of a long domain against every other and takes quadratic time on device text.
 */
function hasEmailShape(address: string): boolean {
  const at = address.indexOf('@');
  if (at <= 0 || at !== address.lastIndexOf('@') || /\s/.test(address)) return false;
  const domain = address.slice(at + 1);
  const dot = domain.indexOf('.', 1);
  return dot > 0 && dot < domain.length - 1;
}
const domainOf = (address: string) => address.split('@')[1]?.toLowerCase() ?? '';

type Lint = (a: AlarmData) => LintFinding[];

export const alarmLints: Lint[] = [
  (a) =>
    a.emailAlertEnabled === false
      ? [{ field: 'emailAlertEnabled', message: 'alarm e-mail is switched off: no alarm reaches anyone by mail' }]
      : [],
  // alertLevel is the minimum level mailed (device API); "critical" drops the major (primary) alarms.
  (a) =>
    a.emailAlertEnabled && a.alertLevel === 'critical'
      ? [{ field: 'alertLevel', message: 'alert level critical mails critical alarms only: major alarms (a lost PTP port, an antenna fault) send no mail; set major' }]
      : [],
  (a) =>
    a.emailAlertEnabled && a.recipientEmails.length === 0
      ? [{ field: 'recipientEmails', message: 'alerting is on but there are no recipients: add at least one address' }]
      : [],
  (a) =>
    a.smtpPort === 465 && a.smtpUseTLS === false
      ? [{ field: 'smtpUseTLS', message: 'port 465 expects TLS from the first byte (SMTPS): turn TLS on, or use port 587' }]
      : [],
  (a) =>
    a.smtpPort === 587 && a.smtpUseTLS === false
      ? [{ field: 'smtpUseTLS', message: 'port 587 is the submission port and servers require STARTTLS: turn TLS on' }]
      : [],
  // RFC 6409 4.3: a submission server authenticates who submits; without it the server refuses or relays for anyone.
  (a) =>
    a.smtpPort === 587 && a.smtpUseAuth === false
      ? [{ field: 'smtpUseAuth', message: 'port 587 is the submission port and servers require authentication (RFC 6409): turn authentication on' }]
      : [],
  // One flag for two protocols: implicit TLS (465, RFC 8314) and STARTTLS (587) look the same in the API.
  (a) =>
    a.smtpUseTLS === true && a.smtpPort !== null && a.smtpPort !== 465 && a.smtpPort !== 587
      ? [{ field: 'smtpUseTLS', message: `TLS on port ${a.smtpPort}: the device's one TLS flag cannot say whether it speaks implicit TLS or STARTTLS; check which the server expects there` }]
      : [],
  (a) =>
    a.smtpPort === 25 && a.smtpUseAuth === true && a.smtpUseTLS !== true
      ? [{ field: 'smtpUseAuth', message: 'port 25 with authentication but no TLS sends the password in plain text: turn TLS on or use port 587' }]
      : [],
  (a) =>
    a.smtpUseAuth === true && !a.smtpUsername
      ? [{ field: 'smtpUsername', message: 'authentication is on but the user name is empty: set the SMTP user (usually the sender address)' }]
      : [],
  (a) =>
    a.smtpUseAuth === true &&
    a.smtpUsername &&
    a.senderEmail &&
    hasEmailShape(a.smtpUsername) &&
    a.smtpUsername.toLowerCase() !== a.senderEmail.toLowerCase() &&
    domainOf(a.smtpUsername) !== domainOf(a.senderEmail)
      ? [{ field: 'senderEmail', message: `the sender ${a.senderEmail} does not match the SMTP user ${a.smtpUsername}: most servers reject mail from another domain` }]
      : [],
  (a) =>
    a.emailAlertEnabled && a.maxEmailsPerHour === 0
      ? [{ field: 'maxEmailsPerHour', message: 'at most 0 mails per hour means no alarm mail is ever sent: raise the limit' }]
      : [],
  (a) => [
    ...(a.senderEmail && !hasEmailShape(a.senderEmail) ? [{ field: 'senderEmail' as const, message: `the sender address "${a.senderEmail}" is malformed` }] : []),
    ...a.recipientEmails
      .filter((r) => !hasEmailShape(r))
      .map((r) => ({ field: 'recipientEmails' as const, message: `the recipient address "${r}" is malformed` })),
  ],
  (a) =>
    a.emailAlertEnabled && !a.smtpServer
      ? [{ field: 'smtpServer', message: 'alerting is on but no SMTP server is set' }]
      : [],
];

export function lintAlarm(a: AlarmData): LintFinding[] {
  return alarmLints.flatMap((lint) => lint(a));
}
