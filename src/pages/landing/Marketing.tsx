// The landing page's long section (spec section 1): what the product offers, in words true to
// what it does. The FAQ uses <details>, so it opens and closes without JavaScript.
import type { Config } from "../../config.ts";
import { countries } from "../../geo/countries.ts";
import { SITE_NAME } from "../page-info.ts";
import { BLOCK_SENTENCE, REPORT_PLACES } from "../safety-texts.ts";

const features = [
  {
    icon: "\u26A1",
    title: "No sign-up required",
    text: "Open the Guest tab, pick male or female and you are in. We make up a guest name for you: no e-mail, no password, no forms.",
  },
  {
    icon: "\u{1F50E}",
    title: "Gender and country filters",
    text: "Find Users filters people by gender, country, age, orientation and who is online right now, so you meet the people you came for.",
  },
  {
    icon: "\u{1F576}\uFE0F",
    title: "Anonymous chat",
    text: "Others see only your display name, gender, age and country. Your e-mail is never shown, and photo location data is removed before a picture is shared.",
  },
  {
    icon: "\u{1F3A5}",
    title: "Video Roulette",
    text: "One click pairs you with a random stranger for a face-to-face video chat. Not a match? Press Next Partner and meet someone else.",
  },
  {
    icon: "\u{1F4AC}",
    title: "Private messages",
    text: "One-to-one chat with typing indicators, delivered and read ticks, emoji, photos and files up to 10 MB, and video calls.",
  },
  {
    icon: "\u{1F30D}",
    title: "190+ countries",
    text: `People join from all over the world: pick your country from ${countries.length} countries and territories and find others near you or far away.`,
  },
];

const safetyTips = [
  "Keep personal details to yourself: your full name, address, workplace, phone number and social media accounts.",
  "Never send money, gift cards or codes to someone you met here, whatever story they tell.",
  "Leave any chat that makes you uncomfortable: close it, or press Next Partner in Video Roulette.",
  `Report anyone who breaks the rules: press Report ${REPORT_PLACES}. Block anyone you do not want to hear from again.`,
  "Nudity and erotic content are not allowed. Whoever shows them is banned.",
  "Remember that the other side can record their screen. Only show what you would show a stranger.",
];

const faq = (config: Config) => [
  {
    q: `Who can use ${SITE_NAME}?`,
    a: `Adults only: you must be 18 or older. Accounts are for private persons; organisations may not register. We may ask you to prove your age or gender, including by a short video call.`,
  },
  {
    q: "Do I need an account?",
    a: "No. A guest needs only a gender. Register if you want to keep your name, profile and conversations and log in from other devices.",
  },
  {
    q: "How does Video Roulette work?",
    a: "Open the Video Chat tab and press Start Video Chat. You are paired with a random person who is also searching; Next Partner finds someone new and Stop ends the search. Your browser asks for camera and microphone access first.",
  },
  {
    q: "Can I send photos and files?",
    a: "Yes: drop them into a chat or use the attach button. Each file may be up to 10 MB. Files in a conversation can be opened only by its two participants.",
  },
  {
    q: "Is my location shared?",
    a: "No. On the Register tab we suggest your country from your internet address, and you can change it; the address itself is not stored with your profile. Location data inside photos is removed before they are stored.",
  },
  {
    q: "What happens if someone breaks the rules?",
    a: `Press Report ${REPORT_PLACES}, or write to ${config.helpEmail}. ${BLOCK_SENTENCE} The administration reviews reports, may look at video and image transmission, and bans accounts for as long as it decides.`,
  },
];

export function Marketing({ config }: { config: Config }) {
  return (
    <>
      <section className="section" aria-labelledby="features-title">
        <div className="container">
          <h2 id="features-title" className="section-title">
            Meet new people, your way
          </h2>
          <ul className="feature-grid">
            {features.map((f) => (
              <li key={f.title} className="feature">
                <span className="feature-icon" aria-hidden="true">
                  {f.icon}
                </span>
                <h3>{f.title}</h3>
                <p>{f.text}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>
      <section className="section section-tint" aria-labelledby="safety-title">
        <div className="container safety">
          <div>
            <h2 id="safety-title" className="section-title">
              Safety tips
            </h2>
            <p className="section-lead">A few habits keep random chat fun. The administration does its part; these are yours.</p>
          </div>
          <ul className="tip-list">
            {safetyTips.map((tip) => (
              <li key={tip}>{tip}</li>
            ))}
          </ul>
        </div>
      </section>
      <section className="section" aria-labelledby="faq-title">
        <div className="container narrow">
          <h2 id="faq-title" className="section-title">
            Frequently asked questions
          </h2>
          <div className="faq">
            {faq(config).map((item) => (
              <details key={item.q}>
                <summary>{item.q}</summary>
                <p>{item.a}</p>
              </details>
            ))}
          </div>
        </div>
      </section>
    </>
  );
}
