import { SITE_NAME, type PageInfo } from "../page-info.ts";
import { REPORT_PLACES } from "../safety-texts.ts";
import { LegalPage } from "./LegalPage.tsx";

export function CompliancePage({ page }: { page: PageInfo }) {
  const { config } = page;
  return (
    <LegalPage page={page} title="18 U.S.C. 2257 Compliance Notice" description={`${SITE_NAME}'s statement under 18 U.S.C. 2257 and its age verification notice.`}>
      <h2>Statement</h2>
      <p>
        {SITE_NAME} is a platform on which adults chat with each other by text, photos and live video. {config.operatorName} does not
        produce, commission or publish visual depictions of actual or simulated sexually explicit conduct, and such content is prohibited
        on {SITE_NAME}: nudity and erotic content lead to a ban. {config.operatorName} is therefore not a “producer” of such depictions
        within the meaning of 18 U.S.C. 2257, 2257A and 28 C.F.R. 75.
      </p>
      <p>
        Live video and images on {SITE_NAME} are created and sent by users themselves. Users who send content warrant that it is lawful
        and that everyone shown in it is 18 or older and has agreed to be shown.
      </p>

      <h2>Age verification notice</h2>
      <ul>
        <li>Only persons aged 18 or older may use {SITE_NAME}. Every user confirms this before logging in, registering or entering as a guest.</li>
        <li>Registration accepts ages from 18 to 99 only.</li>
        <li>
          The administration may ask any user to prove their age, including by a video call. Accounts that do not prove it are banned
          without recovery.
        </li>
        <li>
          If you believe a minor is using {SITE_NAME}, or you see content that breaks these rules, press Report {REPORT_PLACES} and choose
          “Appears to be under 18” or the reason that fits, or write to <a href={`mailto:${config.helpEmail}`}>{config.helpEmail}</a>. We
          act on such reports first.
        </li>
      </ul>

      <h2>Custodian of records</h2>
      <p>
        Questions about this notice go to {config.operatorName}, {config.operatorAddress},{" "}
        <a href={`mailto:${config.contactEmail}`}>{config.contactEmail}</a>.
      </p>
    </LegalPage>
  );
}
