/**
 * The alert digest by e-mail from Google Sheets: MailApp bound to the core's
 * Mailer (shared/monitor/alert-settings.ts), which decides what to send.
 *
 * MailApp (https://developers.google.com/apps-script/reference/mail/mail-app)
 * needs exactly the scope https://www.googleapis.com/auth/script.send_mail
 * (manifests/appsscript.json): it can only send, never read a mailbox, unlike
 * GmailApp. Its quota counts *recipients* per day
 * (getRemainingDailyQuota(): "the number of recipients you can send emails to
 * for the rest of the day"; Quotas for Google Services,
 * https://developers.google.com/apps-script/guides/services/quotas: 100
 * recipients a day for consumer accounts, 1,500 for Workspace). A digest to
 * three people costs three; when the rest of the day's quota cannot cover
 * all recipients the core does not send (a partial send would tell some and
 * not others) and the digest waits for the next run. sendEmail throws when
 * the quota is exceeded anyway ("Service invoked too many times for one day:
 * email."); the core turns that into its own message.
 * The harness (test/apps-script/harness.ts) models both.
 */
import type { Mailer } from "../shared/monitor/index.ts";
import { gas } from "./services.ts";

export function mailApp(): Mailer {
  return {
    remainingRecipients: () => gas().MailApp.getRemainingDailyQuota(),
    // Plain text only: register text never becomes HTML or a link.
    send: (to, subject, body) => gas().MailApp.sendEmail({ to: to.join(","), subject, body, name: "Company data" }),
  };
}
