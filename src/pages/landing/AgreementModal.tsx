// The User Agreement modal. Without JavaScript it is a :target overlay opened by the
// "#agreement" links and closed by links back to the form; the enhancement script turns it into
// a real modal (focus kept inside, Escape, click on the overlay closes, focus returns).
import type { Config } from "../../config.ts";
import { SITE_NAME } from "../page-info.ts";
import { BLOCK_SENTENCE, REPORT_PLACES } from "../safety-texts.ts";

export function AgreementModal({ config }: { config: Config }) {
  return (
    <div className="modal" id="agreement" role="dialog" aria-modal="true" aria-labelledby="agreement-title" data-modal="">
      <a className="modal-overlay" href="#auth" tabIndex={-1} aria-hidden="true" data-modal-close="">
        <span className="sr-only">Close</span>
      </a>
      <div className="modal-box">
        <h2 id="agreement-title">User Agreement</h2>
        <div className="modal-body">
          <p>
            {config.operatorName === SITE_NAME ? "" : `${SITE_NAME} is run by ${config.operatorName}. `}By logging in, registering or
            entering as a guest you accept these rules and the full <a href="/terms">Terms of User Agreement</a>.
          </p>
          <ol>
            <li>You are 18 years old or older. Minors may not use {SITE_NAME}, and accounts may be registered only by private persons, not by organisations.</li>
            <li>Nudity and erotic content are prohibited in video, images, files and messages. Showing or sending them leads to a ban.</li>
            <li>To keep the service safe, the administration may monitor video and image transmission and take screenshots.</li>
            <li>The administration may ask you to prove your age or gender, including by a video call. Accounts that do not prove it are banned without recovery.</li>
            <li>
              To report someone, press Report {REPORT_PLACES}, or write to <a href={`mailto:${config.helpEmail}`}>{config.helpEmail}</a>. {BLOCK_SENTENCE} The
              administration decides on each report and sets the length of any ban.
            </li>
            <li>Do not harass, threaten, scam or advertise to other users, and do not share other people's personal data.</li>
            <li>Our liability towards you is limited to the value of the Minutes balance on your account.</li>
          </ol>
          <p>
            How we handle your data is explained in the <a href="/privacy">Privacy Policy</a> and the <a href="/cookies">Cookies Policy</a>.
          </p>
        </div>
        <a className="btn btn-primary modal-close" href="#auth" data-modal-close="">
          Close
        </a>
      </div>
    </div>
  );
}
