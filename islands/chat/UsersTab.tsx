// All Users: the online counter, the search toggle with the Find Users panel, and the list, which
// the server searches and pages (lib/user-search.ts) as the filters change and the list scrolls;
// the people shown are watched for presence (usePresenceWatch.ts).
import { t } from "../i18n.ts";
import { useSignals } from "@preact/signals-react/runtime";
import { useEffect, useRef, useState } from "react";
import { EMPTY_FILTERS, filterUsers, filtersActive, type UserFilters } from "../lib/lists.ts";
import { onlineNow, peopleQuery, sameFilters } from "../lib/user-search.ts";
import { useChat } from "./context.ts";
import EmptyState from "./EmptyState.tsx";
import FindUsersPanel from "./FindUsersPanel.tsx";
import Icon from "./icons.tsx";
import ListSkeleton from "./ListSkeleton.tsx";
import { useCountries, useLoadMoreOnScroll, useSearchAsYouType } from "./usePeopleSearch.ts";
import { usePresenceWatch } from "./usePresenceWatch.ts";
import UserRow from "./UserRow.tsx";

export default function UsersTab() {
  useSignals();
  const { store, people, api } = useChat();
  const [searchOpen, setSearchOpen] = useState(false);
  const [filters, setFilters] = useState<UserFilters>(EMPTY_FILTERS);
  const scroller = useRef<HTMLDivElement>(null);
  const sentinel = useRef<HTMLDivElement>(null);
  const wanted = searchOpen ? filters : EMPTY_FILTERS;
  const active = filtersActive(wanted);
  const users = store.users.value;
  // Until the server answers a change, what it sent before is narrowed here at once.
  const shown = active ? filterUsers(users, wanted) : users;
  const countries = useCountries(api, searchOpen, () => {
    const seen = new Map<string, string>();
    for (const u of users) if (u.country_name && u.country_code) seen.set(u.country_name, u.country_code);
    return [...seen].map(([name, code]) => ({ code, name }));
  });
  useSearchAsYouType(people, wanted);
  useLoadMoreOnScroll(people, scroller, sentinel, shown.length);
  // Presence reaches this tab only for people it has a conversation with and people it watches.
  usePresenceWatch(shown.map((u) => u.id), scroller);
  // New results start at the top, wherever the previous list was scrolled to.
  const searched = peopleQuery(people.filters, null);
  useEffect(() => {
    if (scroller.current) scroller.current.scrollTop = 0;
  }, [searched]);

  const answered = sameFilters(people.filters, wanted) && !people.searching.value;
  const count = people.count.value;
  const onlineFound = count ? onlineNow(count, users) : 0;
  // With "online only", everyone found is online: the total follows the online count.
  const found = count ? (wanted.onlineOnly ? onlineFound : count.total) : 0;

  const closeSearch = () => {
    setFilters(EMPTY_FILTERS);
    setSearchOpen(false);
  };

  return (
    <section className="tab-panel" aria-labelledby="users-heading">
      <div className="panel-header">
        <h2 id="users-heading" className="panel-heading">
          {t("chat.tab_users")}
          <span className="online-counter">
            <span className="presence-dot is-online" aria-hidden="true" />
            {t("chat.online_count", { count: store.onlineCount.value })}
          </span>
        </h2>
        <button
          type="button"
          className={`icon-button${searchOpen ? " is-active" : ""}`}
          aria-label={searchOpen ? t("chat.close_search") : t("chat.find_users")}
          aria-expanded={searchOpen}
          onClick={() => (searchOpen ? closeSearch() : setSearchOpen(true))}
        >
          <Icon name={searchOpen ? "close" : "search"} />
        </button>
      </div>
      {searchOpen && <FindUsersPanel filters={filters} countries={countries} onChange={setFilters} />}
      {active && (
        <div className="result-header" role="status">
          <span>{answered ? t("chat.found", { online: onlineFound, count: found }) : t("chat.searching")}</span>
          <button type="button" className="link-button" onClick={closeSearch} aria-label={t("chat.clear_results")}>
            <Icon name="close" size={16} />
          </button>
        </div>
      )}
      <div className="list-scroll" ref={scroller} aria-busy={!answered || people.loadingMore.value}>
        {store.usersLoading.value || (!answered && shown.length === 0) ? (
          <ListSkeleton rows={8} />
        ) : active && shown.length === 0 ? (
          <EmptyState icon="search" title={t("chat.no_users")} text={t("chat.no_users_text")} />
        ) : (
          <>
            {!active && store.onlineCount.value <= 1 && (
              <div className="welcome-note">
                <strong>{t("chat.welcome_name", { name: store.me.value.name })}</strong>
                <span>{t("chat.nobody_online")}</span>
              </div>
            )}
            <ul className="list">
              {shown.map((user) => (
                <UserRow key={user.id} user={user} />
              ))}
            </ul>
            {people.hasMore.value && (
              <div className="list-more" ref={sentinel}>
                <button type="button" className="button small" disabled={people.loadingMore.value} onClick={() => void people.loadMore()}>
                  {people.loadingMore.value ? t("common.loading") : t("chat.show_more")}
                </button>
              </div>
            )}
          </>
        )}
      </div>
    </section>
  );
}
