// The Login / Register / Guest tabs. Three radio buttons drive the tabs with CSS alone (:checked),
// so they work with JavaScript off and are keyboard-operable like any radio group (arrow keys).
import type { AuthTab, FormState } from "./form-state.ts";
import { GuestForm } from "./GuestForm.tsx";
import { LoginForm } from "./LoginForm.tsx";
import { RegisterForm } from "./RegisterForm.tsx";

const tabs: { id: AuthTab; label: string; title: string }[] = [
  { id: "login", label: "Login", title: "Welcome back" },
  { id: "register", label: "Register", title: "Create your account" },
  { id: "guest", label: "Guest", title: "Chat as a guest" },
];

export function AuthCard({ state }: { state: FormState }) {
  const stateFor = (tab: AuthTab) => (state.tab === tab ? state : null);
  return (
    <div className="auth-card" id="auth">
      {tabs.map((t) => (
        <input key={t.id} className="tab-radio" type="radio" name="auth-tab" id={`tab-${t.id}`} value={t.id} defaultChecked={state.tab === t.id} aria-label={t.label} />
      ))}
      <div className="tab-list" aria-hidden="true">
        {tabs.map((t) => (
          <label key={t.id} htmlFor={`tab-${t.id}`} className={`tab tab-${t.id}`}>
            {t.label}
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
