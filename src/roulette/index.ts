// Who is waiting for a roulette partner, indexed so that a search reads only people who suit it
// both ways. A waiting person sits in four buckets keyed by
//   (what they accept: gender filter, country filter) x (what they are: gender or *, country or *).
// A searcher then needs at most four buckets: those accepting "any" or exactly the searcher's own
// gender and country, each read at the searcher's wanted gender and country (or * for "any").
// Everyone in those buckets suits the searcher and is suited by them, and the four are disjoint.
// Each bucket keeps arrival order, and the four are merged by arrival number, so the searcher
// still meets the longest-waiting person who suits, as the full scan did. Buckets are linked
// lists, not Maps: a Map used as a queue leaves deleted slots at its front that every read from
// the front walks over again.

export interface RouletteFilters {
  gender: "any" | "male" | "female";
  /** "any" or an upper-case country code. */
  country: string;
}

/** What a stranger may learn, read once when its owner starts searching. */
export interface RouletteProfile {
  userId: number;
  gender: string;
  countryCode: string | null;
  countryName?: string | null;
  age?: number | null;
}

export interface Entry<S> {
  profile: RouletteProfile;
  filters: RouletteFilters;
  socket: S;
  /** Arrival number: smaller waited longer. */
  seq: number;
  /** One link in each bucket the entry sits in. */
  links: Link<S>[];
}

interface Link<S> {
  entry: Entry<S>;
  bucket: Bucket<S>;
  prev: Link<S> | null;
  next: Link<S> | null;
}

interface Bucket<S> {
  key: number;
  head: Link<S> | null;
  tail: Link<S> | null;
}

/** "Any gender" or "any country" where a key names what someone is. */
const ALL = 0;
/** Codes stay below this, so four fit one safe integer. */
const CODE_LIMIT = 2 ** 13;

export class WaitingIndex<S> {
  private readonly entries = new Map<number, Entry<S>>();
  /**
   * Keyed by one number made of four small codes (what they accept: gender, country; what they
   * are: gender, country): no key string is built and hashed per search.
   */
  private readonly buckets = new Map<number, Bucket<S>>();
  /** A small number for each gender, country and "any" seen. They come from validated fields (two genders, two-letter countries), so this stays a few hundred long. */
  private readonly codes = new Map<string, number>();
  /** The four bucket heads a search merges, reused from one search to the next. */
  private readonly heads: (Link<S> | null)[] = [];
  private seq = 0;

  get size(): number {
    return this.entries.size;
  }

  /** Non-empty buckets: empty ones are dropped, so this follows who waits. */
  get bucketCount(): number {
    return this.buckets.size;
  }

  has(userId: number): boolean {
    return this.entries.has(userId);
  }

  get(userId: number): Entry<S> | undefined {
    return this.entries.get(userId);
  }

  /** Adds at the back of the line (a repeated search waits anew). */
  add(profile: RouletteProfile, filters: RouletteFilters, socket: S): Entry<S> {
    this.remove(profile.userId);
    const accepts = this.code(filters.gender) * CODE_LIMIT + this.code(filters.country);
    const gender = this.code(profile.gender);
    const entry: Entry<S> = { profile, filters, socket, seq: ++this.seq, links: [] };
    this.entries.set(profile.userId, entry);
    // No country: found only by searchers who take any country. The keys differ (a gender is never ALL), so no bucket twice.
    if (profile.countryCode === null) {
      this.link(entry, key(accepts, gender, ALL));
      this.link(entry, key(accepts, ALL, ALL));
    } else {
      const country = this.code(profile.countryCode);
      this.link(entry, key(accepts, gender, country));
      this.link(entry, key(accepts, ALL, country));
      this.link(entry, key(accepts, gender, ALL));
      this.link(entry, key(accepts, ALL, ALL));
    }
    return entry;
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
      if (!bucket.head) this.buckets.delete(bucket.key);
    }
    entry.links.length = 0;
    return entry;
  }

  /**
   * The longest-waiting person who suits `profile`'s filters, whose filters `profile` suits, and
   * whom `accept` takes (blocks, recent partings...). Reads no one outside the four buckets.
   * `accept` answering null ends the search with no one.
   */
  first(profile: RouletteProfile, filters: RouletteFilters, accept: (entry: Entry<S>) => boolean | null): Entry<S> | undefined {
    const wantGender = filters.gender === "any" ? ALL : this.code(filters.gender);
    const wantCountry = filters.country === "any" ? ALL : this.code(filters.country);
    const anyCode = this.code("any");
    const myGender = profile.gender === "any" ? anyCode : this.code(profile.gender);
    const myCountry = profile.countryCode === null ? anyCode : this.code(profile.countryCode);
    const heads = this.heads;
    heads.length = 0;
    this.pushHead(key(anyCode * CODE_LIMIT + anyCode, wantGender, wantCountry));
    if (myCountry !== anyCode) this.pushHead(key(anyCode * CODE_LIMIT + myCountry, wantGender, wantCountry));
    if (myGender !== anyCode) {
      this.pushHead(key(myGender * CODE_LIMIT + anyCode, wantGender, wantCountry));
      if (myCountry !== anyCode) this.pushHead(key(myGender * CODE_LIMIT + myCountry, wantGender, wantCountry));
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

  private pushHead(k: number): void {
    const bucket = this.buckets.get(k);
    if (bucket) this.heads.push(bucket.head);
  }

  private link(entry: Entry<S>, k: number): void {
    let bucket = this.buckets.get(k);
    if (!bucket) this.buckets.set(k, (bucket = { key: k, head: null, tail: null }));
    const link: Link<S> = { entry, bucket, prev: bucket.tail, next: null };
    if (bucket.tail) bucket.tail.next = link;
    else bucket.head = link;
    bucket.tail = link;
    entry.links.push(link);
  }

  private code(value: string): number {
    let code = this.codes.get(value);
    if (code === undefined) {
      code = this.codes.size + 1;
      // Unreachable with validated fields; past it keys would collide and filters would mix.
      if (code >= CODE_LIMIT) throw new Error("roulette: more distinct genders and countries than bucket keys can hold");
      this.codes.set(value, code);
    }
    return code;
  }
}

/** What they accept (gender and country codes, already combined), what they are: one number below 2^52. */
const key = (accepts: number, gender: number, country: number): number => (accepts * CODE_LIMIT + gender) * CODE_LIMIT + country;
