// The All Users tab's hooks over PeopleList (lib/user-search.ts): searching as the filters change,
// the next page as the list scrolls, and the country names the Find Users panel offers.
import { useEffect, useRef, useState, type RefObject } from "react";
import type { Api } from "../lib/api.ts";
import type { UserFilters } from "../lib/lists.ts";
import type { Country } from "../lib/types.ts";
import { SEARCH_DEBOUNCE_MS, sameFilters, type PeopleList } from "../lib/user-search.ts";

/** Asks the server once the filters settle: a typed name waits for the next key, a choice asks at once. */
export function useSearchAsYouType(people: PeopleList, wanted: UserFilters): void {
  const typed = useRef(wanted.name);
  useEffect(() => {
    if (sameFilters(people.filters, wanted)) return;
    const delay = wanted.name === typed.current ? 0 : SEARCH_DEBOUNCE_MS;
    typed.current = wanted.name;
    const timer = setTimeout(() => void people.search(wanted), delay);
    return () => clearTimeout(timer);
  }, [people, wanted]);
}

/** Distance from the end of the list at which the next page is asked for. */
const AHEAD_PX = 400;

/**
 * Loads the next page when `sentinel` (the row after the list) comes within AHEAD_PX of view in
 * `scroller`. Without IntersectionObserver the scroll position decides; the sentinel's own button
 * serves keyboards and anything else.
 */
export function useLoadMoreOnScroll(
  people: PeopleList,
  scroller: RefObject<HTMLElement | null>,
  sentinel: RefObject<HTMLElement | null>,
  rows: number,
): void {
  const inView = useRef(false);
  const hasMore = people.hasMore.value;
  useEffect(() => {
    const root = scroller.current;
    const target = sentinel.current;
    if (!root || !target || !hasMore) return;
    if (typeof IntersectionObserver === "undefined") {
      const onScroll = () => {
        if (root.scrollTop + root.clientHeight >= root.scrollHeight - AHEAD_PX) void people.loadMore();
      };
      root.addEventListener("scroll", onScroll, { passive: true });
      return () => root.removeEventListener("scroll", onScroll);
    }
    const observer = new IntersectionObserver(
      (entries) => {
        inView.current = entries.some((e) => e.isIntersecting);
        if (inView.current) void people.loadMore();
      },
      { root, rootMargin: `0px 0px ${AHEAD_PX}px 0px` },
    );
    observer.observe(target);
    return () => {
      inView.current = false;
      observer.disconnect();
    };
  }, [people, scroller, sentinel, hasMore]);
  // A page too short to push the sentinel out of view changes nothing the observer watches.
  useEffect(() => {
    if (inView.current) void people.loadMore();
  }, [people, rows]);
}

/** Every country (code and English name), fetched when the panel first opens; until then (or if that fails) those in the list. */
export function useCountries(api: Api, open: boolean, fallback: () => Country[]): Country[] {
  const [countries, setCountries] = useState<Country[] | null>(null);
  useEffect(() => {
    if (!open || countries) return;
    let current = true;
    api
      .countries()
      .then(({ countries }) => current && setCountries(countries))
      .catch((error) => console.error("Failed to load countries", error));
    return () => {
      current = false;
    };
  }, [api, open, countries]);
  return countries ?? fallback();
}
