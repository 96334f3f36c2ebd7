// Who is waiting for a roulette partner, indexed so that a search reads only people who suit it
// both ways. A waiting person sits in buckets keyed by
//   (what they accept: gender filter, country filter, language filter)
//   x (what they are: gender or *, country or *, one language they speak or *).
// A searcher then needs only the buckets accepting "any" or exactly the searcher's own gender,
// country and one of the languages they speak, each read at the searcher's wanted gender, country
// and language (or * for "any"). Everyone in those buckets suits the searcher and is suited by
// them, and the buckets are disjoint (each person accepts one value per filter and is read at one).
// Each bucket keeps arrival order, and the buckets are merged by arrival number, so the searcher
// still meets the longest-waiting person who suits, as a full scan would. Buckets are linked
// lists, not Maps: a Map used as a queue leaves deleted slots at its front that every read from
// the front walks over again.
//
// Interests (issue 24) add two sets of the same buckets:
// - by tag: a person with interests sits, for each of their tags, in that tag's copy of their
//   buckets; a search for a shared interest reads its own tags' copies only.
// - open: the people a search without a shared interest may take. Someone without interests is
//   open on arrival (kind 0); someone with interests only once their wait for a shared one is over
//   (kind 1, linked then), and never with "interests only". The two kinds are separate lists, so
//   each stays in arrival order (every wait is equally long: the kind-1 list fills in arrival order).

export interface RouletteFilters {
  gender: "any" | "male" | "female";
  /** "any" or an upper-case country code. */
  country: string;
  /** "any" (or absent) or an ISO 639-1 code the partner must speak. */
  language?: string;
  /** This search's interests, normalised and without duplicates; none: paired as before. */
  interests?: readonly string[];
  /** Wait only for someone who shares one of `interests`. */
  interestsOnly?: boolean;
}

/** What a stranger may learn, read once when its owner starts searching. */
export interface RouletteProfile {
  userId: number;
  gender: string;
  countryCode: string | null;
  countryName?: string | null;
  age?: number | null;
  /** ISO 639-1 codes of the languages they speak. */
  languages?: readonly string[];
}

export interface Entry<S> {
  profile: RouletteProfile;
  filters: RouletteFilters;
  socket: S;
  /** Arrival number: smaller waited longer. */
  seq: number;
  /** One link in each bucket the entry sits in. */
  links: Link<S>[];
  /** In the open buckets: any suitable search may take them. */
  open?: boolean;
}

interface Link<S> {
  entry: Entry<S>;
  bucket: Bucket<S>;
  prev: Link<S> | null;
  next: Link<S> | null;
}

interface Bucket<S> {
  key: number;
  /** The map that holds this bucket, and its tag for a tag's buckets (dropped with its last bucket). */
  home: Map<number, Bucket<S>>;
  tag: string | null;
  head: Link<S> | null;
  tail: Link<S> | null;
}

/** "Any gender", "any country" or "any language" where a key names what someone is. */
const ALL = 0;
// Each dimension has its own codes, small enough that two sides and a kind fit one safe integer
// (4 + 10 + 8 bits a side). Countries in filters are any two letters (26 * 26 < 1024); genders and
// languages are validated against their lists.
const GENDERS = 2 ** 4;
const COUNTRIES = 2 ** 10;
const LANGUAGES = 2 ** 8;
const SIDE = GENDERS * COUNTRIES * LANGUAGES;

const side = (gender: number, country: number, language: number): number => (gender * COUNTRIES + country) * LANGUAGES + language;
/** What they accept, what they are: one number below 2^44. */
const key = (accepts: number, is: number): number => accepts * SIDE + is;

class Codes {
  private readonly codes = new Map<string, number>();
  constructor(private readonly limit: number, private readonly what: string) {}

  of(value: string): number {
    let code = this.codes.get(value);
    if (code === undefined) {
      code = this.codes.size + 1;
      // Unreachable with validated fields; past it keys would collide and filters would mix.
      if (code >= this.limit) throw new Error(`roulette: more distinct ${this.what} than bucket keys can hold`);
      this.codes.set(value, code);
    }
    return code;
  }
}

export class WaitingIndex<S> {
  private readonly entries = new Map<number, Entry<S>>();
  /** The open buckets, keyed by key(...) * 2 + kind: no key string is built and hashed per search. */
  private readonly buckets = new Map<number, Bucket<S>>();
  /** Each tag's copy of the buckets, for searches for a shared interest. */
  private readonly tags = new Map<string, Map<number, Bucket<S>>>();
  private readonly genders = new Codes(GENDERS, "genders");
  private readonly countries = new Codes(COUNTRIES, "countries");
  private readonly languages = new Codes(LANGUAGES, "languages");
  /** "any" where a filter names what someone accepts: read on every search, so coded once. */
  private readonly anyGender = this.genders.of("any");
  private readonly anyCountry = this.countries.of("any");
  private readonly anyLanguage = this.languages.of("any");
  /** The bucket heads a search merges, reused from one search to the next. */
  private readonly heads: (Link<S> | null)[] = [];
  private readonly accepts: number[] = [];
  private seq = 0;

  get size(): number {
    return this.entries.size;
  }

  /** Non-empty buckets, open and by tag: empty ones are dropped, so this follows who waits. */
  get bucketCount(): number {
    let count = this.buckets.size;
    for (const map of this.tags.values()) count += map.size;
    return count;
  }

  /** Tags someone waiting lists now (bounded by who waits). */
  get tagCount(): number {
    return this.tags.size;
  }

  /** Everyone waiting, in no set order (a leader dropping a dead instance's people). */
  values(): IterableIterator<Entry<S>> {
    return this.entries.values();
  }

  has(userId: number): boolean {
    return this.entries.has(userId);
  }

  get(userId: number): Entry<S> | undefined {
    return this.entries.get(userId);
  }

  /**
   * Adds at the back of the line (a repeated search waits anew). `open`: whether a search
   * without a shared interest may take them now (else only once `openUp` is called).
   */
  add(profile: RouletteProfile, filters: RouletteFilters, socket: S, open = true): Entry<S> {
    this.remove(profile.userId);
    const entry: Entry<S> = { profile, filters, socket, seq: ++this.seq, links: [], open: false };
    this.entries.set(profile.userId, entry);
    const keys = this.keysOf(entry);
    for (const tag of filters.interests ?? []) {
      let home = this.tags.get(tag);
      if (!home) this.tags.set(tag, (home = new Map()));
      for (const k of keys) this.link(entry, home, k, tag);
    }
    if (open) this.linkOpen(entry, keys, 0);
    return entry;
  }

  /** A wait for a shared interest is over: from now on any suitable search may take them. */
  openUp(entry: Entry<S>): void {
    if (entry.open || this.entries.get(entry.profile.userId) !== entry) return;
    this.linkOpen(entry, this.keysOf(entry), 1);
  }

  /** Takes the user out of every bucket; empty buckets are dropped so that memory follows who waits. */
  remove(userId: number): Entry<S> | undefined {
    const entry = this.entries.get(userId);
    if (!entry) return undefined;
    this.entries.delete(userId);
    for (const link of entry.links) {
      const { bucket } = link;
      if (link.prev) link.prev.next = link.next;
      else bucket.head = link.next;
      if (link.next) link.next.prev = link.prev;
      else bucket.tail = link.prev;
      if (!bucket.head) {
        bucket.home.delete(bucket.key);
        if (bucket.tag !== null && bucket.home.size === 0) this.tags.delete(bucket.tag);
      }
    }
    entry.links.length = 0;
    entry.open = false;
    return entry;
  }

  /**
   * The longest-waiting person who suits `profile`'s filters, whose filters `profile` suits, and
   * whom `accept` takes (blocks, recent partings...). `shared`: among those who share one of
   * `filters.interests`; otherwise among the open ones. Reads no one outside those buckets.
   * `accept` answering null ends the search with no one. Someone sharing two interests may be
   * offered to `accept` twice.
   */
  first(profile: RouletteProfile, filters: RouletteFilters, accept: (entry: Entry<S>) => boolean | null, shared = false): Entry<S> | undefined {
    const language = filters.language ?? "any";
    const is = side(
      filters.gender === "any" ? ALL : this.genders.of(filters.gender),
      filters.country === "any" ? ALL : this.countries.of(filters.country),
      language === "any" ? ALL : this.languages.of(language),
    );
    // What a waiting person may accept for the searcher to suit: "any", or what the searcher is.
    const { anyGender, anyCountry, anyLanguage } = this;
    const accepts = this.accepts;
    accepts.length = 0;
    const genders = profile.gender === "any" ? [anyGender] : [anyGender, this.genders.of(profile.gender)];
    const countries = profile.countryCode === null ? [anyCountry] : [anyCountry, this.countries.of(profile.countryCode)];
    for (const g of genders) for (const c of countries) {
      accepts.push(side(g, c, anyLanguage));
      for (const spoken of profile.languages ?? []) accepts.push(side(g, c, this.languages.of(spoken)));
    }
    const heads = this.heads;
    heads.length = 0;
    if (shared) {
      for (const tag of filters.interests ?? []) {
        const home = this.tags.get(tag);
        if (home) for (const a of accepts) this.pushHead(home, key(a, is));
      }
    } else {
      for (const a of accepts) {
        const k = key(a, is) * 2;
        this.pushHead(this.buckets, k);
        this.pushHead(this.buckets, k + 1);
      }
    }
    // Each bucket is in arrival order: merging them by arrival number keeps the whole line fair.
    for (;;) {
      let best = -1;
      for (let i = 0; i < heads.length; i++) {
        const head = heads[i];
        if (head && (best < 0 || head.entry.seq < heads[best]!.entry.seq)) best = i;
      }
      if (best < 0) return undefined;
      const { entry } = heads[best]!;
      if (entry.profile.userId !== profile.userId) {
        const verdict = accept(entry);
        if (verdict) return entry;
        if (verdict === null) return undefined;
      }
      heads[best] = heads[best]!.next;
    }
  }

  /** The keys (without kind) of every bucket `entry` sits in, in one set of buckets. */
  private keysOf(entry: Entry<S>): number[] {
    const { profile, filters } = entry;
    const accepts = side(this.genders.of(filters.gender), this.countries.of(filters.country), this.languages.of(filters.language ?? "any"));
    // A gender is never ALL and a spoken language never either, so no key comes twice.
    const genders = [ALL, this.genders.of(profile.gender)];
    const countries = profile.countryCode === null ? [ALL] : [ALL, this.countries.of(profile.countryCode)];
    const languages = [ALL];
    for (const spoken of profile.languages ?? []) languages.push(this.languages.of(spoken));
    const keys: number[] = [];
    for (const g of genders) for (const c of countries) for (const l of languages) keys.push(key(accepts, side(g, c, l)));
    return keys;
  }

  private linkOpen(entry: Entry<S>, keys: readonly number[], kind: 0 | 1): void {
    for (const k of keys) this.link(entry, this.buckets, k * 2 + kind, null);
    entry.open = true;
  }

  private pushHead(home: Map<number, Bucket<S>>, k: number): void {
    const bucket = home.get(k);
    if (bucket) this.heads.push(bucket.head);
  }

  private link(entry: Entry<S>, home: Map<number, Bucket<S>>, k: number, tag: string | null): void {
    let bucket = home.get(k);
    if (!bucket) home.set(k, (bucket = { key: k, home, tag, head: null, tail: null }));
    const link: Link<S> = { entry, bucket, prev: bucket.tail, next: null };
    if (bucket.tail) bucket.tail.next = link;
    else bucket.head = link;
    bucket.tail = link;
    entry.links.push(link);
  }
}
