import { SITE_NAME, type PageInfo } from "../page-info.ts";
import { BLOCK_SENTENCE, REPORT_PLACES, REPORT_RETENTION_DAYS, REPORTED_MESSAGES, ROULETTE_TEXT_MINUTES, UNDER_18_RETENTION } from "../safety-texts.ts";
import { LegalPage } from "./LegalPage.tsx";
import { RelayNote } from "./RelayNote.tsx";

export function TermsPage({ page }: { page: PageInfo }) {
  const { config } = page;
  return (
    <LegalPage page={page} title="Terms of User Agreement" description={`The rules for using ${SITE_NAME}: who may join, what is prohibited, moderation, bans and liability.`}>
      <p>
        This agreement is between you and {config.operatorName} (address: {config.operatorAddress}), which runs {SITE_NAME} and is called the “administration” below.
        By logging in, registering or entering as a guest you accept it. If you do not accept it, do not use {SITE_NAME}.
      </p>

      <h2>1. Who may use {SITE_NAME}</h2>
      <p>
        Only persons aged 18 or older. Minors are prohibited. Accounts are for private persons: organisations, companies and groups may not
        register. You may hold one account and may not use another person's.
      </p>

      <h2>2. Accounts</h2>
      <p>
        A registered account is protected by your password; keep it secret. A guest account is created with a gender only and a generated
        name; it has no password, so once you log out you cannot return to it. You are responsible for what is done with your account.
      </p>

      <h2>3. Prohibited content and conduct</h2>
      <ul>
        <li>Nudity and erotic content of any kind, in video, photos, files, avatars or messages. Showing or sending it leads to a ban.</li>
        <li>Anything involving minors, and any content that is illegal where you or the other person are.</li>
        <li>Harassment, threats, hate speech, and recording or publishing other users without their consent.</li>
        <li>Spam, advertising, scams, requests for money, and links to malicious software.</li>
        <li>Sharing other people's personal data, and pretending to be someone else.</li>
      </ul>

      <h2>4. Moderation</h2>
      <ul>
        <li>The administration may monitor video and image transmission and take screenshots to check that these rules are kept.</li>
        <li>
          The administration may ask you for proof of your age or gender, including by a video call. Accounts that do not prove it are
          banned without recovery.
        </li>
        <li>
          Any user can report another: press Report {REPORT_PLACES}, or write to <a href={`mailto:${config.helpEmail}`}>{config.helpEmail}</a>.
          The administration reviews each report. {BLOCK_SENTENCE}
        </li>
        <li>
          The administration may ban an account that breaks these rules. The length of a ban is set by the administration and may be
          permanent. A ban ends all of the account's sessions at once.
        </li>
      </ul>

      <h2>5. What reports, blocks and the 18+ confirmation keep</h2>
      <ul>
        <li>
          A report keeps who reported whom, where (a profile, a chat, a message, a call or Video Roulette), the reason, the details
          written, and when it was made and changed.
        </li>
        <li>
          Reporting a chat or a message copies the last {REPORTED_MESSAGES} messages of that conversation into the report (their text, file
          names and references to the files), so that nobody can remove that evidence later.
        </li>
        <li>
          Reporting a call or a Video Roulette partner makes your browser take a still picture of the partner's video and send it with the
          report. It is stored privately without metadata and is seen only by moderators, never by you or the person reported.
        </li>
        <li>
          The text chat beside Video Roulette is kept only until the session ends and {ROULETTE_TEXT_MINUTES} minutes after (with a
          copy in the server's database so that a restart does not lose it, deleted when that time is over). A report made in that time
          keeps the session's text chat with the report.
        </li>
        <li>
          Reports and their evidence are kept until a moderator closes them and then for {REPORT_RETENTION_DAYS} days.{" "}
          {UNDER_18_RETENTION} A block is kept until
          you remove it. The time you confirmed that you are 18 or older is kept with your account.
        </li>
      </ul>

      <h2>6. Calls and Video Roulette</h2>
      <ul>
        <li>
          A Video Roulette partner is shown only as “Stranger” with a gender, age and country, never a name, username, avatar or
          orientation, and you are shown to them the same way. “Keep in touch” shares your profile and opens a chat only when both of you
          press it; pressing it alone reveals nothing to the other person.
        </li>
        <li>
          Calls and Video Roulette connect your browser to the other person's. Unless the administration sets up a relay (TURN) server and
          sends every call through it, the other person's browser can learn your IP address. <RelayNote config={config} />
        </li>
      </ul>

      <h2>7. Premium accounts and Minutes</h2>
      <p>
        The administration may offer premium accounts and Minutes, a prepaid balance for paid features. Their prices and rules are shown
        before you buy. Payments are handled by a payment provider; we neither receive nor store credit card data. Minutes of an account
        banned for breaking these rules are not refunded.
      </p>

      <h2>8. Liability</h2>
      <p>
        {SITE_NAME} is provided as it is. Users, not the administration, are responsible for what they say and show. To the extent the law
        allows, the administration's liability towards you for any claim is limited to the value of the Minutes balance on your account.
      </p>

      <h2>9. Privacy</h2>
      <p>
        How we handle your data is described in the <a href="/privacy">Privacy Policy</a> and the <a href="/cookies">Cookies Policy</a>.
      </p>

      <h2>10. Changes and contact</h2>
      <p>
        We may change these terms; the date above shows the latest version, and continuing to use {SITE_NAME} after a change means you
        accept it. Questions: <a href={`mailto:${config.contactEmail}`}>{config.contactEmail}</a>.
      </p>
    </LegalPage>
  );
}
