// All Users: the online counter, the search toggle with the Find Users panel, and the list.
import { useSignals } from "@preact/signals-react/runtime";
import { useMemo, useState } from "react";
import { EMPTY_FILTERS, filterUsers, filtersActive, type UserFilters } from "../lib/lists.ts";
import { useChat } from "./context.ts";
import EmptyState from "./EmptyState.tsx";
import FindUsersPanel from "./FindUsersPanel.tsx";
import Icon from "./icons.tsx";
import ListSkeleton from "./ListSkeleton.tsx";
import UserRow from "./UserRow.tsx";

export default function UsersTab() {
  useSignals();
  const { store } = useChat();
  const [searchOpen, setSearchOpen] = useState(false);
  const [filters, setFilters] = useState<UserFilters>(EMPTY_FILTERS);
  const users = store.users.value;
  const countries = useMemo(
    () => [...new Set(users.map((u) => u.country_name).filter((c): c is string => Boolean(c)))].sort(),
    [users],
  );
  const active = searchOpen && filtersActive(filters);
  const shown = active ? filterUsers(users, filters) : users;
  const othersOnline = users.some((u) => u.is_online);

  const closeSearch = () => {
    setFilters(EMPTY_FILTERS);
    setSearchOpen(false);
  };

  return (
    <section className="tab-panel" aria-labelledby="users-heading">
      <div className="panel-header">
        <h2 id="users-heading" className="panel-heading">
          All Users
          <span className="online-counter" aria-label={`${store.onlineCount.value} online`}>
            <span className="presence-dot is-online" aria-hidden="true" />
            {store.onlineCount.value} online
          </span>
        </h2>
        <button
          type="button"
          className={`icon-button${searchOpen ? " is-active" : ""}`}
          aria-label={searchOpen ? "Close search" : "Find Users"}
          aria-expanded={searchOpen}
          onClick={() => (searchOpen ? closeSearch() : setSearchOpen(true))}
        >
          <Icon name={searchOpen ? "close" : "search"} />
        </button>
      </div>
      {searchOpen && <FindUsersPanel filters={filters} countries={countries} onChange={setFilters} />}
      {active && (
        <div className="result-header" role="status">
          <span>
            {shown.filter((u) => u.is_online).length} of {shown.length} found
          </span>
          <button type="button" className="link-button" onClick={closeSearch} aria-label="Clear results">
            <Icon name="close" size={16} />
          </button>
        </div>
      )}
      <div className="list-scroll">
        {store.usersLoading.value ? (
          <ListSkeleton rows={8} />
        ) : active && shown.length === 0 ? (
          <EmptyState icon="search" title="No users found" text="Try adjusting your search filters" />
        ) : (
          <>
            {!active && !othersOnline && (
              <div className="welcome-note">
                <strong>Welcome, {store.me.value.name}!</strong>
                <span>No one else is online right now. New people join all the time, so check back soon.</span>
              </div>
            )}
            <ul className="list">
              {shown.map((user) => (
                <UserRow key={user.id} user={user} />
              ))}
            </ul>
          </>
        )}
      </div>
    </section>
  );
}
