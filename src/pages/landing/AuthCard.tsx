// The Login / Register / Guest tabs. Three radio buttons drive the tabs with CSS alone (:checked),
// so they work with JavaScript off and are keyboard-operable like any radio group (arrow keys).
import { useT } from "../../i18n/react.tsx";
import type { T } from "../../i18n/catalogue.ts";
import type { AuthTab, FormState } from "./form-state.ts";
import { GuestForm } from "./GuestForm.tsx";
import { LoginForm } from "./LoginForm.tsx";
import { RegisterForm } from "./RegisterForm.tsx";

const tabsOf = (t: T): { id: AuthTab; label: string; title: string }[] => [
  { id: "login", label: t("auth.tab_login"), title: t("auth.title_login") },
  { id: "register", label: t("auth.tab_register"), title: t("auth.title_register") },
  { id: "guest", label: t("auth.tab_guest"), title: t("auth.title_guest") },
];

export function AuthCard({ state }: { state: FormState }) {
  const stateFor = (tab: AuthTab) => (state.tab === tab ? state : null);
  const tabs = tabsOf(useT());
  return (
    <div className="auth-card" id="auth">
      {tabs.map((tab) => (
        <input key={tab.id} className="tab-radio" type="radio" name="auth-tab" id={`tab-${tab.id}`} value={tab.id} defaultChecked={state.tab === tab.id} aria-label={tab.label} />
      ))}
      <div className="tab-list" aria-hidden="true">
        {tabs.map((tab) => (
          <label key={tab.id} htmlFor={`tab-${tab.id}`} className={`tab tab-${tab.id}`}>
            {tab.label}
          </label>
        ))}
      </div>
      <section className="tab-panel panel-login" aria-labelledby="title-login">
        <h2 id="title-login" className="panel-title">
          {tabs[0]!.title}
        </h2>
        <LoginForm state={stateFor("login")} />
      </section>
      <section className="tab-panel panel-register" aria-labelledby="title-register">
        <h2 id="title-register" className="panel-title">
          {tabs[1]!.title}
        </h2>
        <RegisterForm state={stateFor("register")} />
      </section>
      <section className="tab-panel panel-guest" aria-labelledby="title-guest">
        <h2 id="title-guest" className="panel-title">
          {tabs[2]!.title}
        </h2>
        <GuestForm state={stateFor("guest")} />
      </section>
    </div>
  );
}
