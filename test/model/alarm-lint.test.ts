import { describe, expect, it } from 'vitest';
import { lintAlarm } from '../../src/model/alarm-lint.js';
import type { AlarmData } from '../../src/model/snapshot.js';
import { healthy } from '../monitor/snapshots.js';

const base = (): AlarmData => {
  const s = healthy();
  if (!s.alarm.ok) throw new Error('fixture');
  return s.alarm.data;
};

describe('lintAlarm', () => {
  it('a good configuration has no findings', () => {
    expect(lintAlarm(base())).toEqual([]);
  });

  it.each<[string, Partial<AlarmData>, string]>([
    ['no recipients', { recipientEmails: [] }, 'alerting is on but there are no recipients: add at least one address'],
    ['465 without TLS', { smtpPort: 465, smtpUseTLS: false }, 'port 465 expects TLS from the first byte (SMTPS): turn TLS on, or use port 587'],
    ['587 without TLS', { smtpPort: 587, smtpUseTLS: false }, 'port 587 is the submission port and servers require STARTTLS: turn TLS on'],
    ['25 with auth in plain text', { smtpPort: 25, smtpUseTLS: false }, 'port 25 with authentication but no TLS sends the password in plain text: turn TLS on or use port 587'],
    ['auth without user', { smtpUsername: '' }, 'authentication is on but the user name is empty: set the SMTP user (usually the sender address)'],
    ['sender from another domain', { senderEmail: 'clock@other.org' }, 'the sender clock@other.org does not match the SMTP user alarm@example.com: most servers reject mail from another domain'],
    ['zero mails per hour', { maxEmailsPerHour: 0 }, 'at most 0 mails per hour means no alarm mail is ever sent: raise the limit'],
    ['malformed recipient', { recipientEmails: ['noc@example.com', 'bad address'] }, 'the recipient address "bad address" is malformed'],
    ['malformed sender', { senderEmail: 'clock.example.com', smtpUseAuth: false }, 'the sender address "clock.example.com" is malformed'],
    ['no SMTP server', { smtpServer: null }, 'alerting is on but no SMTP server is set'],
    ['alerting switched off', { emailAlertEnabled: false }, 'alarm e-mail is switched off: no alarm reaches anyone by mail'],
    // device API: alertLevel is the minimum level mailed; critical leaves out major (primary) alarms.
    ['alert level critical', { alertLevel: 'critical' }, 'alert level critical mails critical alarms only: major alarms (a lost PTP port, an antenna fault) send no mail; set major'],
    // RFC 6409 section 4.3: message submission authenticates the submitter.
    ['587 without authentication', { smtpPort: 587, smtpUseAuth: false }, 'port 587 is the submission port and servers require authentication (RFC 6409): turn authentication on'],
    // RFC 8314: implicit TLS on 465, STARTTLS on 587; one boolean cannot say which elsewhere.
    ['TLS on a port that does not say which TLS', { smtpPort: 2525, smtpUseTLS: true }, "TLS on port 2525: the device's one TLS flag cannot say whether it speaks implicit TLS or STARTTLS; check which the server expects there"],
  ])('%s', (_name, patch, message) => {
    expect(lintAlarm({ ...base(), ...patch }).map((f) => f.message)).toContain(message);
  });

  it('alerting off: that alone, no complaint about recipients or rate', () => {
    expect(lintAlarm({ ...base(), emailAlertEnabled: false, recipientEmails: [], maxEmailsPerHour: 0 }).map((f) => f.field)).toEqual(['emailAlertEnabled']);
  });
});
