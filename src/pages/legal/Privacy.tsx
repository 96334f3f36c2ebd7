import { CONSENT_COOKIE, FLASH_COOKIE } from "../../../islands/enhance/cookies.ts";
import { KEYS } from "../../../islands/lib/storage.ts";
import { SESSION_COOKIE } from "../../http/request.ts";
import { DEVICE_COOKIE } from "../../auth/device.ts";
import { SITE_NAME, type PageInfo } from "../page-info.ts";
import { REPORT_RETENTION_DAYS, REPORTED_MESSAGES, ROULETTE_TEXT_MINUTES, UNDER_18_RETENTION } from "../safety-texts.ts";
import { LegalPage } from "./LegalPage.tsx";
import { RelayNote } from "./RelayNote.tsx";

/** Every key islands/lib/storage.ts writes, explained: a new key fails to compile until it is. */
const storedKeys: Record<(typeof KEYS)[keyof typeof KEYS], string> = {
  userId: "your user id.",
  selectedUserId: "the person whose chat or profile you had open.",
  selectedViewMode: "whether that was their chat or their profile.",
  activeTab: "the tab you were on (All Users, Chats, Video Chat or Settings).",
  selectedSettingsSection: "the part of Settings you had open.",
  nudityBlurOffConfirmed: "that you already confirmed turning off the nudity blur, so it is not asked again.",
};

/** Where emoji-picker-react keeps its recently used emoji (tests/pages/privacy-storage.test.ts checks). */
const EMOJI_RECENT_KEY = "epr_suggested";

export function PrivacyPage({ page }: { page: PageInfo }) {
  const { config } = page;
  return (
    <LegalPage page={page} title="Privacy Policy" description={`What ${SITE_NAME} stores about you, why, and how to have it removed.`}>
      <p>
        This policy explains which personal data {SITE_NAME} handles when you use it, why, and what you can do about it. {SITE_NAME} is
        operated by {config.operatorName} (“we”; address: {config.operatorAddress}). Write to{" "}
        <a href={`mailto:${config.contactEmail}`}>{config.contactEmail}</a> with any question about your data.
      </p>
      <p>{SITE_NAME} is for adults only. We do not knowingly hold data about anyone under 18; such accounts are banned and deleted.</p>

      <h2>What we store</h2>
      <ul>
        <li>
          <strong>Your account.</strong> A registered account holds your username, e-mail address, display name, gender, age, country,
          orientation and, if you upload one, your avatar. Your password is stored only as a one-way hash; nobody can read it back. A guest
          account holds only the generated guest name and the gender you picked.
        </li>
        <li>
          <strong>Your messages and files.</strong> The text of your messages, the files and photos you send, when they were sent, delivered
          and read. Files in a conversation can be opened only by its two participants. Location and other metadata are removed from every
          photo and avatar, whatever its format, before it is stored.
        </li>
        <li>
          <strong>Presence.</strong> Whether you are online and when you were last seen, which other users can see.
        </li>
        <li>
          <strong>Your 18+ confirmation and privacy choice.</strong> When you confirmed that you are 18 or older and accepted the Terms, and
          whether everyone or only people you have written to may message and call you.
        </li>
        <li>
          <strong>Blocks.</strong> Whom you blocked and when, until you unblock them.
        </li>
        <li>
          <strong>Reports.</strong> Who reported whom, where (a profile, a chat, a message, a call or Video Roulette), the reason, the details
          written, the report's status and when it was made and changed. A report of a chat or a message also holds a copy of the last{" "}
          {REPORTED_MESSAGES} messages of that conversation (their text, file names and references to the files).
        </li>
        <li>
          <strong>Evidence stills.</strong> When you report a call or Video Roulette partner, your browser takes a still picture of the
          partner's video (at most 640 pixels on its longest side) and sends it with the report. We remove its metadata and store it
          privately: it is seen only by moderators, never by you or the person reported.
        </li>
        <li>
          <strong>Video Roulette text chat.</strong> Kept only until the session ends and {ROULETTE_TEXT_MINUTES} minutes after, so
          that it can go with a report: in the server's memory, with a copy in its database so that a restart does not lose it, deleted
          when that time is over. If either partner reports the other in that time, the session's text chat is kept with the report.
        </li>
        <li>
          <strong>Sessions.</strong> For each device you sign in on, a random session identifier and when it was created and last used, so
          that signing out or a ban ends it at once.
        </li>
      </ul>

      <h2>Your internet address and country</h2>
      <p>
        When you open the Register tab, we look up the country of your internet (IP) address in an offline database to suggest your
        country. The suggestion is not stored unless you keep it and create your account. We do not keep a log of IP addresses; to stop
        abuse we count sign-up attempts per address in the server's memory for up to an hour.
      </p>

      <h2>Video, calls and moderation</h2>
      <p>
        Video calls and Video Roulette connect your browser directly to the other person's where the network allows; otherwise the stream is
        relayed through a relay server without being recorded. <strong>A direct connection lets the other person's browser learn your IP
        address</strong>, and from it roughly where you are and who your internet provider is. Unless the operator sets up a relay (TURN)
        server and sends every call through it, this can happen with anyone you call or meet in Video Roulette. <RelayNote config={config} />
      </p>
      <p>
        To enforce the rules, the administration may monitor video and image transmission and take screenshots. Screenshots are kept only as
        long as needed to decide on a report or a ban. When we ask for proof of age or gender, including by video call, we keep only the
        result, not the proof.
      </p>
      <p>
        Unless you turn it off in Settings, nudity in a stranger's video and in pictures you receive is blurred. The check runs in your own
        browser, with a model that comes with the site: no frame of video and no picture is sent to us or to anyone else for it, and its
        results are not stored. Only your choice to have it on or off is kept with your account.
      </p>

      <h2>Payments, premium accounts and Minutes</h2>
      <p>
        Premium accounts and Minutes, where offered, are paid through a payment provider. We neither receive nor store credit card data; we
        keep only what was bought, when, and your Minutes balance.
      </p>

      <h2>Cookies and local storage</h2>
      <p>
        We use these necessary cookies: the session cookie <code>{SESSION_COOKIE}</code>, which keeps you signed in, the <code>{CONSENT_COOKIE}</code>{" "}
        cookie, which remembers your cookie choice, the <code>{DEVICE_COOKIE}</code> cookie, a random id for this browser that lets it
        past failed-login limits strangers cause and keeps bans from being dodged, and for one minute after you sign in the{" "}
        <code>{FLASH_COOKIE}</code> cookie, which shows the “signed in” message once. Your session token is not kept in local storage. The chat app keeps these in your browser's
        local storage:
      </p>
      <ul>
        {Object.values(KEYS).map((key) => (
          <li key={key}>
            <code>{key}</code>: {storedKeys[key]}
          </li>
        ))}
        <li>
          <code>{EMOJI_RECENT_KEY}</code>: the emoji you used recently, kept by the emoji picker.
        </li>
      </ul>
      <p>
        Nothing else is kept in your browser, except optional analytics and advertising cookies, which are used only with your consent; see the{" "}
        <a href="/cookies">Cookies Policy</a>.
      </p>

      <h2>Who sees your data</h2>
      <p>
        Other users see your display name, username, gender, age, country, orientation, avatar and online status, and the messages you send
        them. They never see your e-mail address. A Video Roulette partner sees only “Stranger” with your gender, age and country (and your
        video, voice and what you type beside it), never your name, username, avatar or orientation. “Keep in touch” shares your profile
        with a roulette partner only when both of you press it; pressing it alone reveals nothing. People you blocked and people who
        blocked you do not see you in their lists. We do not sell personal data. We disclose it to authorities only when the law requires it.
      </p>

      <h2>How long we keep it and your rights</h2>
      <p>
        We keep your account and messages until you ask us to delete them. Reports and their evidence (stills, copied messages, roulette
        text) are kept until a moderator closes the report and then for {REPORT_RETENTION_DAYS} days; blocks until you remove them; the time
        you confirmed being 18 or older as long as your account. {UNDER_18_RETENTION} You may ask for a copy of your data, its correction or its
        deletion, and object to its use, by writing to <a href={`mailto:${config.contactEmail}`}>{config.contactEmail}</a> from the address
        on your account. We answer within 30 days. You may also complain to your data protection authority.
      </p>
    </LegalPage>
  );
}
